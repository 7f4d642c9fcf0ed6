import { randomUUID } from 'node:crypto';
import {
  APPROVAL_LEVEL_LABELS,
  APPROVAL_MSG,
  type ApprovalHistoryEntry,
  type ApprovalLevel,
  type ApprovalListQuery,
  type ApprovalPolicy,
  type ApprovalPolicyInput,
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
import { listActiveMemberAccounts } from '../members/members.repository.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import * as repo from './approvals.repository.ts';

export const APPROVAL_JOB = { expire: 'approval.expire', notify: 'approval.notify' } as const;

/** What the approval service needs from the running server. */
export interface ApprovalDeps {
  db: DB;
  bus: AlertBus;
  clock: Clock;
  /** New jobs were scheduled: let this instance's worker look now. */
  wake: () => void;
}

/** A file that came with a new request. */
export interface IncomingFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** What a notification job tells a person (the text is written when it is sent). */
export interface NotifyPayload {
  tenantId: string;
  requestId: string;
  userId: string;
  channel: 'email' | 'push';
  /** awaiting: you are asked to decide; progress: your request passed a level; final: your request was decided. */
  event: 'awaiting' | 'progress' | 'final';
  level: string;
  status: ApprovalStatus;
  actorName: string | null;
  comment: string | null;
}

const requestNotFound = () => notFound(APPROVAL_MSG.requestNotFound);
const policyNotFound = () => notFound(APPROVAL_MSG.policyNotFound);
const hoursFrom = (at: Date, hours: number) => new Date(at.getTime() + hours * 3600_000).toISOString();
const nameOf = (u: { display_name: string; email: string }) => u.display_name || u.email;

// --- Policies (owners and admins) ---

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
  authorize(ctx, 'manageApprovalPolicies', APPROVAL_MSG.managePoliciesForbidden);
  return { items: (await repo.listPolicies(db, ctx.tenant.id)).map(repo.toPolicy) };
}

export async function getPolicy(db: DB, ctx: TenantContext, policyId: string): Promise<ApprovalPolicy> {
  authorize(ctx, 'manageApprovalPolicies', APPROVAL_MSG.managePoliciesForbidden);
  const row = await repo.findPolicy(db, ctx.tenant.id, policyId);
  if (!row) throw policyNotFound();
  return repo.toPolicy(row);
}

export async function createPolicy(deps: ApprovalDeps, ctx: TenantContext, input: ApprovalPolicyInput): Promise<ApprovalPolicy> {
  authorize(ctx, 'manageApprovalPolicies', APPROVAL_MSG.managePoliciesForbidden);
  await checkApprovers(deps.db, ctx.tenant.id, input);
  const id = randomUUID();
  const at = deps.clock().toISOString();
  await repo.insertPolicy(deps.db, { id, tenant_id: ctx.tenant.id, ...repo.policyColumns(input), active: 1, created_by: ctx.user.id, created_at: at, updated_at: at });
  return getPolicy(deps.db, ctx, id);
}

/** Replaces a policy's fields; requests already made keep the levels they were made with. */
export async function updatePolicy(deps: ApprovalDeps, ctx: TenantContext, policyId: string, input: ApprovalPolicyInput): Promise<ApprovalPolicy> {
  authorize(ctx, 'manageApprovalPolicies', APPROVAL_MSG.managePoliciesForbidden);
  if (!(await repo.findPolicy(deps.db, ctx.tenant.id, policyId))) throw policyNotFound();
  await checkApprovers(deps.db, ctx.tenant.id, input);
  const set = { ...repo.policyColumns(input), ...(input.active === undefined ? {} : { active: input.active ? 1 : 0 }), updated_at: deps.clock().toISOString() };
  if (!(await repo.updatePolicy(deps.db, ctx.tenant.id, policyId, set))) throw policyNotFound();
  return getPolicy(deps.db, ctx, policyId);
}

