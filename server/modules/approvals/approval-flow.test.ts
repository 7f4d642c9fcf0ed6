import { describe, expect, it } from 'vitest';
import { APPROVAL_MSG, type ApprovalPolicyLevel, type ApprovalStatus } from '../../../contract/approvals.ts';
import { decide, hoursFrom, start, type FlowAction, type FlowPolicy, type FlowRequest, type FlowResult, type Move, type Notice, type Refusal } from './approval-flow.ts';

const NOW = new Date('2025-03-10T12:00:00.000Z');
const later = (hours: number) => new Date(NOW.getTime() + hours * 3600_000);
const REQUESTER = { id: 'req', name: 'Rita Requester' };
const person = (id: string) => ({ id, name: `Name of ${id}` });

/** Manager (m1, m2; 24 h), director (d1; 8 h), executive (e1; 4 h). */
const ALL_LEVELS: ApprovalPolicyLevel[] = [
  { level: 'manager', approvers: ['m1', 'm2'], timeToExpire: 24 },
  { level: 'director', approvers: ['d1'], timeToExpire: 8 },
  { level: 'executive', approvers: ['e1'], timeToExpire: 4 },
];
const policy = (over: Partial<FlowPolicy> = {}): FlowPolicy => ({ autoRejectOnExpire: true, notifyOnCreate: true, notifyOnUpdate: true, delegationEnabled: true, selfApprovalAllowed: false, ...over });

function ok(result: FlowResult): Move {
  if (!result.ok) throw new Error(`refused: ${result.refusal}`);
  return result.move;
}

/** The request as it reads once a move is written. */
const after = (r: FlowRequest, m: Move): FlowRequest => ({ ...r, status: m.status, levels: m.levels, currentLevel: m.currentLevel, expiresAt: m.expiresAt, version: m.version });

/** A new request with `count` levels, as created at NOW. */
function created(count = 2, p: FlowPolicy = policy()): FlowRequest {
  const t = start(ALL_LEVELS.slice(0, count), REQUESTER, p, NOW)!;
  return { status: t.status, levels: t.levels, currentLevel: t.currentLevel, version: t.version, expiresAt: t.expiresAt, createdBy: REQUESTER.id, requesterName: REQUESTER.name };
}

/** A request of `count` levels approved up to (not including) level `reach`, each level an hour after the last. */
function atLevel(reach: number, count = 3): FlowRequest {
  let r = created(count);
  for (let i = 0; i < reach; i++) r = after(r, ok(decide(r, { kind: 'approve', actor: person(ALL_LEVELS[i]!.approvers[0]!), comment: null }, policy(), later(i + 1))));
  return r;
}

const refusalOf = (result: FlowResult) => (result.ok ? 'applied' : result.refusal);

describe('approval flow: a new request', () => {
  it('starts pending at the first level, expiring after its hours, its approvers asked', () => {
    const t = start(ALL_LEVELS, REQUESTER, policy(), NOW)!;
    expect(t).toMatchObject({ version: 1, status: 'pending', currentLevel: 0, expiresAt: '2025-03-11T12:00:00.000Z', approvers: ['m1', 'm2'] });
    expect(t.levels.map((l) => [l.level, l.status, l.approvedBy])).toEqual([
      ['manager', 'pending', null],
      ['director', 'waiting', null],
      ['executive', 'waiting', null],
    ]);
    expect(t.history).toEqual({ action: 'created', level: 'manager', comment: null, actorId: 'req', targetId: null });
    expect(t.expiry).toEqual({ level: 0, dueAt: '2025-03-11T12:00:00.000Z' });
    expect(t.notices).toEqual([{ to: ['m1', 'm2'], event: 'awaiting', level: 'manager', status: 'pending', actorName: 'Rita Requester', comment: null }]);
  });

  it.each([
    [true, 1],
    [false, 0],
  ])('asks the approvers when notifyOnCreate is %s', (notifyOnCreate, notices) => {
    expect(start(ALL_LEVELS, REQUESTER, { notifyOnCreate }, NOW)!.notices).toHaveLength(notices);
  });

  it('has no start without a level', () => {
    expect(start([], REQUESTER, policy(), NOW)).toBeNull();
  });
});

