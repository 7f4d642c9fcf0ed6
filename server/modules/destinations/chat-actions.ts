import { randomUUID } from 'node:crypto';
import { DESTINATION_MSG, type ChatLinkInfo, type ChatLinkResult } from '../../../contract/destinations.ts';
import type { DB } from '../../db/database.ts';
import type { ChatActionTokensTable } from '../../db/schema.ts';
import { forbidden, notFound, conflict } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { newToken, hashToken } from '../../lib/tokens.ts';
import { acknowledgeAlert, resolveAlert } from '../alerts/alerts.service.ts';
import { loadTenantContext } from '../tenants/tenants.service.ts';
import { findUserById } from '../users/users.service.ts';
import * as chat from './chat.repository.ts';

/**
 * One-time links of chat posts (issue 29). A Teams Workflows card cannot post back, so its Acknowledge and Resolve
 * buttons open a link (a random token; only its SHA-256 is stored with the alert, the action and an expiry) that acts
 * as the Alertdesk member who opens it while signed in, once. A Slack user's "link your account" link is the same
 * kind of token naming the Slack team and user. Who acts is always a signed-in member, checked through the tenant's
 * own rules (a viewer cannot acknowledge), and the alert changes through the alert service like any action.
 */
export const CHAT_LINK_TTL_MS = 7 * 24 * 3600_000;
export const SLACK_LINK_TTL_MS = 24 * 3600_000;

export const chatLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/app/chat/${token}`;

export type ChatVia = 'Slack' | 'Teams';
export type ChatAction = 'acknowledge' | 'resolve';

const tokenRow = (tenantId: string, hash: string, kind: ChatActionTokensTable['kind'], now: Date, ttl: number, extra: Partial<ChatActionTokensTable>): ChatActionTokensTable => ({
  token_hash: hash,
  tenant_id: tenantId,
  kind,
  alert_id: null,
  destination_id: null,
  slack_team_id: null,
  slack_user_id: null,
  expires_at: new Date(now.getTime() + ttl).toISOString(),
  used_at: null,
  used_by: null,
  created_at: now.toISOString(),
  ...extra,
});

/** The Acknowledge and Resolve links of one Teams card (only those the alert's state still allows). */
export async function issueAlertLinks(db: DB, t: { tenantId: string; destinationId: string; alertId: string; now: Date; actions: ChatAction[] }) {
  await chat.unsafeDeleteExpiredChatTokens(db, t.now.toISOString());
  const out: Partial<Record<ChatAction, string>> = {};
  const rows: ChatActionTokensTable[] = [];
  for (const action of t.actions) {
    const { token, hash } = newToken();
    out[action] = token;
    rows.push(tokenRow(t.tenantId, hash, `alert.${action}`, t.now, CHAT_LINK_TTL_MS, { alert_id: t.alertId, destination_id: t.destinationId }));
  }
  await chat.insertChatTokens(db, rows);
  return out;
}

/** A Slack user's "link your account" link in a tenant. */
export async function issueSlackLink(db: DB, t: { tenantId: string; destinationId: string; slackTeamId: string; slackUserId: string; now: Date }) {
  const { token, hash } = newToken();
  await chat.insertChatTokens(db, [tokenRow(t.tenantId, hash, 'slack.link', t.now, SLACK_LINK_TTL_MS, { destination_id: t.destinationId, slack_team_id: t.slackTeamId, slack_user_id: t.slackUserId })]);
  return token;
}

const plausible = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

async function liveLink(db: DB, token: string, now: Date) {
  const row = plausible(token) ? await chat.unsafeFindChatToken(db, hashToken(token)) : undefined;
  if (!row || row.expires_at <= now.toISOString() || (row.alert_id && !row.alert_title)) throw notFound(DESTINATION_MSG.linkInvalid);
  return row;
}

/** What a link does, for the page that opens it (no session needed: it only describes). */
export async function chatLinkInfo(db: DB, token: string, now: Date): Promise<ChatLinkInfo> {
  const row = await liveLink(db, token, now);
  return { kind: row.kind, tenantName: row.tenant_name, alertId: row.alert_id, alertTitle: row.alert_title ?? null, alertStatus: row.alert_status ?? null, usable: row.used_at === null };
}

export interface ChatActDeps {
  db: DB;
  bus: AlertBus;
}

/** The tenant context of a member acting from a chat, named "<name> (from Slack)" in the alert's timeline. */
async function memberContext(db: DB, tenantId: string, user: SessionUser, via: ChatVia) {
  const ctx = await loadTenantContext(db, user, tenantId);
  if (!ctx) return null;
  return { ...ctx, via };
}

/** Acknowledges or resolves an alert as a member, from a chat: the alert service's own checks (role, status: 409). */
export async function actFromChat(deps: ChatActDeps, a: { tenantId: string; user: SessionUser; alertId: string; action: ChatAction; via: ChatVia }) {
  const ctx = await memberContext(deps.db, a.tenantId, a.user, a.via);
  if (!ctx) throw forbidden(DESTINATION_MSG.slackNotMember);
  return a.action === 'acknowledge' ? acknowledgeAlert(deps, ctx, a.alertId) : resolveAlert(deps, ctx, a.alertId);
}

/**
 * The member linked to a Slack user in a tenant, as a user: null when not linked, or when that account is no longer
 * an active member there (the Slack user is then offered a new link, for whoever they are now).
 */
export async function linkedMember(db: DB, tenantId: string, slackTeamId: string, slackUserId: string): Promise<SessionUser | null> {
  const link = await chat.findSlackUserLink(db, tenantId, slackTeamId, slackUserId);
  const found = link ? await findUserById(db, link.user_id) : undefined;
  const user = found ? { ...found, token_hash: '' } : null;
  return user && (await loadTenantContext(db, user, tenantId)) ? user : null;
}

/**
 * Opens a link as the signed-in user: a Teams card's action (acknowledge / resolve, "from Teams") or a Slack user's
 * link to this account. Used once; a link of a tenant the user is not a member of answers 404 like an unknown one.
 */
export async function useChatLink(deps: ChatActDeps, user: SessionUser, token: string, now: Date): Promise<ChatLinkResult> {
  const row = await liveLink(deps.db, token, now);
  if (!(await loadTenantContext(deps.db, user, row.tenant_id))) throw notFound(DESTINATION_MSG.linkInvalid);
  if (row.used_at) throw conflict(DESTINATION_MSG.linkUsed);
  if (row.kind === 'slack.link') {
    if (!(await chat.useChatToken(deps.db, row.tenant_id, row.token_hash, user.id, now.toISOString()))) throw conflict(DESTINATION_MSG.linkUsed);
    await chat.saveSlackUserLink(deps.db, { id: randomUUID(), tenant_id: row.tenant_id, slack_team_id: row.slack_team_id!, slack_user_id: row.slack_user_id!, user_id: user.id, created_at: now.toISOString() });
    return { message: DESTINATION_MSG.linkedDone, alertId: null };
  }
  const action: ChatAction = row.kind === 'alert.acknowledge' ? 'acknowledge' : 'resolve';
  const detail = await actFromChat(deps, { tenantId: row.tenant_id, user, alertId: row.alert_id!, action, via: 'Teams' });
  // Marked used once the action is made (a refused action, 409 or 403, leaves the link usable by someone who may).
  await chat.useChatToken(deps.db, row.tenant_id, row.token_hash, user.id, now.toISOString());
  return { message: DESTINATION_MSG.actionDone(action === 'acknowledge' ? 'acknowledged' : 'resolved'), alertId: detail.alert.id };
}
