import { describe, expect, it } from 'vitest';
import type { EscalationPolicy } from '../../../contract/escalation.ts';
import { PAGING_MSG } from '../../../contract/paging.ts';
import { hasNextLevel, isRunning, levelPeople, overdueLevel, pagedNobodyAtStart, pagesOf, planFire, planStart, type OnCall } from './escalation-plan.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const MIN = 60_000;

function policy(over: Partial<EscalationPolicy> = {}): EscalationPolicy {
  return {
    id: 'p1',
    tenantId: 't1',
    name: 'Default',
    description: null,
    isDefault: true,
    escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
    level_1: { userIds: ['u1'], scheduleIds: ['s1'], notify: 'primary_and_secondary', notificationChannels: ['email', 'push'] },
    level_2: { userIds: ['u2'], scheduleIds: [], notify: 'primary', notificationChannels: ['email', 'push', 'sms'], timeAfterPrevious: 10 },
    level_3: { userIds: [], scheduleIds: ['s2'], notify: 'primary', notificationChannels: ['sms'], timeAfterPrevious: 20 },
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    ...over,
  };
}

describe('planStart: what starting an alert comes to', () => {
  const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * MIN).toISOString();
  it.each([
    { case: 'acknowledged before the engine saw it', alert: { status: 'acknowledged', priority: 'critical', created_at: at(0) }, p: policy(), want: { kind: 'stopped' } },
    { case: 'no policy applies', alert: { status: 'new', priority: 'critical', created_at: at(0) }, p: null, want: { kind: 'unrouted', policyId: null, reason: PAGING_MSG.noPolicy } },
    {
      case: 'the priority has no time',
      alert: { status: 'new', priority: 'info', created_at: at(0) },
      p: policy(),
      want: { kind: 'unrouted', policyId: 'p1', reason: PAGING_MSG.noTargetForPriority('info'), policyName: 'Default' },
    },
    {
      case: 'a time of 0 is no time',
      alert: { status: 'new', priority: 'high', created_at: at(0) },
      p: policy({ escalationTimes: { critical: 15, high: 0, medium: 60, low: 240, info: null } }),
      want: { kind: 'unrouted', policyId: 'p1', reason: PAGING_MSG.noTargetForPriority('high'), policyName: 'Default' },
    },
    { case: 'critical, just opened: overdue at its target', alert: { status: 'new', priority: 'critical', created_at: at(0) }, p: policy(), want: { kind: 'start', policyId: 'p1', overdueCheckAt: new Date(NOW.getTime() + 15 * MIN) } },
    { case: 'opened 5 minutes ago: the target counts from opening', alert: { status: 'new', priority: 'critical', created_at: at(5) }, p: policy(), want: { kind: 'start', policyId: 'p1', overdueCheckAt: new Date(NOW.getTime() + 10 * MIN) } },
    { case: 'already past its target: checked now, never in the past', alert: { status: 'new', priority: 'high', created_at: at(45) }, p: policy(), want: { kind: 'start', policyId: 'p1', overdueCheckAt: NOW } },
  ])('$case', ({ alert, p, want }) => {
    expect(planStart(alert, p, NOW)).toEqual(want);
  });
});

describe('pagedNobodyAtStart: an escalation that pages nobody is marked, and why', () => {
  const alert = (priority: string, status = 'new') => ({ status, priority, created_at: NOW.toISOString() });
  it.each([
    { case: 'no policy applies', plan: planStart(alert('critical'), null, NOW), pages: 0, want: 'no_policy' },
    { case: 'no policy applies, whatever subscribers are told', plan: planStart(alert('critical'), null, NOW), pages: 3, want: 'no_policy' },
    { case: 'level 1 comes to no page (nobody reachable named, nobody on call, no channel)', plan: planStart(alert('critical'), policy(), NOW), pages: 0, want: 'nobody_on_level' },
    { case: 'level 1 pages someone', plan: planStart(alert('critical'), policy(), NOW), pages: 2, want: null },
    { case: 'the policy gives the priority no time: its own choice, not marked', plan: planStart(alert('info'), policy(), NOW), pages: 0, want: null },
    { case: 'acknowledged before the engine saw it', plan: planStart(alert('critical', 'acknowledged'), null, NOW), pages: 0, want: null },
  ])('$case', ({ plan, pages, want }) => {
    expect(pagedNobodyAtStart(plan, pages)).toBe(want);
  });
});

