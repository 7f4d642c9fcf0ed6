import { describe, expect, it } from 'vitest';
import { applyPing, applyTime, deadlines, nextCheckAt, pause, reschedule, resume, stateAt, type MonitorFields, type PingKind } from './heartbeat-state.ts';

const T0 = Date.parse('2025-03-01T02:00:00.000Z');
const min = (n: number) => new Date(T0 + n * 60_000);
const iso = (n: number) => min(n).toISOString();

/** Every hour, 10 minutes of grace; last pinged at T0 unless said. */
const monitor = (over: Partial<MonitorFields> = {}): MonitorFields => ({
  state: 'up',
  intervalMinutes: 60,
  graceMinutes: 10,
  periodStartAt: iso(0),
  runStartedAt: null,
  lastPingAt: iso(0),
  lastFailAt: null,
  alertWanted: false,
  ...over,
});

describe('heartbeat deadlines and the state at a time', () => {
  const cases: Array<[string, Partial<MonitorFields>, number, string, number | null, number | null]> = [
    // name, monitor, minutes after T0, expected state, expected late at, expected down at (minutes after T0)
    ['up, within its interval', {}, 59, 'up', 60, 70],
    ['up, at its interval: late', {}, 60, 'late', 60, 70],
    ['late, within grace', { state: 'late' }, 69, 'late', 60, 70],
    ['late, past grace: down', { state: 'late' }, 70, 'down', 60, 70],
    ['up, never looked at past both deadlines: down', {}, 500, 'down', 60, 70],
    ['no grace: late and down at once', { graceMinutes: 0 }, 60, 'down', 60, 60],
    ['new: never late, never down', { state: 'new', periodStartAt: null, lastPingAt: null }, 10_000, 'new', null, null],
    ['new with a run started: down a grace after the start', { state: 'new', periodStartAt: null, lastPingAt: null, runStartedAt: iso(5) }, 15, 'down', null, 15],
    ['new with a run started, within grace', { state: 'new', periodStartAt: null, lastPingAt: null, runStartedAt: iso(5) }, 14, 'new', null, 15],
    ['up with a run started: the deadline of the start comes first', { runStartedAt: iso(20) }, 30, 'down', 60, 30],
    ['up with a run started late in the period: the deadline of the period comes first', { runStartedAt: iso(65) }, 70, 'down', 60, 70],
    ['paused: nothing comes due', { state: 'paused' }, 10_000, 'paused', null, null],
    ['down: stays down', { state: 'down' }, 10_000, 'down', null, null],
  ];
  it.each(cases)('%s', (_name, over, at, state, lateAt, downAt) => {
    const m = monitor(over);
    expect(stateAt(m, min(at))).toBe(state);
    const d = deadlines(m);
    expect(d.lateAt?.toISOString() ?? null).toBe(lateAt === null ? null : iso(lateAt));
    expect(d.downAt?.toISOString() ?? null).toBe(downAt === null ? null : iso(downAt));
  });

  it('is checked next at its next deadline that changes the state', () => {
    expect(nextCheckAt(monitor())?.toISOString()).toBe(iso(60));
    expect(nextCheckAt(monitor({ state: 'late' }))?.toISOString()).toBe(iso(70));
    expect(nextCheckAt(monitor({ runStartedAt: iso(20) }))?.toISOString()).toBe(iso(30));
    expect(nextCheckAt(monitor({ state: 'new', periodStartAt: null, lastPingAt: null }))).toBeNull();
    expect(nextCheckAt(monitor({ state: 'paused' }))).toBeNull();
    expect(nextCheckAt(monitor({ state: 'down' }))).toBeNull();
  });
});

