import { sql, type Insertable, type Updateable } from 'kysely';
import type { EscalationPolicy, EscalationPolicyInput, EscalationTimes, LaterLevel, Level1 } from '../../../contract/escalation.ts';
import { chunks } from '../../db/bulk-insert.ts';
import type { DB } from '../../db/database.ts';
import { namedTenantRow, parseJson } from '../../db/database.ts';
import type { EscalationPoliciesTable } from '../../db/schema.ts';

export type PolicyRow = EscalationPoliciesTable;

// A level stored before issue 27 has no `notify`: its schedules page their primary only (migration 0031 writes it).
const EMPTY_LEVEL: Level1 = { userIds: [], scheduleIds: [], notify: 'primary', notificationChannels: [] };

/** The columns a person edits, as stored (JSON text for the times and levels, 0/1 for the flag). */
export function policyColumns(input: EscalationPolicyInput) {
  return {
    name: input.name,
    description: input.description,
    is_default: input.isDefault ? 1 : 0,
    escalation_times: JSON.stringify(input.escalationTimes),
    level_1: JSON.stringify(input.level_1),
    level_2: JSON.stringify(input.level_2),
    level_3: JSON.stringify(input.level_3),
  } satisfies Updateable<EscalationPoliciesTable>;
}

export function toPolicy(row: PolicyRow): EscalationPolicy {
  const level = <T extends Level1>(json: string, fallback: T): T => ({ ...fallback, ...parseJson<Partial<T>>(json, {}) });
  return {
    ...namedTenantRow(row),
    escalationTimes: parseJson<EscalationTimes>(row.escalation_times, { critical: 0, high: 0, medium: 0, low: 0, info: null }),
    level_1: level<Level1>(row.level_1, EMPTY_LEVEL),
    level_2: level<LaterLevel>(row.level_2, { ...EMPTY_LEVEL, timeAfterPrevious: 30 }),
    level_3: level<LaterLevel>(row.level_3, { ...EMPTY_LEVEL, timeAfterPrevious: 60 }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Takes a deleted schedule off every level of the tenant's policies that named it (in the deleting transaction). */
export async function removeScheduleFromPolicies(trx: DB, tenantId: string, scheduleId: string, at: string): Promise<number> {
  const rows = await listPolicies(trx, tenantId);
  let changed = 0;
  for (const row of rows) {
    const levels = (['level_1', 'level_2', 'level_3'] as const).map((k) => [k, parseJson<Partial<Level1>>(row[k], {})] as const);
    if (!levels.some(([, l]) => l.scheduleIds?.includes(scheduleId))) continue;
    const set = Object.fromEntries(levels.map(([k, l]) => [k, JSON.stringify({ ...l, scheduleIds: (l.scheduleIds ?? []).filter((id) => id !== scheduleId) })]));
    await trx.updateTable('escalation_policies').set({ ...set, updated_at: at }).where('tenant_id', '=', tenantId).where('id', '=', row.id).execute();
    changed++;
  }
  return changed;
}

/** A tenant's policies: the default first, then by name. */
export async function listPolicies(db: DB, tenantId: string): Promise<PolicyRow[]> {
  return db
    .selectFrom('escalation_policies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('is_default', 'desc')
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/**
 * Policies by id whatever their tenant, one query per 500 ids (deliberately across tenants: the escalation engine
 * steps alerts of every tenant in one batch; the caller checks each row's tenant against its alert's).
 */
export async function unsafeFindPoliciesByIds(db: DB, ids: string[]): Promise<Map<string, PolicyRow>> {
  const out = new Map<string, PolicyRow>();
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db.selectFrom('escalation_policies').selectAll().where('id', 'in', part).execute();
    for (const row of rows) out.set(row.id, row);
  }
  return out;
}

export async function findPolicy(db: DB, tenantId: string, policyId: string): Promise<PolicyRow | undefined> {
  return db.selectFrom('escalation_policies').selectAll().where('tenant_id', '=', tenantId).where('id', '=', policyId).executeTakeFirst();
}

/** The tenant's default policy, if it has one. */
export async function findDefaultPolicy(db: DB, tenantId: string): Promise<PolicyRow | undefined> {
  return db.selectFrom('escalation_policies').selectAll().where('tenant_id', '=', tenantId).where('is_default', '=', 1).orderBy('id').limit(1).executeTakeFirst();
}

/** True when the tenant has a policy with this id. */
export async function policyExists(db: DB, tenantId: string, policyId: string): Promise<boolean> {
  return !!(await db.selectFrom('escalation_policies').select('id').where('tenant_id', '=', tenantId).where('id', '=', policyId).executeTakeFirst());
}

export async function insertPolicy(db: DB, row: Insertable<EscalationPoliciesTable>): Promise<void> {
  await db.insertInto('escalation_policies').values(row).execute();
}

/** False when the tenant has no such policy. */
export async function updatePolicy(db: DB, tenantId: string, policyId: string, values: Updateable<EscalationPoliciesTable>): Promise<boolean> {
  const r = await db.updateTable('escalation_policies').set(values).where('tenant_id', '=', tenantId).where('id', '=', policyId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Takes the default flag off every policy of the tenant (before another one takes it). */
export async function clearDefault(db: DB, tenantId: string, at: string): Promise<void> {
  await db.updateTable('escalation_policies').set({ is_default: 0, updated_at: at }).where('tenant_id', '=', tenantId).where('is_default', '=', 1).execute();
}

/**
 * Takes a policy off every integration and client of the tenant that named it (in the transaction deleting it): the
 * references live on their rows, the rule that a deleted policy leaves them is this module's.
 */
export async function clearPolicyReferences(trx: DB, tenantId: string, policyId: string): Promise<void> {
  await trx.updateTable('integrations').set({ escalation_policy_id: null }).where('tenant_id', '=', tenantId).where('escalation_policy_id', '=', policyId).execute();
  await trx.updateTable('clients').set({ escalation_policy_id: null }).where('tenant_id', '=', tenantId).where('escalation_policy_id', '=', policyId).execute();
}

/** False when the tenant has no such policy. */
export async function deletePolicy(db: DB, tenantId: string, policyId: string): Promise<boolean> {
  const r = await db.deleteFrom('escalation_policies').where('tenant_id', '=', tenantId).where('id', '=', policyId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Which of the given user ids are active members of the tenant (people a policy may page). */
export async function memberUserIds(db: DB, tenantId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('tenant_members')
    .select('user_id')
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'active')
    .where('user_id', 'in', userIds)
    .execute();
  return new Set(rows.map((r) => r.user_id).filter((id): id is string => !!id));
}

/** True when every id is an on-call schedule of the tenant (what a policy's levels may name). */
export async function schedulesExist(db: DB, tenantId: string, ids: string[]): Promise<boolean> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return true;
  const rows = await db.selectFrom('oncall_schedules').select('id').where('tenant_id', '=', tenantId).where('id', 'in', unique).execute();
  return rows.length === unique.length;
}

/**
 * The policy governing an alert, in one query: the integration's if it names one, else the client's, else the
 * tenant's default; undefined when none applies. Every lookup is held to the tenant.
 */
export async function findPolicyForAlert(db: DB, tenantId: string, alert: { integrationId: string | null; clientId: string | null }): Promise<PolicyRow | undefined> {
  const viaIntegration = db
    .selectFrom('integrations')
    .select('escalation_policy_id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', alert.integrationId ?? '');
  const viaClient = db
    .selectFrom('clients')
    .select('escalation_policy_id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', alert.clientId ?? '');
  return db
    .selectFrom('escalation_policies as p')
    .selectAll('p')
    .where('p.tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('p.id', 'in', viaIntegration), eb('p.id', 'in', viaClient), eb('p.is_default', '=', 1)]))
    .orderBy((eb) => eb.case().when('p.id', 'in', viaIntegration).then(0).when('p.id', 'in', viaClient).then(1).else(2).end())
    .limit(1)
    .executeTakeFirst();
}