describe('levelPeople: who a level pages', () => {
  const onCall = (table: Partial<Record<string, OnCall>>) => (id: string) => table[id] ?? null;
  it.each([
    { case: 'its users and the schedule’s primary and secondary (the level says so)', level: 1, table: { s1: { primary: 'u7', secondary: 'u8' } }, want: ['u1', 'u7', 'u8'] },
    { case: 'a level paging the primary only leaves the secondary out', level: 3, table: { s2: { primary: 'u9', secondary: 'u8' } }, want: ['u9'] },
    { case: 'nobody on call on the schedule: the users alone', level: 1, table: {}, want: ['u1'] },
    { case: 'a person named twice is paged once', level: 1, table: { s1: { primary: 'u1', secondary: 'u1' } }, want: ['u1'] },
    { case: 'a level of schedules only', level: 3, table: { s2: { primary: 'u9', secondary: null } }, want: ['u9'] },
    { case: 'a level without users or anyone on call pages nobody', level: 3, table: {}, want: [] },
  ])('$case', ({ level, table, want }) => {
    expect(levelPeople(policy(), level, onCall(table))).toEqual(want);
  });
});

describe('planFire: a level’s step, channels and the next level’s time', () => {
  it.each([
    { case: 'level 1: level 2 after its delay', level: 1, repeat: false, want: { step: 'L1', channels: ['email', 'push'], nextAt: new Date(NOW.getTime() + 10 * MIN) } },
    { case: 'level 2: level 3 after its delay', level: 2, repeat: false, want: { step: 'L2', channels: ['email', 'push', 'sms'], nextAt: new Date(NOW.getTime() + 20 * MIN) } },
    { case: 'level 3: nothing after it', level: 3, repeat: false, want: { step: 'L3', channels: ['sms'], nextAt: null } },
    { case: 'overdue repeat of level 2: no next level from it', level: 2, repeat: true, want: { step: 'overdue', channels: ['email', 'push', 'sms'], nextAt: null } },
  ])('$case', ({ level, repeat, want }) => {
    expect(planFire(policy(), level, repeat, NOW)).toEqual(want);
  });

  it('pages every person on every channel of the level', () => {
    expect(pagesOf(['a', 'b'], planFire(policy(), 1, false, NOW))).toEqual([
      { userId: 'a', channel: 'email' },
      { userId: 'a', channel: 'push' },
      { userId: 'b', channel: 'email' },
      { userId: 'b', channel: 'push' },
    ]);
  });
});

describe('which alerts still escalate', () => {
  const alert = (over: Partial<{ status: string; escalation_state: string; escalation_policy_id: string | null; escalation_level: number }>) => ({
    status: 'new',
    escalation_state: 'running',
    escalation_policy_id: 'p1',
    escalation_level: 1,
    ...over,
  });
  it.each([
    { case: 'new and running', a: alert({}), running: true, next: true, overdue: 1 },
    { case: 'at the last level', a: alert({ escalation_level: 3 }), running: true, next: false, overdue: 3 },
    { case: 'acknowledged', a: alert({ status: 'acknowledged' }), running: false, next: false, overdue: 1 },
    { case: 'stopped', a: alert({ escalation_state: 'stopped' }), running: false, next: false, overdue: 1 },
    { case: 'policy gone', a: alert({ escalation_policy_id: null }), running: false, next: false, overdue: 1 },
    { case: 'no level paged yet: the overdue repeat pages level 1', a: alert({ escalation_level: 0 }), running: true, next: true, overdue: 1 },
  ])('$case', ({ a, running, next, overdue }) => {
    expect(isRunning(a)).toBe(running);
    expect(hasNextLevel(a)).toBe(next);
    expect(overdueLevel(a)).toBe(overdue);
  });
});
