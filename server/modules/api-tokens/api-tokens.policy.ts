import type { MemberRole } from '../../../contract/auth.ts';
import type { ApiTokenRole } from '../../../contract/api-tokens.ts';

/**
 * Where an API token works, by the first path segment after `/api/tenants/:tenantId/`: never the tenant's member
 * management (details, members), its API tokens or destinations (secrets), a person's own settings
 * (notification preferences, my on-call and its calendar feed) or the live event stream (re-checked against sessions).
 */
// A person's own acts (their swaps, taking the pager) and what holds credentials (destinations, PSA connections) are
// not for scripts.
const NOT_FOR_TOKENS = new Set(['details', 'members', 'invitations', 'apiTokens', 'destinations', 'psaConnections', 'notification-preferences', 'myOnCall', 'shiftSwaps', 'pagerOptions', 'events']);
const PERSONAL_ACTS = /\/takePager$/;

const READ_METHODS = new Set(['GET', 'HEAD']);

export type TokenUse = 'ok' | 'notHere' | 'readOnly';

/** Whether a token of `role` may make this request (routeUrl: the route's pattern, `/api/tenants/:tenantId/…`). */
export function tokenUse(role: ApiTokenRole, method: string, routeUrl: string): TokenUse {
  const m = /^\/api\/tenants\/:tenantId\/([^/]+)/.exec(routeUrl);
  if (!m || NOT_FOR_TOKENS.has(m[1]) || PERSONAL_ACTS.test(routeUrl)) return 'notHere';
  if (role === 'read' && !READ_METHODS.has(method.toUpperCase())) return 'readOnly';
  return 'ok';
}

/**
 * The member role a token acts with, whatever its own role (`read` is held to GET and HEAD by tokenUse): an 'admin',
 * capped by its creator's role now (a creator since made 'user' gives their tokens 'user' abilities). Never 'owner':
 * owner-only acts are not for scripts.
 */
export function tokenMemberRole(creatorRole: MemberRole): MemberRole {
  return creatorRole === 'user' ? 'user' : 'admin';
}

/** A token is usable until revoked and before its expiry. */
export function tokenLive(token: { revoked_at: string | null; expires_at: string | null }, at: Date): boolean {
  return !token.revoked_at && (!token.expires_at || token.expires_at > at.toISOString());
}

/** last_used_at is written at most this often per token (not a write per request). */
export const LAST_USED_EVERY_MS = 60_000;
