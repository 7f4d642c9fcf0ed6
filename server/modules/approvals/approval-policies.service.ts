import { randomUUID } from 'node:crypto';
import { APPROVAL_MSG, FORM_REQUEST_TYPES, type ApprovalPolicy, type ApprovalPolicyInput, type ApprovalRequestTypes } from '../../../contract/approvals.ts';
import type { DB } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import * as repo from './approvals.repository.ts';
import type { ApprovalDeps } from './approvals.service.ts';

/** Approval policies: owners and admins list, read, create, edit and deactivate them. */

type Deps = Pick<ApprovalDeps, 'db' | 'clock'>;

const policyNotFound = () => notFound(APPROVAL_MSG.policyNotFound);
const mayManage = (ctx: TenantContext) => authorize(ctx, 'manageApprovalPolicies', APPROVAL_MSG.managePoliciesForbidden);

/** Every approver must be an active member of the tenant: 400 naming each level that has someone else. */
async function checkApprovers(db: DB, tenantId: string, input: ApprovalPolicyInput) {
  const all = [...new Set(input.levels.flatMap((l) => l.approvers))];
  const members = new Set((await listActiveMemberAccounts(db, tenantId, all)).map((m) => m.id));
  const fields: Record<string, string> = {};
  input.levels.forEach((l, i) => {
    if (l.approvers.some((id) => !members.has(id))) fields[`levels.${i}.approvers`] = APPROVAL_MSG.unknownApprovers;
  });
  const first = Object.values(fields)[0];
  if (first) throw badRequest(first, fields);
}

export async function listPolicies(db: DB, ctx: TenantContext) {
  mayManage(ctx);
  return { items: (await repo.listPolicies(db, ctx.tenant.id)).map(repo.toPolicy) };
}

/** Every request type the request form offers (not shift swaps: My on-call asks those) and whether a new request of it has a policy to go through; any member may ask (the request form). */
export async function listRequestTypes(db: DB, ctx: TenantContext): Promise<ApprovalRequestTypes> {
  const active = new Set(await repo.listActivePolicyTypes(db, ctx.tenant.id));
  return { items: FORM_REQUEST_TYPES.map((type) => ({ type, hasActivePolicy: active.has(type) })) };
}

export async function getPolicy(db: DB, ctx: TenantContext, policyId: string): Promise<ApprovalPolicy> {
  mayManage(ctx);
  const row = await repo.findPolicy(db, ctx.tenant.id, policyId);
  if (!row) throw policyNotFound();
  return repo.toPolicy(row);
}

export async function createPolicy(deps: Deps, ctx: TenantContext, input: ApprovalPolicyInput): Promise<ApprovalPolicy> {
  mayManage(ctx);
  await checkApprovers(deps.db, ctx.tenant.id, input);
  const id = randomUUID();
  const at = deps.clock().toISOString();
  await repo.insertPolicy(deps.db, { id, tenant_id: ctx.tenant.id, ...repo.policyColumns(input), active: 1, created_by: ctx.user.id, created_at: at, updated_at: at });
  return getPolicy(deps.db, ctx, id);
}

/** Replaces a policy's fields; requests already made keep the levels they were made with. */
export async function updatePolicy(deps: Deps, ctx: TenantContext, policyId: string, input: ApprovalPolicyInput): Promise<ApprovalPolicy> {
  mayManage(ctx);
  if (!(await repo.findPolicy(deps.db, ctx.tenant.id, policyId))) throw policyNotFound();
  await checkApprovers(deps.db, ctx.tenant.id, input);
  const set = { ...repo.policyColumns(input), ...(input.active === undefined ? {} : { active: input.active ? 1 : 0 }), updated_at: deps.clock().toISOString() };
  if (!(await repo.updatePolicy(deps.db, ctx.tenant.id, policyId, set))) throw policyNotFound();
  return getPolicy(deps.db, ctx, policyId);
}

/** Soft delete (spec section 4): the policy becomes inactive; its requests go on, no new request uses it. */
export async function deletePolicy(deps: Deps, ctx: TenantContext, policyId: string) {
  mayManage(ctx);
  if (!(await repo.updatePolicy(deps.db, ctx.tenant.id, policyId, { active: 0, updated_at: deps.clock().toISOString() }))) throw policyNotFound();
}
