import { randomUUID } from 'node:crypto';
import { ESCALATION_DEFAULTS, ESCALATION_MSG, EscalationPolicyInput, LEVELS, type EscalationPolicy } from '../../../contract/escalation.ts';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { lockTenant } from '../tenants/tenants.service.ts';
import * as repo from './escalation-policies.repository.ts';

export const policyNotFound = () => notFound(ESCALATION_MSG.policyNotFound);

/** Every member reads the policies (the alert modal shows who is paged). */
export async function listPolicies(db: DB, ctx: TenantContext) {
  return { items: (await repo.listPolicies(db, ctx.tenant.id)).map(repo.toPolicy) };
}

export async function getPolicy(db: DB, ctx: TenantContext, policyId: string) {
  const row = await repo.findPolicy(db, ctx.tenant.id, policyId);
  if (!row) throw policyNotFound();
  return repo.toPolicy(row);
}

/** 400 naming the level's field unless every user is an active member and every schedule one of the tenant's. */
async function checkPeople(db: DB, tenantId: string, input: EscalationPolicyInput) {
  const fields: Record<string, string> = {};
  const allUsers = [...new Set(LEVELS.flatMap((l) => input[l].userIds))];
  const members = await repo.memberUserIds(db, tenantId, allUsers);
  for (const level of LEVELS) {
    if (input[level].userIds.some((id) => !members.has(id))) fields[`${level}.userIds`] = ESCALATION_MSG.unknownUsers;
  }
  for (const level of LEVELS) {
    const ids = input[level].scheduleIds;
    if (ids.length && !(await repo.schedulesExist(db, tenantId, ids))) fields[`${level}.scheduleIds`] = ESCALATION_MSG.unknownSchedules;
  }
  const first = Object.values(fields)[0];
  if (first) throw badRequest(first, fields);
}

/**
 * Creates a policy. Saving a default takes the flag off the tenant's current default first (spec section 4), in one
 * transaction that holds the tenant's row: concurrent default saves run one after the other, and the last one wins.
 */
export async function createPolicy(db: DB, ctx: TenantContext, input: EscalationPolicyInput): Promise<EscalationPolicy> {
  authorize(ctx, 'manageEscalation', ESCALATION_MSG.manageForbidden);
  return insertNewPolicy(db, ctx, input);
}

/** Inserts a checked policy; `guard` runs first in the transaction holding the tenant's row (a throw refuses it). */
async function insertNewPolicy(db: DB, ctx: TenantContext, input: EscalationPolicyInput, guard?: (trx: DB) => Promise<void>): Promise<EscalationPolicy> {
  const tenantId = ctx.tenant.id;
  await checkPeople(db, tenantId, input);
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    if (!(await lockTenant(trx, tenantId))) throw policyNotFound();
    await guard?.(trx);
    const at = now();
    if (input.isDefault) await repo.clearDefault(trx, tenantId, at);
    await repo.insertPolicy(trx, { id, tenant_id: tenantId, ...repo.policyColumns(input), created_by: ctx.user.id, created_at: at, updated_at: at });
  });
  return getPolicy(db, ctx, id);
}

/** The tenant's default policy, or null (every member reads it: the getting-started panel asks whether there is one). */
export async function getDefaultPolicy(db: DB, ctx: TenantContext): Promise<{ policy: EscalationPolicy | null }> {
  const row = await repo.findDefaultPolicy(db, ctx.tenant.id);
  return { policy: row ? repo.toPolicy(row) : null };
}

/**
 * The one-click default policy (issue 25, the getting-started panel): the tenant's owner on level 1, paged by email
 * and push, the times and later levels of spec section 9 (later levels empty), marked default. It goes through the
 * form's own input schema and checks, so every rule of a policy applies. The owner, not the caller: whoever clicks,
 * the owner answers for the organization (an admin adds themself in the form); an owner who is no longer an active
 * member gives way to the caller. 409 when the tenant has a default policy already (checked under the tenant's lock,
 * so two clicks at once make one policy).
 */
export async function createDefaultPolicy(db: DB, ctx: TenantContext): Promise<EscalationPolicy> {
  authorize(ctx, 'manageEscalation', ESCALATION_MSG.manageForbidden);
  const tenantId = ctx.tenant.id;
  const owner = ctx.tenant.owner_id;
  const paged = (await repo.memberUserIds(db, tenantId, [owner])).has(owner) ? owner : ctx.user.id;
  const input = EscalationPolicyInput.parse({
    name: ESCALATION_MSG.oneClickName,
    description: ESCALATION_MSG.oneClickDescription,
    isDefault: true,
    level_1: { userIds: [paged], notificationChannels: [...ESCALATION_DEFAULTS.notificationChannels.level_1] },
  });
  return insertNewPolicy(db, ctx, input, async (trx) => {
    if (await repo.findDefaultPolicy(trx, tenantId)) throw conflict(ESCALATION_MSG.defaultExists);
  });
}