describe('approval flow: approving', () => {
  it.each([1, 2, 3])('runs a request of %i level(s) through to approved, one level at a time', (count) => {
    let r = created(count);
    for (let i = 0; i < count; i++) {
      const approver = ALL_LEVELS[i]!.approvers[0]!;
      const when = later(i + 1);
      const m = ok(decide(r, { kind: 'approve', actor: person(approver), comment: `ok ${i}` }, policy(), when));
      expect(m.ifVersion).toBe(r.version);
      expect(m.version).toBe(r.version + 1);
      expect(m.levels[i]).toMatchObject({ status: 'approved', approvedBy: approver, approvedAt: when.toISOString(), comments: `ok ${i}` });
      expect(m.history).toEqual({ action: 'approved', level: ALL_LEVELS[i]!.level, comment: `ok ${i}`, actorId: approver, targetId: null });
      const next = ALL_LEVELS[i + 1];
      if (i < count - 1 && next) {
        // The next level acts: its expiry runs from now, its approvers are asked, the requester hears of progress.
        const due = hoursFrom(when, next.timeToExpire);
        expect(m).toMatchObject({ status: 'pending', currentLevel: i + 1, expiresAt: due, approvers: next.approvers, expiry: { level: i + 1, dueAt: due } });
        expect(m.levels[i + 1]!.status).toBe('pending');
        expect(m.notices).toEqual<Notice[]>([
          { to: next.approvers, event: 'awaiting', level: next.level, status: 'pending', actorName: REQUESTER.name, comment: null },
          { to: [REQUESTER.id], event: 'progress', level: ALL_LEVELS[i]!.level, status: 'pending', actorName: `Name of ${approver}`, comment: `ok ${i}` },
        ]);
      } else {
        expect(m).toMatchObject({ status: 'approved', currentLevel: i, expiresAt: null, approvers: [], expiry: null });
        expect(m.notices).toEqual<Notice[]>([
          { to: [REQUESTER.id], event: 'final', level: ALL_LEVELS[i]!.level, status: 'approved', actorName: `Name of ${approver}`, comment: `ok ${i}` },
        ]);
      }
      r = after(r, m);
    }
    expect(r.status).toBe('approved');
    expect(r.version).toBe(count + 1);
    expect(r.levels.map((l) => l.status)).toEqual(Array(count).fill('approved'));
  });

  it.each<[boolean, boolean, Notice['event'][]]>([
    [true, true, ['awaiting', 'progress']],
    [true, false, ['awaiting']],
    [false, true, ['progress']],
    [false, false, []],
  ])('tells by the policy (notifyOnCreate %s, notifyOnUpdate %s): %j', (notifyOnCreate, notifyOnUpdate, events) => {
    const m = ok(decide(created(2), { kind: 'approve', actor: person('m2'), comment: null }, policy({ notifyOnCreate, notifyOnUpdate }), later(1)));
    expect(m.notices.map((n) => n.event)).toEqual(events);
    // The expiry of the next level is scheduled whatever the switches say.
    expect(m.expiry).toEqual({ level: 1, dueAt: hoursFrom(later(1), 8) });
  });
});

describe('approval flow: rejecting and cancelling', () => {
  it.each([0, 1, 2])('rejects at level %i with the reason as the level comment', (level) => {
    const r = atLevel(level);
    const approver = ALL_LEVELS[level]!.approvers[0]!;
    const m = ok(decide(r, { kind: 'reject', actor: person(approver), reason: 'Not now' }, policy(), later(5)));
    expect(m).toMatchObject({ status: 'rejected', currentLevel: level, expiresAt: null, approvers: [], expiry: null, ifVersion: r.version });
    expect(m.levels[level]).toMatchObject({ status: 'rejected', approvedBy: approver, approvedAt: later(5).toISOString(), comments: 'Not now' });
    expect(m.levels.slice(level + 1).map((l) => l.status)).toEqual(Array(2 - level).fill('waiting'));
    expect(m.history).toEqual({ action: 'rejected', level: ALL_LEVELS[level]!.level, comment: 'Not now', actorId: approver, targetId: null });
    expect(m.notices).toEqual([{ to: [REQUESTER.id], event: 'final', level: ALL_LEVELS[level]!.level, status: 'rejected', actorName: `Name of ${approver}`, comment: 'Not now' }]);
  });

  it('tells nobody of a rejection without notifyOnUpdate', () => {
    expect(ok(decide(created(), { kind: 'reject', actor: person('m1'), reason: 'No' }, policy({ notifyOnUpdate: false }), NOW)).notices).toEqual([]);
  });

  it.each([0, 1])('lets the requester cancel at level %i, telling nobody', (level) => {
    const r = atLevel(level);
    const m = ok(decide(r, { kind: 'cancel', actor: REQUESTER }, policy(), later(3)));
    expect(m).toMatchObject({ status: 'cancelled', currentLevel: level, expiresAt: null, approvers: [], expiry: null, notices: [] });
    expect(m.levels[level]!.status).toBe('cancelled');
    expect(m.history).toEqual({ action: 'cancelled', level: ALL_LEVELS[level]!.level, comment: null, actorId: REQUESTER.id, targetId: null });
  });
});

