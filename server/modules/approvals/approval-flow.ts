import { APPROVAL_MSG, type ApprovalHistoryEntry, type ApprovalLevel, type ApprovalPolicyLevel, type ApprovalStatus } from '../../../contract/approvals.ts';
import { currentIndex, decidedEarlier, isCurrentApprover, mayApprove, mayCancel, mayDelegate } from './approvals.policy.ts';

/**
 * How a request moves through its levels, without I/O: given the request as read, an action and the time, the state
 * to write (or why not). The service loads, writes the answer as one conditional update on the version read, and
 * schedules what it says.
 */

/** A request as the flow reads it. */
export interface FlowRequest {
  status: ApprovalStatus;
  levels: ApprovalLevel[];
  /** Index into levels of the level acting now. */
  currentLevel: number;
  version: number;
  expiresAt: string | null;
  createdBy: string;
  requesterName: string;
}

/** The switches of the request's policy that shape its moves. */
export interface FlowPolicy {
  autoRejectOnExpire: boolean;
  notifyOnCreate: boolean;
  notifyOnUpdate: boolean;
  delegationEnabled: boolean;
  selfApprovalAllowed: boolean;
}

export interface FlowActor {
  id: string;
  name: string;
}

export type FlowAction =
  | { kind: 'approve'; actor: FlowActor; comment: string | null }
  | { kind: 'reject'; actor: FlowActor; reason: string }
  | { kind: 'cancel'; actor: FlowActor }
  | { kind: 'delegate'; actor: FlowActor; to: string; toIsActiveMember: boolean }
  /** The expiry of the level at this index, as scheduled when the request reached it. */
  | { kind: 'expire'; level: number };

/** A notification to send: one per person and channel, its text written when it is sent. */
export interface Notice {
  to: string[];
  /** awaiting: you are asked to decide; progress: your request passed a level; final: your request was decided. */
  event: 'awaiting' | 'progress' | 'final';
  level: string;
  status: ApprovalStatus;
  actorName: string | null;
  comment: string | null;
}

export interface Transition {
  /** The request's version once written: also its history entry's sequence number and its notifications' key. */
  version: number;
  status: ApprovalStatus;
  levels: ApprovalLevel[];
  currentLevel: number;
  expiresAt: string | null;
  /** Who may decide now: the current level's approvers while pending, nobody once decided. */
  approvers: string[];
  history: { action: ApprovalHistoryEntry['action']; level: string; comment: string | null; actorId: string | null; targetId: string | null };
  /** The expiry to schedule for the level the request reached, if it reached one. */
  expiry: { level: number; dueAt: string } | null;
  notices: Notice[];
}

/** A change of an existing request: written only if it is still pending at `ifVersion`. */
export interface Move extends Transition {
  ifVersion: number;
}

/**
 * Why an action does not apply. pastExpiry: the request is pending past its expiry (it expires first); notPending:
 * already decided; movedOn: the caller decided an earlier level; policyMissing: the request's policy is gone;
 * notApprover / ownRequest / notCreator / delegationDisabled / delegateSelf / delegateUnavailable: the caller may not;
 * staleLevel / notDue: an expiry for a level the request has left, or before its time.
 */
export type Refusal =
  | 'pastExpiry'
  | 'notPending'
  | 'movedOn'
  | 'policyMissing'
  | 'notApprover'
  | 'ownRequest'
  | 'notCreator'
  | 'delegationDisabled'
  | 'delegateSelf'
  | 'delegateUnavailable'
  | 'staleLevel'
  | 'notDue';

export type FlowResult = { ok: true; move: Move } | { ok: false; refusal: Refusal };

export const hoursFrom = (at: Date, hours: number) => new Date(at.getTime() + hours * 3600_000).toISOString();

/**
 * A new request under a policy's levels (spec section 4): at the first level, pending, expiring after that level's
 * hours; its approvers are told when the policy says so. Null when the policy has no level.
 */
export function start(policyLevels: ApprovalPolicyLevel[], requester: FlowActor, policy: Pick<FlowPolicy, 'notifyOnCreate'>, now: Date): Transition | null {
  const first = policyLevels[0];
  if (!first) return null;
  const levels: ApprovalLevel[] = policyLevels.map((l, i) => ({
    level: l.level,
    approvers: l.approvers,
    status: i === 0 ? 'pending' : 'waiting',
    approvedBy: null,
    approvedAt: null,
    comments: null,
    timeToExpire: l.timeToExpire,
  }));
  const expiresAt = hoursFrom(now, first.timeToExpire);
  return {
    version: 1,
    status: 'pending',
    levels,
    currentLevel: 0,
    expiresAt,
    approvers: first.approvers,
    history: { action: 'created', level: first.level, comment: null, actorId: requester.id, targetId: null },
    expiry: { level: 0, dueAt: expiresAt },
    notices: policy.notifyOnCreate ? [{ to: first.approvers, event: 'awaiting', level: first.level, status: 'pending', actorName: requester.name, comment: null }] : [],
  };
}

const isPast = (at: string | null, now: Date) => at !== null && new Date(at).getTime() <= now.getTime();

