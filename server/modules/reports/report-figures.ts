// The pure arithmetic of a report: group rows the database summed become figures; percentiles' ranks; the
// hour-of-week cells in a time zone. No I/O here: the table-driven tests of report-figures.test.ts pin each rule.
import { IANAZone } from 'luxon';
import { ALERT_PRIORITIES, type AlertPriority } from '../../../contract/alerts.ts';
import type { ResponseFigures } from '../../../contract/reports.ts';
import { noTarget, type EscalationTimes } from '../../../contract/escalation.ts';

/** What the database sums per (client, priority) group of the period's alerts. */
export interface GroupRow {
  clientId: string | null;
  priority: AlertPriority;
  opened: number;
  acknowledged: number;
  ttaSum: number;
  resolved: number;
  ttrSum: number;
  eligible: number;
  within: number;
  targetMin: number | null;
  targetMax: number | null;
}

/** An acknowledgement target: alerts of this policy and priority are to be acknowledged within `seconds`. */
export interface TargetPair {
  policyId: string;
  priority: AlertPriority;
  seconds: number;
}

/** Each priority of each policy that has a target (an empty or 0 time is "no target": those alerts are left out). */
export function targetPairs(policies: ReadonlyArray<{ id: string; escalationTimes: EscalationTimes }>): TargetPair[] {
  const out: TargetPair[] = [];
  for (const p of policies) {
    for (const priority of ALERT_PRIORITIES) {
      const minutes = p.escalationTimes[priority];
      if (!noTarget(minutes)) out.push({ policyId: p.id, priority, seconds: minutes! * 60 });
    }
  }
  return out;
}

/**
 * The 0-based position of the p-th percentile in n values sorted ascending, by nearest rank (the smallest value
 * with at least p of the values at or below it): ceil(p·n) − 1. Null without values.
 */
export function nearestRankOffset(n: number, p: number): number | null {
  if (n <= 0) return null;
  return Math.min(n - 1, Math.max(0, Math.ceil(p * n - 1e-9) - 1));
}

const mean = (sum: number, n: number) => (n > 0 ? Math.round(sum / n) : null);
const share = (within: number, eligible: number) => (eligible > 0 ? within / eligible : null);

/** The figures of a set of group rows taken together (all of them, one priority's, one client's). */
export function combine(rows: readonly GroupRow[]): ResponseFigures {
  let opened = 0;
  let acknowledged = 0;
  let ttaSum = 0;
  let resolved = 0;
  let ttrSum = 0;
  let eligible = 0;
  let within = 0;
  for (const r of rows) {
    opened += r.opened;
    acknowledged += r.acknowledged;
    ttaSum += r.ttaSum;
    resolved += r.resolved;
    ttrSum += r.ttrSum;
    eligible += r.eligible;
    within += r.within;
  }
  return {
    opened,
    acknowledged,
    neverAcknowledged: opened - acknowledged,
    resolved,
    mttaSeconds: mean(ttaSum, acknowledged),
    mttrSeconds: mean(ttrSum, resolved),
    targetEligible: eligible,
    withinTarget: within,
    ackWithinTargetShare: share(within, eligible),
  };
}

/** Figures per priority, every priority present (most urgent first), with the range of targets that applied. */
export function byPriority(rows: readonly GroupRow[]) {
  return ALERT_PRIORITIES.map((priority) => {
    const mine = rows.filter((r) => r.priority === priority);
    const mins = mine.map((r) => r.targetMin).filter((v): v is number => v !== null);
    const maxs = mine.map((r) => r.targetMax).filter((v): v is number => v !== null);
    const targetMinutes = mins.length ? { min: Math.min(...mins) / 60, max: Math.max(...maxs) / 60 } : null;
    return { priority, ...combine(mine), targetMinutes };
  });
}

/** Figures per client (null: alerts of no client), most alerts first, then by name, no client last. */
export function byClient(rows: readonly GroupRow[], names: ReadonlyMap<string, string>, noClientName: string | null = null) {
  const groups = new Map<string | null, GroupRow[]>();
  for (const r of rows) {
    const list = groups.get(r.clientId);
    if (list) list.push(r);
    else groups.set(r.clientId, [r]);
  }
  const out = [...groups].map(([clientId, list]) => ({ clientId, clientName: clientId === null ? noClientName : (names.get(clientId) ?? null), ...combine(list) }));
  // Alerts of no client come after the clients with as many.
  return out.sort(
    (a, b) =>
      b.opened - a.opened ||
      Number(a.clientId === null) - Number(b.clientId === null) ||
      (a.clientName ?? '').localeCompare(b.clientName ?? '') ||
      String(a.clientId).localeCompare(String(b.clientId)),
  );
}

const DAY_MS = 86_400_000;

/**
 * The zone's UTC offset in minutes at an instant, asked of the zone once per UTC day rather than once per quarter
 * hour (a quarter's worth of cells cost tens of milliseconds through Luxon, in a zone with summer time): a day whose
 * first and last millisecond have the same offset has it throughout (no zone changes twice in a day and back); a day
 * with a change asks for each instant.
 */
function offsets(zone: string) {
  const z = IANAZone.create(zone);
  const days = new Map<number, number | null>();
  return (ms: number) => {
    const day = Math.floor(ms / DAY_MS);
    let offset = days.get(day);
    if (offset === undefined) {
      const first = z.offset(day * DAY_MS);
      offset = first === z.offset((day + 1) * DAY_MS - 1) ? first : null;
      days.set(day, offset);
    }
    return offset ?? z.offset(ms);
  };
}

/** A count of alerts opened in one UTC quarter hour: `hour` is the stored time's first 13 characters (YYYY-MM-DDTHH). */
export interface QuarterHourCount {
  hour: string;
  quarter: number;
  opened: number;
}

/**
 * The 168 hour-of-week cells (ISO weekday 1 Monday … 7 Sunday, hour 0–23) in `zone`. Counts come per UTC quarter
 * hour: every zone's offset is a whole number of quarter hours, and offsets change on quarter-hour boundaries, so a
 * quarter hour lies within one local hour whatever the zone and the season (a whole UTC hour would not in
 * Asia/Kolkata or Asia/Kathmandu).
 */
export function hourOfWeek(counts: readonly QuarterHourCount[], zone: string) {
  const cells = new Array<number>(7 * 24).fill(0);
  const offsetAt = offsets(zone);
  for (const c of counts) {
    const ms = Date.parse(`${c.hour}:00:00.000Z`) + c.quarter * 15 * 60_000;
    const local = new Date(ms + offsetAt(ms) * 60_000);
    // ISO weekday (Monday 1 … Sunday 7) and hour of the local wall clock.
    const weekday = local.getUTCDay() || 7;
    cells[(weekday - 1) * 24 + local.getUTCHours()] += c.opened;
  }
  return cells.map((opened, i) => ({ day: Math.floor(i / 24) + 1, hour: i % 24, opened }));
}