/** Replaces a policy's fields; making it the default clears the flag elsewhere only when it was not the default yet. */
export async function updatePolicy(db: DB, ctx: TenantContext, policyId: string, input: EscalationPolicyInput): Promise<EscalationPolicy> {
  authorize(ctx, 'manageEscalation', ESCALATION_MSG.manageForbidden);
  const tenantId = ctx.tenant.id;
  if (!(await repo.policyExists(db, tenantId, policyId))) throw policyNotFound();
  await checkPeople(db, tenantId, input);
  await db.transaction().execute(async (trx) => {
    if (!(await lockTenant(trx, tenantId))) throw policyNotFound();
    const current = await repo.findPolicy(trx, tenantId, policyId);
    if (!current) throw policyNotFound();
    const at = now();
    if (input.isDefault && current.is_default !== 1) await repo.clearDefault(trx, tenantId, at);
    await repo.updatePolicy(trx, tenantId, policyId, { ...repo.policyColumns(input), updated_at: at });
  });
  return getPolicy(db, ctx, policyId);
}

/** Deletes a policy and, in the same transaction, takes it off every integration and client that named it. */
export async function deletePolicy(db: DB, ctx: TenantContext, policyId: string): Promise<void> {
  authorize(ctx, 'manageEscalation', ESCALATION_MSG.manageForbidden);
  const tenantId = ctx.tenant.id;
  await db.transaction().execute(async (trx) => {
    await repo.clearPolicyReferences(trx, tenantId, policyId);
    if (!(await repo.deletePolicy(trx, tenantId, policyId))) throw policyNotFound();
  });
}

/**
 * 400 on `field` unless `policyId` is none or a policy of the tenant: what integrations and clients check before
 * they store a reference (another tenant's policy answers like a missing one).
 */
export async function checkPolicyRef(db: DB, tenantId: string, policyId: string | null | undefined, field = 'escalationPolicyId') {
  if (policyId && !(await repo.policyExists(db, tenantId, policyId))) {
    throw badRequest(ESCALATION_MSG.policyNotFound, { [field]: ESCALATION_MSG.policyNotFound });
  }
}

/**
 * Runs `write`, which stores a reference to `policyId` on an integration or a client, after checkPolicyRef. A policy
 * deleted between the check and the write makes the write fail on its foreign key: that answers the same 400, not 500.
 */
export async function writeWithPolicyRef<T>(db: DB, tenantId: string, policyId: string | null | undefined, write: () => Promise<T>): Promise<T> {
  await checkPolicyRef(db, tenantId, policyId);
  try {
    return await write();
  } catch (e) {
    if (!(e instanceof AppError)) await checkPolicyRef(db, tenantId, policyId);
    throw e;
  }
}

/**
 * Which policy governs an alert: the integration's policy if it names one, else the alert's client's policy if it
 * names one, else the tenant's default policy; null when there is none (nobody is paged).
 */
export async function policyForAlert(db: DB, tenantId: string, alert: { integrationId: string | null; clientId: string | null }): Promise<EscalationPolicy | null> {
  const row = await repo.findPolicyForAlert(db, tenantId, alert);
  return row ? repo.toPolicy(row) : null;
}

/** The tenant's policy with this id (a routing rule names one, issue 28); null when it is gone or another tenant's. */
export async function tenantPolicy(db: DB, tenantId: string, policyId: string): Promise<EscalationPolicy | null> {
  const row = await repo.findPolicy(db, tenantId, policyId);
  return row ? repo.toPolicy(row) : null;
}

/**
 * Policies by id whatever their tenant, with the tenant each belongs to (one query per 500 ids): the escalation
 * engine steps alerts of every tenant in one batch and checks each policy's tenant against its alert's.
 */
export async function policiesByIds(db: DB, ids: string[]): Promise<Map<string, { tenantId: string; policy: EscalationPolicy }>> {
  const rows = await repo.unsafeFindPoliciesByIds(db, ids);
  return new Map([...rows].map(([id, row]) => [id, { tenantId: row.tenant_id, policy: repo.toPolicy(row) }]));
}

// A deleted on-call schedule leaves the policies that named it, in the transaction deleting it (schedules.service.ts).
export { removeScheduleFromPolicies } from './escalation-policies.repository.ts';
