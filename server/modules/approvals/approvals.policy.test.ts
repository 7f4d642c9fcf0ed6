import { describe, expect, it, vi } from 'vitest';
import type { ApprovalLevel } from '../../../contract/approvals.ts';
import { abilitiesOf, decidedEarlier, mayView, type DecidableRequest } from './approvals.policy.ts';

const level = (name: ApprovalLevel['level'], approvers: string[]): ApprovalLevel => ({
  level: name,
  approvers,
  status: 'waiting',
  approvedBy: null,
  approvedAt: null,
  comments: null,
  timeToExpire: 24,
});
/** Manager m1, m2; director d1; made by "req"; at the director level. */
const request = (over: Partial<DecidableRequest> = {}): DecidableRequest => ({
  status: 'pending',
  levels: [level('manager', ['m1', 'm2']), level('director', ['d1'])],
  currentLevel: 1,
  createdBy: 'req',
  ...over,
});

describe('approvals policy: what a caller may do', () => {
  const none = { approve: false, reject: false, cancel: false, delegate: false };
  it.each<[string, string, DecidableRequest, boolean, typeof none]>([
    ['the current approver', 'd1', request(), true, { approve: true, reject: true, cancel: false, delegate: true }],
    ['the current approver, delegation off', 'd1', request(), false, { approve: true, reject: true, cancel: false, delegate: false }],
    ['an approver of the level passed', 'm1', request(), true, none],
    ['the requester', 'req', request(), true, { ...none, cancel: true }],
    // The requester never approves their own request while someone else could decide the level, nor unless allowed.
    ['the requester who is also the current approver', 'd1', request({ createdBy: 'd1' }), true, { approve: false, reject: true, cancel: true, delegate: true }],
    ['the current approver of a decided request', 'd1', request({ status: 'approved' }), true, none],
    ['the requester of a decided request', 'req', request({ status: 'rejected' }), true, none],
    ['someone else', 'x', request(), true, none],
    ['an approver, the stored level past the last', 'd1', request({ currentLevel: 5 }), true, { approve: true, reject: true, cancel: false, delegate: true }],
  ])('%s', (_who, userId, r, delegationEnabled, expected) => {
    expect(abilitiesOf(userId, r, { delegationEnabled, selfApprovalAllowed: false })).toEqual(expected);
  });

  it.each<[string, string[], boolean, boolean]>([
    ['the only approver, the policy allows it', ['d1'], true, true],
    ['the only approver, the policy does not', ['d1'], false, false],
    ['one of two approvers, the policy allows it', ['d1', 'd2'], true, false],
  ])('the requester approving their own request: %s', (_case, approvers, selfApprovalAllowed, approve) => {
    const r = request({ createdBy: 'd1' });
    r.levels = r.levels.map((l, i) => (i === r.currentLevel ? { ...l, approvers } : l));
    expect(abilitiesOf('d1', r, { delegationEnabled: true, selfApprovalAllowed }).approve).toBe(approve);
  });

  it.each<[string, number, boolean]>([
    ['m1', 1, true],
    ['d1', 1, false],
    ['m1', 0, false],
    ['x', 1, false],
  ])('%s at level %i decided earlier: %s', (userId, currentLevel, expected) => {
    expect(decidedEarlier(userId, request({ currentLevel }))).toBe(expected);
  });
});

describe('approvals policy: who sees a request', () => {
  const viewer = (id: string, viewAllApprovals = false) => ({ user: { id }, abilities: { viewAllApprovals } });
  it.each<[string, ReturnType<typeof viewer>, boolean, boolean, boolean]>([
    ['an owner or admin', viewer('boss', true), false, true, false],
    ['the requester', viewer('req'), false, true, false],
    ['an approver of any level', viewer('m2'), false, true, false],
    ['someone who acted on it', viewer('x'), true, true, true],
    ['anyone else', viewer('x'), false, false, true],
  ])('%s', async (_who, v, acted, expected, asked) => {
    const actedOn = vi.fn(async () => acted);
    expect(await mayView(v, request(), actedOn)).toBe(expected);
    // The history is read only when nothing else decides.
    expect(actedOn).toHaveBeenCalledTimes(asked ? 1 : 0);
  });
});
