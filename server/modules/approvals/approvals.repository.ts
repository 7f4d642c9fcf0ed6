import { sql, type Insertable, type Updateable } from 'kysely';
import type {
  ApprovalAttachment,
  ApprovalLevel,
  ApprovalPolicy,
  ApprovalPolicyInput,
  ApprovalPolicyLevel,
  ApprovalType,
  ApprovalView,
} from '../../../contract/approvals.ts';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { ApprovalHistoryTable, ApprovalPoliciesTable, ApprovalRequestsTable } from '../../db/schema.ts';

export type PolicyRow = ApprovalPoliciesTable;
export type RequestRow = ApprovalRequestsTable;

/** Size of one stored piece of an attachment: a download streams piece by piece. */
export const CHUNK_BYTES = 256 * 1024;

// --- Policies ---

/** The columns a person edits, as stored. */
export function policyColumns(input: ApprovalPolicyInput) {
  return {
    name: input.name,
    description: input.description,
    type: input.type,
    levels: JSON.stringify(input.levels),
    auto_reject_on_expire: input.autoRejectOnExpire ? 1 : 0,
    notify_on_create: input.notifyOnCreate ? 1 : 0,
    notify_on_update: input.notifyOnUpdate ? 1 : 0,
    delegation_enabled: input.delegationEnabled ? 1 : 0,
    self_approval_allowed: input.selfApprovalAllowed ? 1 : 0,
  } satisfies Updateable<ApprovalPoliciesTable>;
}

