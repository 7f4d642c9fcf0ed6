import type { DB } from '../../db/database.ts';
import type { IntegrationsTable } from '../../db/schema.ts';

export type IntegrationRow = IntegrationsTable & { client_name: string | null };

const withClient = (db: DB) =>
  db
    .selectFrom('integrations as i')
    .leftJoin('clients as c', (j) => j.onRef('c.id', '=', 'i.client_id').onRef('c.tenant_id', '=', 'i.tenant_id'))
    .selectAll('i')
    .select('c.name as client_name');

export async function listIntegrations(db: DB, tenantId: string): Promise<IntegrationRow[]> {
  return withClient(db).where('i.tenant_id', '=', tenantId).orderBy('i.created_at', 'desc').orderBy('i.id').execute();
}

export async function findIntegration(db: DB, tenantId: string, id: string): Promise<IntegrationRow | undefined> {
  return withClient(db).where('i.tenant_id', '=', tenantId).where('i.id', '=', id).executeTakeFirst();
}

export async function insertIntegration(db: DB, row: IntegrationsTable) {
  await db.insertInto('integrations').values(row).execute();
}

export async function updateIntegration(
  db: DB,
  tenantId: string,
  id: string,
  set: Partial<
    Pick<IntegrationsTable, 'name' | 'client_id' | 'escalation_policy_id' | 'key_hash' | 'key_prefix' | 'revoked_at' | 'revoked_by' | 'updated_at' | 'email_token' | 'email_settings'>
  >,
) {
  const r = await db.updateTable('integrations').set(set).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * The integration a key belongs to, across every tenant: the key is the caller's only credential on the ingestion
 * endpoints, so this lookup is deliberately unscoped.
 */
export async function unsafeFindIntegrationByKeyHash(db: DB, keyHash: string) {
  return db
    .selectFrom('integrations')
    .select(['id', 'tenant_id', 'client_id', 'name', 'revoked_at', 'routing_rules'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

/**
 * The integration an email address token belongs to, across every tenant: the address is all an inbound mail names,
 * so this lookup is deliberately unscoped.
 */
export async function unsafeFindIntegrationByEmailToken(db: DB, token: string) {
  return db
    .selectFrom('integrations')
    .select(['id', 'tenant_id', 'client_id', 'name', 'revoked_at', 'email_settings', 'routing_rules'])
    .where('email_token', '=', token)
    .executeTakeFirst();
}

/** An integration's routing rules as stored (JSON), or undefined when the tenant has no such integration. */
export async function findRoutingRules(db: DB, tenantId: string, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('integrations').select('routing_rules').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return row ? (row.routing_rules ?? '[]') : undefined;
}

/** Replaces an integration's routing rules; false when the tenant has no such integration. */
export async function saveRoutingRules(db: DB, tenantId: string, id: string, rules: string, at: string): Promise<boolean> {
  const r = await db.updateTable('integrations').set({ routing_rules: rules, updated_at: at }).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export const RAW_EVENTS_KEPT = 20;

/** Keeps one raw event of an integration, and forgets all but its last RAW_EVENTS_KEPT. */
export async function insertRawEvent(db: DB, row: { id: string; tenant_id: string; integration_id: string; format: string; body: string; received_at: string }) {
  await db.insertInto('integration_raw_events').values(row).execute();
  const keep = db
    .selectFrom('integration_raw_events')
    .select('id')
    .where('tenant_id', '=', row.tenant_id)
    .where('integration_id', '=', row.integration_id)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(RAW_EVENTS_KEPT);
  await db.deleteFrom('integration_raw_events').where('tenant_id', '=', row.tenant_id).where('integration_id', '=', row.integration_id).where('id', 'not in', keep).execute();
}

/** An integration's kept raw events, newest first. */
export async function listRawEvents(db: DB, tenantId: string, integrationId: string) {
  return db
    .selectFrom('integration_raw_events')
    .select(['id', 'format', 'body', 'received_at'])
    .where('tenant_id', '=', tenantId)
    .where('integration_id', '=', integrationId)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(RAW_EVENTS_KEPT)
    .execute();
}

/** Records that a key was used; called at most once a minute per key, never on the hot path's critical section. */
export async function touchIntegration(db: DB, tenantId: string, id: string, at: string) {
  await db.updateTable('integrations').set({ last_used_at: at }).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}
