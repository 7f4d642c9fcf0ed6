import { z } from 'zod';
import { requiredString } from './common.ts';

/**
 * API tokens of a tenant (issue 29). `Authorization: Bearer adk_…` works on the tenant's REST API with the token's
 * role, acting as the member who created it (every change shows "<creator> via API token '<name>'"):
 * - `read`: GET only, reading what an admin reads;
 * - `write`: the reads and writes a member with the 'admin' role may make on the tenant's REST API.
 * Both never more than the creator's role at the time of the request (a creator since made 'user' gives the token
 * 'user' abilities; a creator no longer a member ends the token).
 * Never on account, session, profile or system routes, nor on the tenant's member management, its API tokens or its
 * destinations (their secrets), nor on the live event stream.
 */
export const API_TOKEN_ROLES = ['read', 'write'] as const;
export const ApiTokenRole = z.enum(API_TOKEN_ROLES, { error: "Role must be 'read' or 'write'" });
export type ApiTokenRole = z.infer<typeof ApiTokenRole>;

export const API_TOKEN_ROLE_LABELS: Record<ApiTokenRole, string> = { read: 'Read', write: 'Read and write' };

/** The expiries the screen offers, in days; null: never. */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;

export const API_TOKEN_LIMITS = { perTenant: 100, nameMax: 100 } as const;

/** The prefix of every token: a secret scanner (or a person) can tell what it is. */
export const API_TOKEN_PREFIX = 'adk_';

export const API_TOKEN_MSG = {
  nameRequired: 'Token name is required',
  expiryRange: 'Expiry must be a whole number of days from 1 to 365, or empty for never',
  tooMany: `An organization may have at most ${API_TOKEN_LIMITS.perTenant} API tokens`,
  notFound: 'API token not found',
  invalid: 'Invalid, expired or revoked API token',
  readOnly: 'This API token may only read (GET)',
  notHere: 'API tokens cannot be used on this route',
  rateLimited: 'Too many requests with this API token. Please retry later.',
  tooManyInvalid: 'Too many invalid API tokens from this address. Please retry later.',
  shownOnce: 'Copy this token now: it is shown only once.',
  none: 'No API tokens yet. Create one for each script or tool that uses the Alertdesk API.',
  loadFailed: 'Failed to load API tokens. Please try again.',
  revokeConfirm: (name: string) => `Revoke the API token '${name}'? Scripts using it stop working at once.`,
  /** How a change made with a token is attributed (timelines, notes): the creator, via the token. */
  actorName: (creator: string, token: string) => `${creator} via API token '${token}'`,
} as const;

export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  role: ApiTokenRole,
  prefix: z.string(),
  createdById: z.string(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const ApiTokenList = z.object({ items: z.array(ApiToken) });
export type ApiTokenList = z.infer<typeof ApiTokenList>;

export const ApiTokenInput = z.object({
  name: requiredString(API_TOKEN_MSG.nameRequired, API_TOKEN_LIMITS.nameMax),
  role: ApiTokenRole,
  expiresInDays: z.number({ error: API_TOKEN_MSG.expiryRange }).int(API_TOKEN_MSG.expiryRange).min(1, API_TOKEN_MSG.expiryRange).max(365, API_TOKEN_MSG.expiryRange).nullable().optional(),
});
export type ApiTokenInput = z.infer<typeof ApiTokenInput>;

/** The creation's answer: the only time the token itself is shown. */
export const ApiTokenCreated = ApiToken.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof ApiTokenCreated>;

export const ApiTokenParams = z.object({ tenantId: z.string().min(1).max(100), tokenId: z.string().min(1).max(100) });