/** Soft delete (spec section 4): the policy becomes inactive; its requests go on, no new request uses it. */
export async function deletePolicy(deps: ApprovalDeps, ctx: TenantContext, policyId: string) {
  authorize(ctx, 'manageApprovalPolicies', APPROVAL_MSG.managePoliciesForbidden);
  if (!(await repo.updatePolicy(deps.db, ctx.tenant.id, policyId, { active: 0, updated_at: deps.clock().toISOString() }))) throw policyNotFound();
}

// --- Requests ---

type Row = repo.RequestRow;

const currentOf = (levels: ApprovalLevel[], row: Pick<Row, 'current_level'>) => levels[Math.min(row.current_level, levels.length - 1)]!;

/** What the caller may do with the request now. */
function abilitiesOf(ctx: TenantContext, row: Row, delegationEnabled: boolean) {
  const me = ctx.user.id;
  const pending = row.status === 'pending';
  const decides = pending && currentOf(repo.levelsOf(row), row).approvers.includes(me);
  return { approve: decides, reject: decides, cancel: pending && row.created_by === me, delegate: decides && delegationEnabled };
}

/**
 * Who sees a request (spec section 6): owners and admins all of them; others their own, those naming them as an
 * approver at any level, and those they acted on. Everyone else gets 404, like a missing request.
 */
async function mayView(db: DB, ctx: TenantContext, row: Row): Promise<boolean> {
  const me = ctx.user.id;
  if (ctx.abilities.viewAllApprovals || row.created_by === me) return true;
  if (repo.levelsOf(row).some((l) => l.approvers.includes(me))) return true;
  return repo.actedOn(db, row.tenant_id, row.id, me);
}

async function loadVisible(db: DB, ctx: TenantContext, requestId: string): Promise<Row> {
  const row = await repo.findRequest(db, ctx.tenant.id, requestId);
  if (!row || !(await mayView(db, ctx, row))) throw requestNotFound();
  return row;
}