export function toPolicy(row: PolicyRow): ApprovalPolicy {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    type: row.type as ApprovalType,
    active: row.active === 1,
    levels: parseJson<ApprovalPolicyLevel[]>(row.levels, []),
    autoRejectOnExpire: row.auto_reject_on_expire === 1,
    notifyOnCreate: row.notify_on_create === 1,
    notifyOnUpdate: row.notify_on_update === 1,
    delegationEnabled: row.delegation_enabled === 1,
    selfApprovalAllowed: row.self_approval_allowed === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A tenant's policies, active ones first, then by name. */
export async function listPolicies(db: DB, tenantId: string): Promise<PolicyRow[]> {
  return db
    .selectFrom('approval_policies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('active', 'desc')
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

export async function findPolicy(db: DB, tenantId: string, policyId: string): Promise<PolicyRow | undefined> {
  return db.selectFrom('approval_policies').selectAll().where('tenant_id', '=', tenantId).where('id', '=', policyId).executeTakeFirst();
}

/** The active policy a new request of this type goes through: the one changed last when there are several. */
export async function findActivePolicy(db: DB, tenantId: string, type: string): Promise<PolicyRow | undefined> {
  return db
    .selectFrom('approval_policies')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('type', '=', type)
    .where('active', '=', 1)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The types that have at least one active policy in the tenant. */
export async function listActivePolicyTypes(db: DB, tenantId: string): Promise<string[]> {
  const rows = await db.selectFrom('approval_policies').select('type').distinct().where('tenant_id', '=', tenantId).where('active', '=', 1).execute();
  return rows.map((r) => r.type);
}

export async function insertPolicy(db: DB, row: Insertable<ApprovalPoliciesTable>) {
  await db.insertInto('approval_policies').values(row).execute();
}

/** False when the tenant has no such policy. */
export async function updatePolicy(db: DB, tenantId: string, policyId: string, set: Updateable<ApprovalPoliciesTable>): Promise<boolean> {
  const res = await db.updateTable('approval_policies').set(set).where('tenant_id', '=', tenantId).where('id', '=', policyId).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

// --- Requests ---

export function levelsOf(row: Pick<RequestRow, 'levels'>): ApprovalLevel[] {
  return parseJson<ApprovalLevel[]>(row.levels, []);
}

export async function findRequest(db: DB, tenantId: string, requestId: string): Promise<RequestRow | undefined> {
  return db.selectFrom('approval_requests').selectAll().where('tenant_id', '=', tenantId).where('id', '=', requestId).executeTakeFirst();
}

export async function insertRequest(db: DB, row: Insertable<ApprovalRequestsTable>) {
  await db.insertInto('approval_requests').values(row).execute();
}

/**
 * The one way a request changes: only if it is still pending and still the version the caller read. False when
 * someone else changed it meanwhile (the caller reloads and answers 409).
 */
export async function updateRequestIfUnchanged(
  db: DB,
  row: Pick<RequestRow, 'tenant_id' | 'id' | 'version'>,
  set: Pick<Updateable<ApprovalRequestsTable>, 'status' | 'current_level' | 'levels' | 'expires_at' | 'updated_at'>,
): Promise<boolean> {
  const res = await db
    .updateTable('approval_requests')
    .set({ ...set, version: sql<number>`version + 1` })
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('version', '=', row.version)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Who may act on the request now: replaced on every change (empty once it is decided). */
export async function setCurrentApprovers(db: DB, tenantId: string, requestId: string, userIds: string[]) {
  await db.deleteFrom('approval_approvers').where('tenant_id', '=', tenantId).where('request_id', '=', requestId).execute();
  if (userIds.length) {
    await db
      .insertInto('approval_approvers')
      .values(userIds.map((user_id) => ({ request_id: requestId, tenant_id: tenantId, user_id })))
      .execute();
  }
}

/** One page of a view, newest first, with the total. */
export async function listRequests(db: DB, tenantId: string, userId: string, view: ApprovalView, page: number, pageSize: number) {
  const base = () => {
    let q = db.selectFrom('approval_requests as r').where('r.tenant_id', '=', tenantId);
    if (view === 'pending') {
      q = q
        .innerJoin('approval_approvers as a', (j) => j.onRef('a.request_id', '=', 'r.id').on('a.tenant_id', '=', tenantId).on('a.user_id', '=', userId))
        .where('r.status', '=', 'pending');
    } else if (view === 'mine') q = q.where('r.created_by', '=', userId);
    return q;
  };
  const [rows, count] = await Promise.all([
    base()
      .innerJoin('approval_policies as p', 'p.id', 'r.policy_id')
      .selectAll('r')
      .select(['p.delegation_enabled', 'p.self_approval_allowed'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base()
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

// --- History ---

export async function insertHistory(db: DB, row: Insertable<ApprovalHistoryTable>) {
  await db.insertInto('approval_history').values(row).execute();
}

export async function listHistory(db: DB, tenantId: string, requestId: string) {
  return db.selectFrom('approval_history').selectAll().where('tenant_id', '=', tenantId).where('request_id', '=', requestId).orderBy('seq').execute();
}

/** Whether the user ever acted on the request (they keep seeing what they decided on). */
export async function actedOn(db: DB, tenantId: string, requestId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('approval_history')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('request_id', '=', requestId)
    .where((eb) => eb.or([eb('actor_id', '=', userId), eb('target_id', '=', userId)]))
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

// --- Attachments ---

export async function insertAttachment(db: DB, a: { id: string; tenantId: string; requestId: string; filename: string; contentType: string; data: Buffer; position: number; at: string }) {
  await db
    .insertInto('approval_attachments')
    .values({ id: a.id, tenant_id: a.tenantId, request_id: a.requestId, filename: a.filename, content_type: a.contentType, size: a.data.length, position: a.position, created_at: a.at })
    .execute();
  for (let seq = 0, off = 0; off < a.data.length || seq === 0; seq++, off += CHUNK_BYTES) {
    await db
      .insertInto('approval_attachment_chunks')
      .values({ attachment_id: a.id, seq, data: a.data.subarray(off, off + CHUNK_BYTES) })
      .execute();
  }
}

export async function listAttachments(db: DB, tenantId: string, requestIds: string[]): Promise<Map<string, ApprovalAttachment[]>> {
  const out = new Map<string, ApprovalAttachment[]>();
  if (!requestIds.length) return out;
  const rows = await db
    .selectFrom('approval_attachments')
    .select(['id', 'request_id', 'filename', 'content_type', 'size'])
    .where('tenant_id', '=', tenantId)
    .where('request_id', 'in', requestIds)
    .orderBy('position')
    .execute();
  for (const r of rows) {
    const list = out.get(r.request_id) ?? [];
    list.push({ id: r.id, filename: r.filename, contentType: r.content_type, size: Number(r.size) });
    out.set(r.request_id, list);
  }
  return out;
}

export async function findAttachment(db: DB, tenantId: string, requestId: string, attachmentId: string) {
  return db
    .selectFrom('approval_attachments')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('request_id', '=', requestId)
    .where('id', '=', attachmentId)
    .executeTakeFirst();
}

export async function readChunk(db: DB, attachmentId: string, seq: number): Promise<Buffer | null> {
  const row = await db.selectFrom('approval_attachment_chunks').select('data').where('attachment_id', '=', attachmentId).where('seq', '=', seq).executeTakeFirst();
  return row ? Buffer.from(row.data) : null;
}

/** Names and emails of these users (whoever they are now, members or not). */
export async function findPeople(db: DB, userIds: string[]) {
  if (!userIds.length) return [];
  return db.selectFrom('users').select(['id', 'display_name', 'email']).where('id', 'in', userIds).execute();
}
