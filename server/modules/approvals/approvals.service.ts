import { randomUUID } from 'node:crypto';
import {
  APPROVAL_MSG,
  SHIFT_SWAP_TYPE,
  type ApprovalHistoryEntry,
  type ApprovalListQuery,
  type ApprovalRequest,
  type ApprovalRequestInput,
  type ApprovalRequestList,
  type ApprovalRequestSummary,
  type ApprovalStatus,
  type ApprovalType,
  type Person,
} from '../../../contract/approvals.ts';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import type { Clock } from '../../jobs/job-worker.ts';
import { enqueueJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { queueApprovalEvents } from '../destinations/approval-events.service.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { decide, start, type FlowAction, type FlowPolicy, type FlowRequest, type Move, type Refusal, type Transition } from './approval-flow.ts';
import { expiryJob, notifyJobs } from './approval-jobs.ts';
import { abilitiesOf, currentIndex, mayView } from './approvals.policy.ts';
import * as repo from './approvals.repository.ts';
import { settleShiftSwap } from './shift-swap-outcome.ts';

export { APPROVAL_JOB, notificationText, type NotifyPayload } from './approval-jobs.ts';

/** What the approval service needs from the running server. */
export interface ApprovalDeps {
  db: DB;
  bus: AlertBus;
  clock: Clock;
  /** New jobs were scheduled: let this instance's worker look now. */
  wake: () => void;
}

/**
 * A request made by another part of the approvals module (a shift swap): its policy, the people who decide its first
 * level in place of the policy's, the latest its first level may wait, and rows written in the same transaction.
 */
export interface RequestExtras {
  policy: repo.PolicyRow;
  firstApprovers: string[];
  expiresBy: string;
  inTransaction: (trx: DB, row: repo.RequestRow) => Promise<void>;
}

/** A file that came with a new request. */
export interface IncomingFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

type Row = repo.RequestRow;
type UserAction = Exclude<FlowAction, { kind: 'expire' }>;

const requestNotFound = () => notFound(APPROVAL_MSG.requestNotFound);
const nameOf = (u: { display_name: string; email: string }) => u.display_name || u.email;
const actorOf = (ctx: TenantContext) => ({ id: ctx.user.id, name: nameOf(ctx.user) });

/** The request as the flow and the policy read it. */
function flowRequestOf(row: Row): FlowRequest {
  return {
    status: row.status as ApprovalStatus,
    levels: repo.levelsOf(row),
    currentLevel: row.current_level,
    version: row.version,
    expiresAt: row.expires_at,
    createdBy: row.created_by,
    requesterName: row.requested_by_name,
  };
}

function flowPolicyOf(p: repo.PolicyRow): FlowPolicy {
  return {
    autoRejectOnExpire: p.auto_reject_on_expire !== 0,
    // A shift swap always tells the person asked and the requester (issue 27), whatever the policy's switches.
    notifyOnCreate: p.notify_on_create === 1 || p.type === SHIFT_SWAP_TYPE,
    notifyOnUpdate: p.notify_on_update === 1 || p.type === SHIFT_SWAP_TYPE,
    delegationEnabled: p.delegation_enabled === 1,
    selfApprovalAllowed: p.self_approval_allowed === 1,
  };
}

/** A request the caller may see; 404 otherwise, exactly like a missing one. */
async function loadVisible(db: DB, ctx: TenantContext, requestId: string): Promise<Row> {
  const row = await repo.findRequest(db, ctx.tenant.id, requestId);
  if (!row || !(await mayView(ctx, { levels: repo.levelsOf(row), createdBy: row.created_by }, () => repo.actedOn(db, row.tenant_id, row.id, ctx.user.id)))) {
    throw requestNotFound();
  }
  return row;
}

function toSummary(row: Row, attachments: ApprovalRequestSummary['attachments'], can: ApprovalRequestSummary['can']): ApprovalRequestSummary {
  const levels = repo.levelsOf(row);
  const index = currentIndex(levels, row.current_level);
  return {
    id: row.id,
    tenantId: row.tenant_id,
    policyId: row.policy_id,
    title: row.title,
    description: row.description,
    type: row.type as ApprovalType,
    status: row.status as ApprovalStatus,
    createdBy: row.created_by,
    requestedBy: { id: row.created_by, name: row.requested_by_name, email: row.requested_by_email },
    currentLevel: index,
    currentLevelName: levels[index]!.level,
    levels,
    expiresAt: row.expires_at,
    attachments,
    can,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function listRequests(db: DB, ctx: TenantContext, q: ApprovalListQuery): Promise<ApprovalRequestList> {
  if (q.view === 'all') authorize(ctx, 'viewAllApprovals', APPROVAL_MSG.viewAllForbidden);
  const { rows, total } = await repo.listRequests(db, ctx.tenant.id, ctx.user.id, q.view, q.page, q.pageSize);
  const attachments = await repo.listAttachments(db, ctx.tenant.id, rows.map((r) => r.id));
  return {
    items: rows.map((r) => toSummary(r, attachments.get(r.id) ?? [], abilitiesOf(ctx.user.id, flowRequestOf(r), { delegationEnabled: r.delegation_enabled === 1, selfApprovalAllowed: r.self_approval_allowed === 1 }))),
    total,
    page: q.page,
    pageSize: q.pageSize,
  };
}

export async function getRequest(db: DB, ctx: TenantContext, requestId: string): Promise<ApprovalRequest> {
  return present(db, ctx, await loadVisible(db, ctx, requestId));
}

async function present(db: DB, ctx: TenantContext, row: Row): Promise<ApprovalRequest> {
  const [policy, history, attachments] = await Promise.all([
    repo.findPolicy(db, row.tenant_id, row.policy_id),
    repo.listHistory(db, row.tenant_id, row.id),
    repo.listAttachments(db, row.tenant_id, [row.id]),
  ]);
  const levels = repo.levelsOf(row);
  const ids = new Set<string>([row.created_by]);
  for (const l of levels) {
    l.approvers.forEach((id) => ids.add(id));
    if (l.approvedBy) ids.add(l.approvedBy);
  }
  for (const h of history) {
    if (h.actor_id) ids.add(h.actor_id);
    if (h.target_id) ids.add(h.target_id);
  }
  const found = new Map((await repo.findPeople(db, [...ids])).map((u) => [u.id, { id: u.id, name: nameOf(u), email: u.email }]));
  const person = (id: string | null): Person | null => (id ? (found.get(id) ?? { id, name: 'Unknown User', email: '' }) : null);
  return {
    ...toSummary(row, attachments.get(row.id) ?? [], abilitiesOf(ctx.user.id, flowRequestOf(row), { delegationEnabled: policy?.delegation_enabled === 1, selfApprovalAllowed: policy?.self_approval_allowed === 1 })),
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    history: history.map(
      (h): ApprovalHistoryEntry => ({
        at: h.at,
        action: h.action as ApprovalHistoryEntry['action'],
        actor: person(h.actor_id),
        level: (h.level as ApprovalHistoryEntry['level']) ?? null,
        comment: h.comment,
        target: person(h.target_id),
      }),
    ),
    people: [...ids].map((id) => person(id)!),
  };
}

/** The jobs a transition schedules: the expiry of the level it reached, then its notifications. */
function jobsOf(row: Pick<Row, 'tenant_id' | 'id'>, t: Transition, at: Date): NewJob[] {
  const jobs = t.expiry ? [expiryJob(row, t.expiry.level, t.expiry.dueAt)] : [];
  return [...jobs, ...t.notices.flatMap((n) => notifyJobs(row, t.version, n, at))];
}

/** A transition's history entry: its sequence number is the version it writes. */
function historyOf(row: Pick<Row, 'tenant_id' | 'id'>, t: Transition, at: string) {
  const h = t.history;
  return { id: randomUUID(), tenant_id: row.tenant_id, request_id: row.id, seq: t.version, at, action: h.action, actor_id: h.actorId, level: h.level, comment: h.comment, target_id: h.targetId };
}

function announce(deps: ApprovalDeps, row: Pick<Row, 'tenant_id' | 'id'>, status: ApprovalStatus, at: string) {
  deps.bus.publishApproval(row.tenant_id, { id: row.id, status, updatedAt: at });
  deps.wake();
}

/**
 * Creates a request under the active policy of its type (spec section 4). The request, its approvers, its history,
 * its files, its expiry and its notifications are one transaction.
 */
export async function createRequest(deps: ApprovalDeps, ctx: TenantContext, input: ApprovalRequestInput, files: IncomingFile[] = [], extras?: RequestExtras): Promise<ApprovalRequest> {
  const { db } = deps;
  const tenantId = ctx.tenant.id;
  if (input.type === SHIFT_SWAP_TYPE && !extras) throw badRequest(APPROVAL_MSG.swapFromMyOnCall, { type: APPROVAL_MSG.swapFromMyOnCall });
  const noPolicy = () => badRequest(APPROVAL_MSG.noActivePolicy(input.type), { type: APPROVAL_MSG.noActivePolicy(input.type) });
  const policy = extras?.policy ?? (await repo.findActivePolicy(db, tenantId, input.type));
  if (!policy) throw noPolicy();
  const now = deps.clock();
  const at = now.toISOString();
  const requester = actorOf(ctx);
  const levels = repo.toPolicy(policy).levels.map((l, i) => (i === 0 && extras ? { ...l, approvers: extras.firstApprovers } : l));
  const first = start(levels, requester, flowPolicyOf(policy), now);
  if (!first) throw noPolicy();
  if (extras && first.expiresAt && first.expiresAt > extras.expiresBy) {
    first.expiresAt = extras.expiresBy;
    first.expiry = { level: 0, dueAt: extras.expiresBy };
  }
  const row: Row = {
    id: randomUUID(),
    tenant_id: tenantId,
    policy_id: policy.id,
    title: input.title,
    description: input.description,
    type: input.type,
    status: first.status,
    created_by: requester.id,
    requested_by_name: requester.name,
    requested_by_email: ctx.user.email,
    current_level: first.currentLevel,
    levels: JSON.stringify(first.levels),
    expires_at: first.expiresAt,
    metadata: JSON.stringify(input.metadata),
    version: first.version,
    created_at: at,
    updated_at: at,
  };
  await db.transaction().execute(async (trx) => {
    await repo.insertRequest(trx, row);
    await repo.setCurrentApprovers(trx, tenantId, row.id, first.approvers);
    await repo.insertHistory(trx, historyOf(row, first, at));
    let position = 0;
    for (const f of files) {
      await repo.insertAttachment(trx, { id: randomUUID(), tenantId, requestId: row.id, filename: f.filename, contentType: f.contentType, data: f.data, position: position++, at });
    }
    await extras?.inTransaction(trx, row);
    await enqueueJobs(trx, jobsOf(row, first, now), now);
    await queueApprovalEvents(trx, row, { created: true, status: first.status, actorId: requester.id, version: first.version }, now);
  });
  announce(deps, row, first.status, at);
  return present(db, ctx, row);
}

/**
 * Writes a move as one conditional update (still pending, still the version read) with its approvers, history and
 * jobs in the same transaction. False when someone else changed the request first.
 */
async function write(deps: ApprovalDeps, row: Row, move: Move, at: Date): Promise<boolean> {
  const iso = at.toISOString();
  const applied = await deps.db.transaction().execute(async (trx) => {
    const set = { status: move.status, current_level: move.currentLevel, levels: JSON.stringify(move.levels), expires_at: move.expiresAt, updated_at: iso };
    if (!(await repo.updateRequestIfUnchanged(trx, { tenant_id: row.tenant_id, id: row.id, version: move.ifVersion }, set))) return false;
    await repo.setCurrentApprovers(trx, row.tenant_id, row.id, move.approvers);
    await repo.insertHistory(trx, historyOf(row, move, iso));
    await settleShiftSwap(trx, row, move, iso);
    await enqueueJobs(trx, jobsOf(row, move, at), at);
    await queueApprovalEvents(trx, row, { created: false, status: move.status, actorId: move.history.actorId, version: move.version }, at);
    return true;
  });
  if (applied) announce(deps, row, move.status, iso);
  return applied;
}

/** 409 with the request's current state: it is no longer pending, or changed since it was read. */
async function conflictWithCurrent(db: DB, tenantId: string, requestId: string): Promise<AppError> {
  const now = await repo.findRequest(db, tenantId, requestId);
  const status = now?.status ?? 'pending';
  return conflict(status === 'pending' ? APPROVAL_MSG.movedOn : APPROVAL_MSG.notPending, { status, currentLevel: String(now?.current_level ?? 0) });
}

/** The refusal of a caller who is not a current approver, in the words of the action. */
const NOT_APPROVER: Record<UserAction['kind'], string> = {
  approve: APPROVAL_MSG.notAuthorizedApprove,
  reject: APPROVAL_MSG.notAuthorizedReject,
  delegate: APPROVAL_MSG.notAuthorizedDelegate,
  cancel: APPROVAL_MSG.onlyCreatorCancel,
};

/** The answer to a refused action. A request found past its expiry expires first, then answers its new state. */
async function refusalError(deps: ApprovalDeps, row: Row, kind: UserAction['kind'], refusal: Refusal): Promise<AppError> {
  switch (refusal) {
    case 'pastExpiry':
      await expireRequest(deps, row.tenant_id, row.id, row.current_level, deps.clock());
      return conflictWithCurrent(deps.db, row.tenant_id, row.id);
    case 'notPending':
    case 'movedOn':
    case 'staleLevel':
    case 'notDue':
      return conflictWithCurrent(deps.db, row.tenant_id, row.id);
    case 'policyMissing':
      return notFound(APPROVAL_MSG.policyNotFound);
    case 'notApprover':
      return forbidden(NOT_APPROVER[kind]);
    case 'notCreator':
      return forbidden(APPROVAL_MSG.onlyCreatorCancel);
    case 'ownRequest':
      return forbidden(APPROVAL_MSG.cannotApproveOwn);
    case 'delegationDisabled':
      return forbidden(APPROVAL_MSG.delegationDisabled);
    case 'delegateSelf':
      return badRequest(APPROVAL_MSG.delegateSelf, { userId: APPROVAL_MSG.delegateSelf });
    case 'delegateUnavailable':
      return badRequest(APPROVAL_MSG.userNotAvailable, { userId: APPROVAL_MSG.userNotAvailable });
  }
}

/** Every decision on a request: load what the caller may see, ask the flow, write its answer, show the result. */
async function act(deps: ApprovalDeps, ctx: TenantContext, requestId: string, actionFor: () => UserAction | Promise<UserAction>): Promise<ApprovalRequest> {
  const row = await loadVisible(deps.db, ctx, requestId);
  const action = await actionFor();
  const policy = await repo.findPolicy(deps.db, ctx.tenant.id, row.policy_id);
  const now = deps.clock();
  const result = decide(flowRequestOf(row), action, policy ? flowPolicyOf(policy) : null, now);
  if (!result.ok) throw await refusalError(deps, row, action.kind, result.refusal);
  if (!(await write(deps, row, result.move, now))) throw await conflictWithCurrent(deps.db, ctx.tenant.id, row.id);
  return getRequest(deps.db, ctx, row.id);
}

/** Approves the current level (spec section 4): the last level approves the request, otherwise the next one acts. */
export async function approveRequest(deps: ApprovalDeps, ctx: TenantContext, requestId: string, comment: string | null): Promise<ApprovalRequest> {
  return act(deps, ctx, requestId, () => ({ kind: 'approve', actor: actorOf(ctx), comment }));
}

/** Rejects the request at its current level, with the reason as the level's comment. */
export async function rejectRequest(deps: ApprovalDeps, ctx: TenantContext, requestId: string, reason: string): Promise<ApprovalRequest> {
  return act(deps, ctx, requestId, () => ({ kind: 'reject', actor: actorOf(ctx), reason }));
}

/** Cancels a pending request: only its creator may. */
export async function cancelRequest(deps: ApprovalDeps, ctx: TenantContext, requestId: string): Promise<ApprovalRequest> {
  return act(deps, ctx, requestId, () => ({ kind: 'cancel', actor: actorOf(ctx) }));
}

/** Hands the caller's place among the current level's approvers to another active member of the tenant. */
export async function delegateRequest(deps: ApprovalDeps, ctx: TenantContext, requestId: string, userId: string): Promise<ApprovalRequest> {
  return act(deps, ctx, requestId, async () => {
    const [delegate] = await listActiveMemberAccounts(deps.db, ctx.tenant.id, [userId]);
    return { kind: 'delegate', actor: actorOf(ctx), to: userId, toIsActiveMember: delegate !== undefined };
  });
}

/**
 * The expiry job of a request's level: the request still waiting on that level past its expiry is decided by the
 * flow, exactly once (the same conditional update as every other change). False when nothing changed.
 */
export async function expireRequest(deps: ApprovalDeps, tenantId: string, requestId: string, level: number, now: Date): Promise<boolean> {
  const row = await repo.findRequest(deps.db, tenantId, requestId);
  if (!row) return false;
  const policy = await repo.findPolicy(deps.db, tenantId, row.policy_id);
  const result = decide(flowRequestOf(row), { kind: 'expire', level }, policy ? flowPolicyOf(policy) : null, now);
  return result.ok && write(deps, row, result.move, now);
}

/** An attachment of a request the caller may see (404 otherwise, like a missing one). */
export async function findAttachmentFor(db: DB, ctx: TenantContext, requestId: string, attachmentId: string) {
  await loadVisible(db, ctx, requestId);
  const a = await repo.findAttachment(db, ctx.tenant.id, requestId, attachmentId);
  if (!a) throw notFound(APPROVAL_MSG.attachmentNotFound);
  return a;
}
