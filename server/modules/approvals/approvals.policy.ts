import type { ApprovalLevel } from '../../../contract/approvals.ts';

/** What "who may" reads of a request. */
export interface DecidableRequest {
  status: string;
  levels: ApprovalLevel[];
  /** Index into levels of the level acting now. */
  currentLevel: number;
  createdBy: string;
}

/** Who is asking. A TenantContext fits. */
export interface Viewer {
  user: { id: string };
  abilities: { viewAllApprovals: boolean };
}

/** The level acting now: the stored index, kept within the levels (the last one once decided). */
export const currentIndex = (levels: ApprovalLevel[], currentLevel: number) => Math.min(currentLevel, levels.length - 1);

const approversNow = (r: DecidableRequest) => r.levels[currentIndex(r.levels, r.currentLevel)]?.approvers ?? [];

/** The one rule of who decides: an approver of the current level of a pending request. */
export function isCurrentApprover(userId: string, r: DecidableRequest): boolean {
  return r.status === 'pending' && approversNow(r).includes(userId);
}

/**
 * An approver of a level already decided, not of the current one (two of them acted at once, or a stale screen):
 * they are told the request moved on rather than refused, so whichever of two simultaneous decisions is served
 * first, the other answers the same.
 */
export function decidedEarlier(userId: string, r: DecidableRequest): boolean {
  const index = currentIndex(r.levels, r.currentLevel);
  return !approversNow(r).includes(userId) && r.levels.slice(0, index).some((l) => l.approvers.includes(userId));
}

/** Only the creator cancels, and only while the request is pending (the spec's own condition can never hold). */
export function mayCancel(userId: string, r: DecidableRequest): boolean {
  return r.status === 'pending' && r.createdBy === userId;
}

/** A current approver hands their place on, when the request's policy allows delegation. */
export function mayDelegate(userId: string, r: DecidableRequest, delegationEnabled: boolean): boolean {
  return delegationEnabled && isCurrentApprover(userId, r);
}

/**
 * A current approver approves, except the requester themselves: they may only where nobody else could decide the level
 * and the policy allows it (a request is not waved through by the person asking).
 */
export function mayApprove(userId: string, r: DecidableRequest, selfApprovalAllowed: boolean): boolean {
  if (!isCurrentApprover(userId, r)) return false;
  return r.createdBy !== userId || (selfApprovalAllowed && approversNow(r).every((a) => a === userId));
}

/** What the caller may do with the request now (the screen's buttons; every action checks again). */
export function abilitiesOf(userId: string, r: DecidableRequest, policy: { delegationEnabled: boolean; selfApprovalAllowed: boolean }) {
  return {
    approve: mayApprove(userId, r, policy.selfApprovalAllowed),
    reject: isCurrentApprover(userId, r),
    cancel: mayCancel(userId, r),
    delegate: mayDelegate(userId, r, policy.delegationEnabled),
  };
}

/**
 * Who sees a request (spec section 6): owners and admins all of them; others their own, those naming them as an
 * approver at any level, and those they acted on (`actedOn` is asked only when nothing else decides). Everyone
 * else is answered 404, like a missing request.
 */
export async function mayView(viewer: Viewer, r: Pick<DecidableRequest, 'levels' | 'createdBy'>, actedOn: () => Promise<boolean>): Promise<boolean> {
  const me = viewer.user.id;
  if (viewer.abilities.viewAllApprovals || r.createdBy === me) return true;
  if (r.levels.some((l) => l.approvers.includes(me))) return true;
  return actedOn();
}