describe('pings', () => {
  const cases: Array<[string, Partial<MonitorFields>, PingKind, Partial<MonitorFields>, 'open' | 'resolve' | null]> = [
    ['first ping: new → up', { state: 'new', periodStartAt: null, lastPingAt: null }, 'success', { state: 'up', lastPingAt: iso(30), periodStartAt: iso(30) }, null],
    ['ping while late: up, no alert', { state: 'late' }, 'success', { state: 'up', periodStartAt: iso(30) }, null],
    ['ping while down: up, its alert resolved', { state: 'down', alertWanted: true }, 'success', { state: 'up', alertWanted: false }, 'resolve'],
    ['ping ends a started run', { runStartedAt: iso(20) }, 'success', { state: 'up', runStartedAt: null }, null],
    ['ping while paused: recorded, still paused', { state: 'paused' }, 'success', { state: 'paused', lastPingAt: iso(30) }, null],
    ['ping while paused after going down: still paused, the alert resolved', { state: 'paused', alertWanted: true }, 'success', { state: 'paused', alertWanted: false }, 'resolve'],
    ['start: a run, the state unchanged', {}, 'start', { state: 'up', runStartedAt: iso(30), lastPingAt: iso(0) }, null],
    ['start while down: nothing to wait for', { state: 'down', alertWanted: true }, 'start', { state: 'down', runStartedAt: null }, null],
    ['fail: down at once, an alert', {}, 'fail', { state: 'down', lastFailAt: iso(30), alertWanted: true }, 'open'],
    ['fail ends a started run', { runStartedAt: iso(20) }, 'fail', { state: 'down', runStartedAt: null }, 'open'],
    ['fail while new: down', { state: 'new', periodStartAt: null, lastPingAt: null }, 'fail', { state: 'down', alertWanted: true }, 'open'],
    ['fail while down: no second alert', { state: 'down', alertWanted: true }, 'fail', { state: 'down', lastFailAt: iso(30) }, null],
    ['fail while paused: recorded, no alert', { state: 'paused' }, 'fail', { state: 'paused', lastFailAt: iso(30), alertWanted: false }, null],
  ];
  it.each(cases)('%s', (_name, over, kind, expected, alert) => {
    const t = applyPing(monitor(over), kind, min(30));
    expect(t.next).toMatchObject(expected);
    expect(t.alert).toBe(alert);
  });
});

describe('time passing (the sweep)', () => {
  const cases: Array<[string, Partial<MonitorFields>, number, string, 'open' | null]> = [
    ['up past its interval: late, no alert', {}, 61, 'late', null],
    ['late past its grace: down, an alert', { state: 'late' }, 71, 'down', 'open'],
    ['a started run past its grace: down, an alert', { runStartedAt: iso(20) }, 31, 'down', 'open'],
    ['up in time: unchanged', {}, 30, 'up', null],
    ['paused a year: unchanged', { state: 'paused' }, 525_600, 'paused', null],
  ];
  it.each(cases)('%s', (_name, over, at, state, alert) => {
    const t = applyTime(monitor(over), min(at));
    expect(t.next.state).toBe(state);
    expect(t.alert).toBe(alert);
  });

  it('going down forgets a started run and wants the alert', () => {
    expect(applyTime(monitor({ runStartedAt: iso(20) }), min(31)).next).toMatchObject({ runStartedAt: null, alertWanted: true });
  });
});

describe('pause, resume, new schedule', () => {
  it('pause stops every deadline; resume starts a new period (or waits for the first ping)', () => {
    const paused = pause(monitor({ runStartedAt: iso(5) }));
    expect(paused).toMatchObject({ state: 'paused', runStartedAt: null });
    expect(nextCheckAt(paused)).toBeNull();
    const resumed = resume(paused, min(1000));
    expect(resumed).toMatchObject({ state: 'up', periodStartAt: iso(1000) });
    expect(nextCheckAt(resumed)?.toISOString()).toBe(iso(1060));
    expect(resume(pause(monitor({ state: 'new', lastPingAt: null, periodStartAt: null })), min(1000)).state).toBe('new');
    expect(resume(monitor(), min(1000))).toEqual(monitor());
  });

  it('a longer interval makes a late monitor up again; a shorter one is left to the sweep', () => {
    expect(reschedule(monitor({ state: 'late' }), 120, 10, min(65)).state).toBe('up');
    expect(reschedule(monitor({ state: 'late' }), 60, 30, min(65)).state).toBe('late');
    const shorter = reschedule(monitor(), 15, 5, min(30));
    expect(shorter.state).toBe('up');
    expect(stateAt(shorter, min(30))).toBe('down');
  });
});
