import type { HeartbeatState } from '../../../contract/heartbeats.ts';

/**
 * How a heartbeat monitor moves between its states: pure, on times given (healthchecks.io's semantics).
 * - A success ping makes it up and starts a new period: the next ping is due an interval later (then it is late),
 *   and a grace time after that it is down.
 * - /start announces a run: it must end (with a success or a failure ping) within the grace time, else it is down
 *   then, whatever the period says. The state does not change on a start.
 * - /fail makes it down at once.
 * - new waits for the first ping and never goes down by itself (unless a run was started); paused never goes down,
 *   and while paused a ping is recorded but changes no state. Resume: new if it was never pinged, else up with a
 *   period starting at the resume (a monitor paused for a week is not down the moment it is resumed).
 * - Down is the one state with an alert: entering it wants an alert open, a success ping wants it resolved.
 */

const MINUTE = 60_000;

export interface MonitorTimes {
  state: HeartbeatState;
  intervalMinutes: number;
  graceMinutes: number;
  /** Start of the current period: the last success ping, or the resume. */
  periodStartAt: string | null;
  /** A run announced with /start and not finished yet. */
  runStartedAt: string | null;
}

export interface Deadlines {
  /** When it turns late without a ping (null when nothing makes it late). */
  lateAt: Date | null;
  /** When it turns down without a ping. */
  downAt: Date | null;
}

const at = (iso: string | null) => (iso ? new Date(iso) : null);
const plus = (d: Date, minutes: number) => new Date(d.getTime() + minutes * MINUTE);
const earlier = (a: Date | null, b: Date | null) => (a && b ? (a <= b ? a : b) : (a ?? b));

export function deadlines(m: MonitorTimes): Deadlines {
  if (m.state === 'paused' || m.state === 'down') return { lateAt: null, downAt: null };
  const period = m.state === 'up' || m.state === 'late' ? at(m.periodStartAt) : null;
  const lateAt = period ? plus(period, m.intervalMinutes) : null;
  const periodDown = lateAt ? plus(lateAt, m.graceMinutes) : null;
  const started = at(m.runStartedAt);
  const runDown = started ? plus(started, m.graceMinutes) : null;
  return { lateAt, downAt: earlier(periodDown, runDown) };
}

/** The state a monitor is in at `now` if no ping came (what the sweep moves it to). */
export function stateAt(m: MonitorTimes, now: Date): HeartbeatState {
  const { lateAt, downAt } = deadlines(m);
  if (downAt && now >= downAt) return 'down';
  if (lateAt && now >= lateAt) return 'late';
  return m.state;
}

/** When the sweep must look at the monitor next: its next deadline that changes the state; null with none. */
export function nextCheckAt(m: MonitorTimes): Date | null {
  const { lateAt, downAt } = deadlines(m);
  const late = m.state === 'late' ? null : lateAt;
  return earlier(late, downAt);
}

export type PingKind = 'success' | 'start' | 'fail';

/** A monitor's stored fields that pings and the sweep change. */
export interface MonitorFields extends MonitorTimes {
  lastPingAt: string | null;
  lastFailAt: string | null;
  /** An alert is wanted open (it went down) and not resolved by a ping since. */
  alertWanted: boolean;
}

/**
 * What happens to the alert: `open` (trigger), `resolve`, or nothing. Only a change of what is wanted acts: a second
 * /fail while down opens nothing more.
 */
export type AlertEffect = 'open' | 'resolve' | null;

export interface Transition {
  next: MonitorFields;
  alert: AlertEffect;
}

/** A ping at `now`. */
export function applyPing(m: MonitorFields, kind: PingKind, now: Date): Transition {
  const t = now.toISOString();
  if (kind === 'start') return { next: { ...m, runStartedAt: m.state === 'down' || m.state === 'paused' ? m.runStartedAt : t }, alert: null };
  if (kind === 'fail') {
    if (m.state === 'paused') return { next: { ...m, lastFailAt: t, runStartedAt: null }, alert: null };
    return { next: { ...m, state: 'down', lastFailAt: t, runStartedAt: null, alertWanted: true }, alert: m.alertWanted ? null : 'open' };
  }
  const resolve = m.alertWanted ? ('resolve' as const) : null;
  const state: HeartbeatState = m.state === 'paused' ? 'paused' : 'up';
  return { next: { ...m, state, lastPingAt: t, periodStartAt: t, runStartedAt: null, alertWanted: false }, alert: resolve };
}

/** The sweep at `now`: the state the monitor has reached without a ping, and the alert that opens on going down. */
export function applyTime(m: MonitorFields, now: Date): Transition {
  const state = stateAt(m, now);
  if (state === m.state) return { next: m, alert: null };
  if (state === 'down') return { next: { ...m, state, runStartedAt: null, alertWanted: true }, alert: m.alertWanted ? null : 'open' };
  return { next: { ...m, state }, alert: null };
}

/**
 * New interval and grace at `now`: the deadlines move with them, and a late monitor whose new interval has not run out
 * is up again (one past its new deadlines is moved on by the sweep).
 */
export function reschedule(m: MonitorFields, intervalMinutes: number, graceMinutes: number, now: Date): MonitorFields {
  const next = { ...m, intervalMinutes, graceMinutes };
  if (next.state !== 'late') return next;
  const { lateAt } = deadlines(next);
  return lateAt && now < lateAt ? { ...next, state: 'up' } : next;
}

export function pause(m: MonitorFields): MonitorFields {
  return { ...m, state: 'paused', runStartedAt: null };
}

/** Resume at `now`: new if never pinged, else up with a period from now. An alert still wanted stays so. */
export function resume(m: MonitorFields, now: Date): MonitorFields {
  if (m.state !== 'paused') return m;
  return m.lastPingAt ? { ...m, state: 'up', periodStartAt: now.toISOString(), runStartedAt: null } : { ...m, state: 'new', runStartedAt: null };
}