/** The next state of a request after an action, or why the action does not apply. Checks run in this order. */
export function decide(request: FlowRequest, action: FlowAction, policy: FlowPolicy | null, now: Date): FlowResult {
  if (action.kind === 'expire') return expire(request, action.level, policy, now);
  // Past its expiry a request takes no decision, even before its expiry job has run.
  if (request.status === 'pending' && isPast(request.expiresAt, now)) return refuse('pastExpiry');
  if (request.status !== 'pending') return refuse('notPending');
  if (!policy) return refuse('policyMissing');
  const me = action.actor.id;
  if (decidedEarlier(me, request)) return refuse('movedOn');

  const index = currentIndex(request.levels, request.currentLevel);
  const current = request.levels[index]!;
  const levels = [...request.levels];
  const at = now.toISOString();
  const move = (m: Omit<Move, 'ifVersion' | 'version'>): FlowResult => ({ ok: true, move: { ...m, ifVersion: request.version, version: request.version + 1 } });
  const toRequester = (n: Omit<Notice, 'to'>): Notice[] => (policy.notifyOnUpdate ? [{ to: [request.createdBy], ...n }] : []);
  /** The request decided for good at the current level (approved at the last level, or rejected): the requester is told. */
  const decided = (status: 'approved' | 'rejected', comment: string | null) =>
    move({
      status,
      levels,
      currentLevel: index,
      expiresAt: null,
      approvers: [],
      history: { action: status, level: current.level, comment, actorId: me, targetId: null },
      expiry: null,
      notices: toRequester({ event: 'final', level: current.level, status, actorName: action.actor.name, comment }),
    });

  switch (action.kind) {
    case 'approve': {
      if (!isCurrentApprover(me, request)) return refuse('notApprover');
      if (!mayApprove(me, request, policy.selfApprovalAllowed)) return refuse('ownRequest');
      levels[index] = { ...current, status: 'approved', approvedBy: me, approvedAt: at, comments: action.comment };
      const next = levels[index + 1];
      if (!next) return decided('approved', action.comment);
      // The next level becomes current; its expiry runs from now and its approvers are asked.
      levels[index + 1] = { ...next, status: 'pending' };
      const expiresAt = hoursFrom(now, next.timeToExpire);
      return move({
        status: 'pending',
        levels,
        currentLevel: index + 1,
        expiresAt,
        approvers: next.approvers,
        history: { action: 'approved', level: current.level, comment: action.comment, actorId: me, targetId: null },
        expiry: { level: index + 1, dueAt: expiresAt },
        notices: [
          ...(policy.notifyOnCreate ? [{ to: next.approvers, event: 'awaiting', level: next.level, status: 'pending', actorName: request.requesterName, comment: null } satisfies Notice] : []),
          ...toRequester({ event: 'progress', level: current.level, status: 'pending', actorName: action.actor.name, comment: action.comment }),
        ],
      });
    }
    case 'reject': {
      if (!isCurrentApprover(me, request)) return refuse('notApprover');
      levels[index] = { ...current, status: 'rejected', approvedBy: me, approvedAt: at, comments: action.reason };
      return decided('rejected', action.reason);
    }
    case 'cancel': {
      if (!mayCancel(me, request)) return refuse('notCreator');
      levels[index] = { ...current, status: 'cancelled' };
      return move({
        status: 'cancelled',
        levels,
        currentLevel: index,
        expiresAt: null,
        approvers: [],
        history: { action: 'cancelled', level: current.level, comment: null, actorId: me, targetId: null },
        expiry: null,
        notices: [],
      });
    }
    case 'delegate': {
      if (!policy.delegationEnabled) return refuse('delegationDisabled');
      if (!mayDelegate(me, request, policy.delegationEnabled)) return refuse('notApprover');
      if (action.to === me) return refuse('delegateSelf');
      if (!action.toIsActiveMember) return refuse('delegateUnavailable');
      // The delegate takes the caller's place; one already an approver of the level is not listed twice. The level
      // keeps its expiry. The delegate is always told (they now have something to decide).
      const approvers = [...new Set(current.approvers.map((id) => (id === me ? action.to : id)))];
      levels[index] = { ...current, approvers };
      return move({
        status: 'pending',
        levels,
        currentLevel: index,
        expiresAt: request.expiresAt,
        approvers,
        history: { action: 'delegated', level: current.level, comment: null, actorId: me, targetId: action.to },
        expiry: null,
        notices: [{ to: [action.to], event: 'awaiting', level: current.level, status: 'pending', actorName: action.actor.name, comment: null }],
      });
    }
  }
}

/**
 * A level's expiry: if the request still waits on that level at or after its expiry, it becomes rejected ("Expired
 * without a decision") when the policy auto-rejects (also when the policy is gone), else expired; the requester is
 * told when the policy says so. The request keeps its expiry time.
 */
function expire(request: FlowRequest, level: number, policy: FlowPolicy | null, now: Date): FlowResult {
  if (request.status !== 'pending') return refuse('notPending');
  if (request.currentLevel !== level) return refuse('staleLevel');
  if (!isPast(request.expiresAt, now)) return refuse('notDue');
  const index = currentIndex(request.levels, request.currentLevel);
  const current = request.levels[index]!;
  const status: ApprovalStatus = policy?.autoRejectOnExpire !== false ? 'rejected' : 'expired';
  const levels = [...request.levels];
  levels[index] = { ...current, status, comments: APPROVAL_MSG.expiredComment };
  return {
    ok: true,
    move: {
      ifVersion: request.version,
      version: request.version + 1,
      status,
      levels,
      currentLevel: request.currentLevel,
      expiresAt: request.expiresAt,
      approvers: [],
      history: { action: 'expired', level: current.level, comment: APPROVAL_MSG.expiredComment, actorId: null, targetId: null },
      expiry: null,
      notices: policy?.notifyOnUpdate
        ? [{ to: [request.createdBy], event: 'final', level: current.level, status, actorName: null, comment: APPROVAL_MSG.expiredComment }]
        : [],
    },
  };
}

function refuse(refusal: Refusal): FlowResult {
  return { ok: false, refusal };
}
