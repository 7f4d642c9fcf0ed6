import type { DB } from '../../db/database.ts';
import type { ChatActionTokensTable, SlackMessagesTable } from '../../db/schema.ts';

// Teams and Slack (issue 29): the Slack messages posted per alert, Slack users linked to members, one-time links.

export async function findSlackMessage(db: DB, tenantId: string, destinationId: string, alertId: string) {
  return db.selectFrom('slack_messages').selectAll().where('tenant_id', '=', tenantId).where('destination_id', '=', destinationId).where('alert_id', '=', alertId).executeTakeFirst();
}

/** The Slack destinations that hold a message for this alert (updated when it changes). */
export async function listSlackMessagesOfAlert(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('slack_messages').select(['destination_id', 'channel', 'ts', 'state']).where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).execute();
}

/** Remembers the message posted (or updated) for an alert, and what it shows. */
export async function saveSlackMessage(db: DB, row: SlackMessagesTable) {
  await db
    .insertInto('slack_messages')
    .values(row)
    .onConflict((oc) => oc.columns(['destination_id', 'alert_id']).doUpdateSet({ channel: row.channel, ts: row.ts, state: row.state, updated_at: row.updated_at }))
    .execute();
}

export async function deleteSlackMessagesOf(db: DB, tenantId: string, destinationId: string) {
  await db.deleteFrom('slack_messages').where('tenant_id', '=', tenantId).where('destination_id', '=', destinationId).execute();
}

/** The member a Slack user acts as in a tenant, if linked. */
export async function findSlackUserLink(db: DB, tenantId: string, slackTeamId: string, slackUserId: string) {
  return db
    .selectFrom('slack_user_links')
    .select(['user_id'])
    .where('tenant_id', '=', tenantId)
    .where('slack_team_id', '=', slackTeamId)
    .where('slack_user_id', '=', slackUserId)
    .executeTakeFirst();
}

/** Links a Slack user to a member (a second link of the same Slack user moves it to this member). */
export async function saveSlackUserLink(db: DB, row: { id: string; tenant_id: string; slack_team_id: string; slack_user_id: string; user_id: string; created_at: string }) {
  await db
    .insertInto('slack_user_links')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'slack_team_id', 'slack_user_id']).doUpdateSet({ user_id: row.user_id, created_at: row.created_at }))
    .execute();
}

export async function insertChatTokens(db: DB, rows: ChatActionTokensTable[]) {
  if (rows.length) await db.insertInto('chat_action_tokens').values(rows).execute();
}

/** A one-time link by its token's hash, with its tenant's name and its alert: looked up before the tenant is known (the token is the credential). */
export async function unsafeFindChatToken(db: DB, tokenHash: string) {
  return db
    .selectFrom('chat_action_tokens as t')
    .innerJoin('tenants as n', 'n.id', 't.tenant_id')
    .leftJoin('alerts as a', (j) => j.onRef('a.id', '=', 't.alert_id').onRef('a.tenant_id', '=', 't.tenant_id'))
    .select(['t.token_hash', 't.tenant_id', 't.kind', 't.alert_id', 't.destination_id', 't.slack_team_id', 't.slack_user_id', 't.expires_at', 't.used_at', 'n.name as tenant_name', 'a.title as alert_title', 'a.status as alert_status'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a link used, once: false when it was used already (a replayed link). */
export async function useChatToken(db: DB, tenantId: string, tokenHash: string, userId: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('chat_action_tokens')
    .set({ used_at: at, used_by: userId })
    .where('tenant_id', '=', tenantId)
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Forgets links past their expiry (every tenant's: the delivery job's housekeeping). */
export async function unsafeDeleteExpiredChatTokens(db: DB, before: string) {
  await db.deleteFrom('chat_action_tokens').where('expires_at', '<', before).execute();
}

/** A destination by id, whatever its tenant (a Slack button names its destination; the signed request is the credential). */
export async function unsafeFindDestination(db: DB, id: string) {
  return db.selectFrom('destinations').selectAll().where('id', '=', id).executeTakeFirst();
}