function toSummary(row: Row, attachments: ApprovalRequestSummary['attachments'], can: ApprovalRequestSummary['can']): ApprovalRequestSummary {
  const levels = repo.levelsOf(row);
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
    currentLevel: Math.min(row.current_level, levels.length - 1),
    currentLevelName: currentOf(levels, row).level,
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
    items: rows.map((r) => toSummary(r, attachments.get(r.id) ?? [], abilitiesOf(ctx, r, r.delegation_enabled === 1))),
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
    ...toSummary(row, attachments.get(row.id) ?? [], abilitiesOf(ctx, row, policy?.delegation_enabled === 1)),
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

/** Notification jobs for these people, one per channel (each is sent, retried and skipped on its own). */
function notifyJobs(row: Pick<Row, 'tenant_id' | 'id'>, version: number, userIds: string[], at: Date, what: Omit<NotifyPayload, 'tenantId' | 'requestId' | 'userId' | 'channel'>): NewJob[] {
  return [...new Set(userIds)].flatMap((userId) =>
    (['email', 'push'] as const).map((channel) => ({
      kind: APPROVAL_JOB.notify,
      uniqueKey: `${APPROVAL_JOB.notify}:${row.id}:${version}:${userId}:${channel}`,
      tenantId: row.tenant_id,
      dueAt: at,
      payload: { tenantId: row.tenant_id, requestId: row.id, userId, channel, ...what } satisfies NotifyPayload,
    })),
  );
}

/** The expiry of a request's level: one job per (request, level); it checks when it fires that nothing moved on. */
function expiryJob(row: Pick<Row, 'tenant_id' | 'id'>, level: number, expiresAt: string): NewJob {
  return {
    kind: APPROVAL_JOB.expire,
    uniqueKey: `${APPROVAL_JOB.expire}:${row.id}:${level}`,
    tenantId: row.tenant_id,
    dueAt: new Date(expiresAt),
    payload: { tenantId: row.tenant_id, requestId: row.id, level },
  };
}

function announce(deps: ApprovalDeps, row: Pick<Row, 'tenant_id' | 'id'>, status: ApprovalStatus, at: string) {
  deps.bus.publishApproval(row.tenant_id, { id: row.id, status, updatedAt: at });
  deps.wake();
}

/**
 * Creates a request under the active policy of its type (spec section 4): at the first level, pending, expiring
 * after that level's hours. The request, its approvers, its history, its files, its expiry and its notifications
 * are one transaction.
 */
export async function createRequest(deps: ApprovalDeps, ctx: TenantContext, input: ApprovalRequestInput, files: IncomingFile[] = []): Promise<ApprovalRequest> {
  const { db } = deps;
  const tenantId = ctx.tenant.id;
  const policy = await repo.findActivePolicy(db, tenantId, input.type);
  if (!policy) throw badRequest(APPROVAL_MSG.noActivePolicy(input.type), { type: APPROVAL_MSG.noActivePolicy(input.type) });
  const policyLevels = repo.toPolicy(policy).levels;
  if (!policyLevels.length) throw badRequest(APPROVAL_MSG.noActivePolicy(input.type), { type: APPROVAL_MSG.noActivePolicy(input.type) });
  const now = deps.clock();
  const at = now.toISOString();
  const levels: ApprovalLevel[] = policyLevels.map((l, i) => ({
    level: l.level,
    approvers: l.approvers,
    status: i === 0 ? 'pending' : 'waiting',
    approvedBy: null,
    approvedAt: null,
    comments: null,
    timeToExpire: l.timeToExpire,
  }));
  const row: Row = {
    id: randomUUID(),
    tenant_id: tenantId,
    policy_id: policy.id,
    title: input.title,
    description: input.description,
    type: input.type,
    status: 'pending',
    created_by: ctx.user.id,
    requested_by_name: ctx.user.display_name || ctx.user.email,
    requested_by_email: ctx.user.email,
    current_level: 0,
    levels: JSON.stringify(levels),
    expires_at: hoursFrom(now, levels[0]!.timeToExpire),
    metadata: JSON.stringify(input.metadata),
    version: 1,
    created_at: at,
    updated_at: at,
  };
  await db.transaction().execute(async (trx) => {
    await repo.insertRequest(trx, row);
    await repo.setCurrentApprovers(trx, tenantId, row.id, levels[0]!.approvers);
    await repo.insertHistory(trx, { id: randomUUID(), tenant_id: tenantId, request_id: row.id, seq: 1, at, action: 'created', actor_id: ctx.user.id, level: levels[0]!.level, comment: null, target_id: null });
    let position = 0;
    for (const f of files) {
      await repo.insertAttachment(trx, { id: randomUUID(), tenantId, requestId: row.id, filename: f.filename, contentType: f.contentType, data: f.data, position: position++, at });
    }
    const jobs = [expiryJob(row, 0, row.expires_at!)];
    if (policy.notify_on_create === 1) {
      jobs.push(...notifyJobs(row, row.version, levels[0]!.approvers, now, { event: 'awaiting', level: levels[0]!.level, status: 'pending', actorName: row.requested_by_name, comment: null }));
    }
    await enqueueJobs(trx, jobs, now);
  });
  announce(deps, row, 'pending', at);
  return present(db, ctx, row);
}

/** 409 with the request's current state: it is no longer pending, or changed since it was read. */
async function conflictWithCurrent(db: DB, tenantId: string, requestId: string): Promise<AppError> {
  const now = await repo.findRequest(db, tenantId, requestId);
  const status = now?.status ?? 'pending';
  return conflict(status === 'pending' ? APPROVAL_MSG.movedOn : APPROVAL_MSG.notPending, { status, currentLevel: String(now?.current_level ?? 0) });
}

interface Change {
  status: ApprovalStatus;
  levels: ApprovalLevel[];
  currentLevel: number;
  expiresAt: string | null;
  /** Who may act now (the current level's approvers while pending). */
  approvers: string[];
  history: { action: ApprovalHistoryEntry['action']; level: string; comment: string | null; targetId?: string | null; actorId: string | null };
  jobs: (version: number) => NewJob[];
}

/**
 * Applies a change to a pending request as one conditional update (still pending, still the version read) with its
 * approvers, history and jobs in the same transaction. False when someone else changed it first.
 */
async function applyChange(deps: ApprovalDeps, row: Row, change: Change, at: Date): Promise<boolean> {
  const iso = at.toISOString();
  const applied = await deps.db.transaction().execute(async (trx) => {
    const ok = await repo.updateRequestIfUnchanged(trx, row, {
      status: change.status,
      current_level: change.currentLevel,
      levels: JSON.stringify(change.levels),
      expires_at: change.expiresAt,
      updated_at: iso,
    });
    if (!ok) return false;
    await repo.setCurrentApprovers(trx, row.tenant_id, row.id, change.status === 'pending' ? change.approvers : []);
    const h = change.history;
    await repo.insertHistory(trx, { id: randomUUID(), tenant_id: row.tenant_id, request_id: row.id, seq: row.version + 1, at: iso, action: h.action, actor_id: h.actorId, level: h.level, comment: h.comment, target_id: h.targetId ?? null });
    await enqueueJobs(trx, change.jobs(row.version + 1), at);
    return true;
  });
  if (applied) announce(deps, row, change.status, iso);
  return applied;
}

/** Loads a request the caller may see, still pending (409 otherwise), and its policy. */
async function loadForAction(deps: ApprovalDeps, ctx: TenantContext, requestId: string) {
  const row = await loadVisible(deps.db, ctx, requestId);
  // Past its expiry a request takes no decision, even if its expiry job has not run yet: it expires now.
  if (row.status === 'pending' && row.expires_at && new Date(row.expires_at).getTime() <= deps.clock().getTime()) {
    await expireRequest(deps, row.tenant_id, row.id, row.current_level, deps.clock());
    throw await conflictWithCurrent(deps.db, ctx.tenant.id, requestId);
  }
  if (row.status !== 'pending') throw await conflictWithCurrent(deps.db, ctx.tenant.id, requestId);
  const policy = await repo.findPolicy(deps.db, ctx.tenant.id, row.policy_id);
  if (!policy) throw policyNotFound();
  const levels = repo.levelsOf(row);
  const index = Math.min(row.current_level, levels.length - 1);
  // An approver of a level already decided (two of them acted at once, or a stale screen) is told it moved on, not
  // refused: whichever of the two requests is served first, the other answers the same.
  const me = ctx.user.id;
  if (!levels[index]!.approvers.includes(me) && levels.slice(0, index).some((l) => l.approvers.includes(me))) {
    throw await conflictWithCurrent(deps.db, ctx.tenant.id, requestId);
  }
  return { row, policy, levels, index, current: levels[index]! };
}

async function finish(deps: ApprovalDeps, ctx: TenantContext, row: Row, change: Change, at: Date) {
  if (!(await applyChange(deps, row, change, at))) throw await conflictWithCurrent(deps.db, ctx.tenant.id, row.id);
  return getRequest(deps.db, ctx, row.id);
}

/**
 * Approves the current level (spec section 4): the last level approves the request; otherwise the next level
 * becomes current, its expiry runs from now, and its approvers are told.
 */
export async function approveRequest(deps: ApprovalDeps, ctx: TenantContext, requestId: string, comment: string | null): Promise<ApprovalRequest> {
  const { row, policy, levels, index, current } = await loadForAction(deps, ctx, requestId);
  if (!current.approvers.includes(ctx.user.id)) throw forbidden(APPROVAL_MSG.notAuthorizedApprove);
  const now = deps.clock();
  const at = now.toISOString();
  levels[index] = { ...current, status: 'approved', approvedBy: ctx.user.id, approvedAt: at, comments: comment };
  const next = levels[index + 1];
  const actorName = ctx.user.display_name || ctx.user.email;
  if (next) levels[index + 1] = { ...next, status: 'pending' };
  const expiresAt = next ? hoursFrom(now, next.timeToExpire) : null;
  const change: Change = {
    status: next ? 'pending' : 'approved',
    levels,
    currentLevel: next ? index + 1 : index,
    expiresAt,
    approvers: next?.approvers ?? [],
    history: { action: 'approved', level: current.level, comment, actorId: ctx.user.id },
    jobs: (version) => {
      const jobs: NewJob[] = [];
      if (next) jobs.push(expiryJob(row, index + 1, expiresAt!));
      if (next && policy.notify_on_create === 1) {
        jobs.push(...notifyJobs(row, version, next.approvers, now, { event: 'awaiting', level: next.level, status: 'pending', actorName: row.requested_by_name, comment: null }));
      }
      if (policy.notify_on_update === 1) {
        jobs.push(...notifyJobs(row, version, [row.created_by], now, { event: next ? 'progress' : 'final', level: current.level, status: next ? 'pending' : 'approved', actorName, comment }));
      }
      return jobs;
    },
  };
  return finish(deps, ctx, row, change, now);
}

/** Rejects the request at its current level, with the reason as the level's comment. */
export async function rejectRequest(deps: ApprovalDeps, ctx: TenantContext, requestId: string, reason: string): Promise<ApprovalRequest> {
  const { row, policy, levels, index, current } = await loadForAction(deps, ctx, requestId);
  if (!current.approvers.includes(ctx.user.id)) throw forbidden(APPROVAL_MSG.notAuthorizedReject);
  const now = deps.clock();
  levels[index] = { ...current, status: 'rejected', approvedBy: ctx.user.id, approvedAt: now.toISOString(), comments: reason };
  const actorName = ctx.user.display_name || ctx.user.email;
  return finish(
    deps,
    ctx,
    row,
    {
      status: 'rejected',
      levels,
      currentLevel: index,
      expiresAt: null,
      approvers: [],
      history: { action: 'rejected', level: current.level, comment: reason, actorId: ctx.user.id },
      jobs: (version) =>
        policy.notify_on_update === 1 ? notifyJobs(row, version, [row.created_by], now, { event: 'final', level: current.level, status: 'rejected', actorName, comment: reason }) : [],
    },
    now,
  );
}

/** Cancels a pending request: only its creator may (the spec's always-false check is not copied). */
export async function cancelRequest(deps: ApprovalDeps, ctx: TenantContext, requestId: string): Promise<ApprovalRequest> {
  const { row, levels, index, current } = await loadForAction(deps, ctx, requestId);
  if (row.created_by !== ctx.user.id) throw forbidden(APPROVAL_MSG.onlyCreatorCancel);
  const now = deps.clock();
  levels[index] = { ...current, status: 'cancelled' };
  return finish(
    deps,
    ctx,
    row,
    { status: 'cancelled', levels, currentLevel: index, expiresAt: null, approvers: [], history: { action: 'cancelled', level: current.level, comment: null, actorId: ctx.user.id }, jobs: () => [] },
    now,
  );
}

/**
 * Hands the caller's place among the current level's approvers to another member, when the policy allows
 * delegation. The delegate is told (they now have something to decide).
 */
export async function delegateRequest(deps: ApprovalDeps, ctx: TenantContext, requestId: string, userId: string): Promise<ApprovalRequest> {
  const { row, policy, levels, index, current } = await loadForAction(deps, ctx, requestId);
  if (policy.delegation_enabled !== 1) throw forbidden(APPROVAL_MSG.delegationDisabled);
  if (!current.approvers.includes(ctx.user.id)) throw forbidden(APPROVAL_MSG.notAuthorizedDelegate);
  if (userId === ctx.user.id) throw badRequest(APPROVAL_MSG.delegateSelf, { userId: APPROVAL_MSG.delegateSelf });
  const [delegate] = await listActiveMemberAccounts(deps.db, ctx.tenant.id, [userId]);
  if (!delegate) throw badRequest(APPROVAL_MSG.userNotAvailable, { userId: APPROVAL_MSG.userNotAvailable });
  const now = deps.clock();
  const approvers = [...new Set(current.approvers.map((id) => (id === ctx.user.id ? userId : id)))];
  levels[index] = { ...current, approvers };
  return finish(
    deps,
    ctx,
    row,
    {
      status: 'pending',
      levels,
      currentLevel: index,
      expiresAt: row.expires_at,
      approvers,
      history: { action: 'delegated', level: current.level, comment: null, targetId: userId, actorId: ctx.user.id },
      jobs: (version) =>
        notifyJobs(row, version, [userId], now, { event: 'awaiting', level: current.level, status: 'pending', actorName: ctx.user.display_name || ctx.user.email, comment: null }),
    },
    now,
  );
}

/**
 * The expiry job of a request's level: if the request still waits on that level past its expiry, it becomes
 * rejected ("Expired without a decision", with the policy's autoRejectOnExpire) or expired, exactly once (the same
 * conditional update as every other change); the requester is told when the policy says so.
 */
export async function expireRequest(deps: ApprovalDeps, tenantId: string, requestId: string, level: number, now: Date): Promise<boolean> {
  const row = await repo.findRequest(deps.db, tenantId, requestId);
  if (!row || row.status !== 'pending' || row.current_level !== level) return false;
  if (!row.expires_at || new Date(row.expires_at).getTime() > now.getTime()) return false;
  const policy = await repo.findPolicy(deps.db, tenantId, row.policy_id);
  const autoReject = policy?.auto_reject_on_expire !== 0;
  const levels = repo.levelsOf(row);
  const current = currentOf(levels, row);
  const status: ApprovalStatus = autoReject ? 'rejected' : 'expired';
  levels[row.current_level] = { ...current, status, comments: APPROVAL_MSG.expiredComment };
  return applyChange(
    deps,
    row,
    {
      status,
      levels,
      currentLevel: row.current_level,
      expiresAt: row.expires_at,
      approvers: [],
      history: { action: 'expired', level: current.level, comment: APPROVAL_MSG.expiredComment, actorId: null },
      jobs: (version) =>
        policy?.notify_on_update === 1
          ? notifyJobs(row, version, [row.created_by], now, { event: 'final', level: current.level, status, actorName: null, comment: APPROVAL_MSG.expiredComment })
          : [],
    },
    now,
  );
}

/** An attachment of a request the caller may see (404 otherwise, like a missing one). */
export async function findAttachmentFor(db: DB, ctx: TenantContext, requestId: string, attachmentId: string) {
  await loadVisible(db, ctx, requestId);
  const a = await repo.findAttachment(db, ctx.tenant.id, requestId, attachmentId);
  if (!a) throw notFound(APPROVAL_MSG.attachmentNotFound);
  return a;
}

/** The texts of a notification: subject, body, and where it leads. */
export function notificationText(p: NotifyPayload, request: Pick<Row, 'title' | 'description' | 'expires_at'>, url: string) {
  const level = APPROVAL_LEVEL_LABELS[p.level as keyof typeof APPROVAL_LEVEL_LABELS] ?? p.level;
  const comment = p.comment ? `\n\nComment: ${p.comment}` : '';
  if (p.event === 'awaiting') {
    return {
      subject: `Approval needed: ${request.title}`,
      text: `${p.actorName ?? 'Someone'} asks for your approval (${level} level):\n\n${request.title}\n\n${request.description}\n\n${request.expires_at ? `Decide by ${request.expires_at.replace('T', ' ').slice(0, 16)} UTC.\n\n` : ''}Open the request: ${url}`,
    };
  }
  if (p.event === 'progress') {
    return {
      subject: `Approved at ${level} level: ${request.title}`,
      text: `${p.actorName ?? 'An approver'} approved your request "${request.title}" at the ${level} level. It now goes to the next level.${comment}\n\nOpen the request: ${url}`,
    };
  }
  const outcome = p.status === 'approved' ? 'approved' : p.status === 'expired' ? 'expired without a decision' : 'rejected';
  const by = p.actorName ? ` by ${p.actorName}` : '';
  return { subject: `Your request was ${p.status}: ${request.title}`, text: `Your request "${request.title}" was ${outcome}${by}.${comment}\n\nOpen the request: ${url}` };
}