describe('approval flow: delegating', () => {
  it.each<[string, string, string, string[]]>([
    ['to another member', 'm1', 'x', ['x', 'm2']],
    ['keeping the place in the list', 'm2', 'x', ['m1', 'x']],
    ['to an approver of the same level, listed once', 'm1', 'm2', ['m2']],
    ['to an approver of a later level', 'm1', 'd1', ['d1', 'm2']],
    ['to the requester (no rule against it)', 'm1', 'req', ['req', 'm2']],
  ])('hands the place on %s', (_what, from, to, approvers) => {
    const r = created(3);
    // The delegate is told even when the policy tells nobody else.
    const m = ok(decide(r, { kind: 'delegate', actor: person(from), to, toIsActiveMember: true }, policy({ notifyOnCreate: false, notifyOnUpdate: false }), later(2)));
    expect(m).toMatchObject({ status: 'pending', currentLevel: 0, expiresAt: r.expiresAt, approvers, expiry: null, ifVersion: 1, version: 2 });
    expect(m.levels[0]).toMatchObject({ status: 'pending', approvers, approvedBy: null });
    expect(m.history).toEqual({ action: 'delegated', level: 'manager', comment: null, actorId: from, targetId: to });
    expect(m.notices).toEqual([{ to: [to], event: 'awaiting', level: 'manager', status: 'pending', actorName: `Name of ${from}`, comment: null }]);
  });
});

describe('approval flow: expiry', () => {
  it.each<[string, FlowPolicy | null, ApprovalStatus, number]>([
    ['auto-reject on', policy(), 'rejected', 1],
    ['auto-reject off', policy({ autoRejectOnExpire: false }), 'expired', 1],
    ['requester not told', policy({ notifyOnUpdate: false }), 'rejected', 0],
    ['policy gone', null, 'rejected', 0],
  ])('ends the level at its time (%s)', (_what, p, status, notices) => {
    const r = atLevel(1);
    const m = ok(decide(r, { kind: 'expire', level: 1 }, p, new Date(r.expiresAt!)));
    // The request keeps its expiry time: it is when it expired.
    expect(m).toMatchObject({ status, currentLevel: 1, expiresAt: r.expiresAt, approvers: [], expiry: null, ifVersion: r.version });
    expect(m.levels[1]).toMatchObject({ status, comments: APPROVAL_MSG.expiredComment, approvedBy: null });
    expect(m.history).toEqual({ action: 'expired', level: 'director', comment: APPROVAL_MSG.expiredComment, actorId: null, targetId: null });
    expect(m.notices).toEqual(
      notices ? [{ to: [REQUESTER.id], event: 'final', level: 'director', status, actorName: null, comment: APPROVAL_MSG.expiredComment }] : [],
    );
  });

  it.each<[string, FlowRequest, number, Date, Refusal]>([
    ['a millisecond before its time', created(), 0, new Date(later(24).getTime() - 1), 'notDue'],
    ['for a level the request has left', atLevel(1), 0, later(100), 'staleLevel'],
    ['of a decided request', { ...created(), status: 'approved' }, 0, later(100), 'notPending'],
    ['of a request without an expiry', { ...created(), expiresAt: null }, 0, later(100), 'notDue'],
  ])('does nothing %s', (_what, r, level, when, refusal) => {
    expect(refusalOf(decide(r, { kind: 'expire', level }, policy(), when))).toBe(refusal);
  });
});

describe('approval flow: who may, and in which order refusals come', () => {
  const approve = (id: string): FlowAction => ({ kind: 'approve', actor: person(id), comment: null });
  const reject = (id: string): FlowAction => ({ kind: 'reject', actor: person(id), reason: 'r' });
  const cancel = (id: string): FlowAction => ({ kind: 'cancel', actor: person(id) });
  const delegate = (id: string, to = 'x', toIsActiveMember = true): FlowAction => ({ kind: 'delegate', actor: person(id), to, toIsActiveMember });
  const decided = (status: ApprovalStatus) => ({ ...created(), status, expiresAt: null });

  type Case = [string, FlowRequest, FlowAction, FlowPolicy | null, Refusal | 'applied'];
  const cases: Case[] = [
    ['a current approver approves', created(), approve('m2'), policy(), 'applied'],
    ['the requester approves', created(), approve('req'), policy(), 'notApprover'],
    ['an approver of a later level approves', created(), approve('d1'), policy(), 'notApprover'],
    // The requester who is also an approver of the level: not with another approver there, nor unless the policy allows it.
    ...((): Case[] => {
      const own = (approvers: string[]) => ({ ...created(), levels: created().levels.map((l, i) => (i === 0 ? { ...l, approvers } : l)) });
      return [
        ['the requester approves their own request beside another approver', own(['req', 'm1']), approve('req'), policy({ selfApprovalAllowed: true }), 'ownRequest'],
        ['the requester, sole approver, approves with self-approval off', own(['req']), approve('req'), policy(), 'ownRequest'],
        ['the requester, sole approver, approves with self-approval on', own(['req']), approve('req'), policy({ selfApprovalAllowed: true }), 'applied'],
        ['the requester, one of the approvers, rejects their own request', own(['req', 'm1']), reject('req'), policy(), 'applied'],
      ];
    })(),
    ['a stranger rejects', created(), reject('x'), policy(), 'notApprover'],
    ['an approver cancels', created(), cancel('m1'), policy(), 'notCreator'],
    ['the requester cancels', created(), cancel('req'), policy(), 'applied'],
    ['a stranger delegates with delegation off', created(), delegate('x'), policy({ delegationEnabled: false }), 'delegationDisabled'],
    ['a current approver delegates with delegation off', created(), delegate('m1'), policy({ delegationEnabled: false }), 'delegationDisabled'],
    ['the requester delegates', created(), delegate('req'), policy(), 'notApprover'],
    ['an approver delegates to themselves', created(), delegate('m1', 'm1'), policy(), 'delegateSelf'],
    ['an approver delegates to themselves, not a member', created(), delegate('m1', 'm1', false), policy(), 'delegateSelf'],
    ['an approver delegates to a non-member', created(), delegate('m1', 'x', false), policy(), 'delegateUnavailable'],
    ...(['approved', 'rejected', 'cancelled', 'expired'] as const).map((s): Case => [
      `an approver acts on a request ${s}`,
      decided(s),
      approve('m1'),
      policy(),
      'notPending',
    ]),
    ['the requester cancels a decided request', decided('approved'), cancel('req'), policy(), 'notPending'],
    ['an approver acts at the expiry time', { ...created(), expiresAt: NOW.toISOString() }, approve('m1'), policy(), 'pastExpiry'],
    ['the requester cancels past the expiry', { ...created(), expiresAt: NOW.toISOString() }, cancel('req'), null, 'pastExpiry'],
    ['a current approver acts when the policy is gone', created(), approve('m1'), null, 'policyMissing'],
    ['a stranger acts when the policy is gone', created(), approve('x'), null, 'policyMissing'],
    ['an approver of a level already passed approves', atLevel(1), approve('m2'), policy(), 'movedOn'],
    ['an approver of a level already passed cancels', atLevel(2), cancel('m1'), policy(), 'movedOn'],
    ['an approver of both the passed and the current level approves', { ...atLevel(1), levels: atLevel(1).levels.map((l, i) => (i === 1 ? { ...l, approvers: ['d1', 'm1'] } : l)) }, approve('m1'), policy(), 'applied'],
  ];
  it.each(cases.map(([what, r, action, p, expected]): Case => [`${what}: ${expected}`, r, action, p, expected]))('%s', (_what, r, action, p, expected) => {
    expect(refusalOf(decide(r, action, p, NOW))).toBe(expected);
  });
});

describe('approval flow: versions', () => {
  it('writes every move on the version it was decided from, so of two decisions from one read only one can be written', () => {
    const r = { ...created(), version: 7 };
    const first = ok(decide(r, approve('m1'), policy(), later(1)));
    const second = ok(decide(r, approve('m2'), policy(), later(1)));
    expect([first.ifVersion, first.version]).toEqual([7, 8]);
    expect(second.ifVersion).toBe(first.ifVersion);
    // Read again after the first was written, the second approver is told the request moved on.
    expect(refusalOf(decide(after(r, first), approve('m2'), policy(), later(1)))).toBe('movedOn');
    // The expiry scheduled for the first level no longer applies.
    expect(refusalOf(decide(after(r, first), { kind: 'expire', level: 0 }, policy(), later(100)))).toBe('staleLevel');
  });

  function approve(id: string): FlowAction {
    return { kind: 'approve', actor: person(id), comment: null };
  }
});
