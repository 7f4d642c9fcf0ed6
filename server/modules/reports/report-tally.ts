// A report's figures as one additive sum (a Rollup) of its alerts, and the figures read off that sum. Every report,
// a client's or the whole tenant's, goes through here: a client's alerts are read once and added (`tallyFacts`); the
// whole tenant's period is stored rollups of settled alerts (report-rollups.ts) plus its few unsettled alerts added
// live. The sum keeps exactly what the figures need, so the figures are exact: acknowledgement and resolution times
// in whole milliseconds per group, and as counts per rounded second for the 90th percentile (the report shows whole
// seconds, and rounding keeps the order, so the rounded value at the nearest rank is the rank's rounded value);
// sources and titles with their counts; quarter-hour counts. Being a sum, two Rollups add and subtract (a sliding
// period), entries falling to zero are dropped. Text ties are ordered by code unit, as SQLite's BINARY and
// PostgreSQL's C collation order them. Pure: report-tally.test.ts and reports.test.ts pin it.
import type { AlertPriority } from '../../../contract/alerts.ts';
import { nearestRankOffset, type GroupRow, type QuarterHourCount, type TargetPair } from './report-figures.ts';

/** The columns of one alert a report reads. */
export interface AlertFacts {
  client_id: string | null;
  priority: AlertPriority;
  escalation_policy_id?: string | null;
  created_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  source: string;
  title: string;
  occurrences: number;
  maintenance_window_id?: string | null;
}

/** Everything a summary needs from its alerts. */
export interface Tally {
  groups: GroupRow[];
  /** The nearest-rank 90th percentile of acknowledgement (resolution) times, in whole seconds; null without any. */
  p90Tta: number | null;
  p90Ttr: number | null;
  quarterHours: QuarterHourCount[];
  sources: Array<{ source: string; occurrences: number; alerts: number }>;
  issues: Array<{ title: string; alerts: number; occurrences: number }>;
  responders: { acks: Array<{ userId: string | null; n: number }>; resolutions: Array<{ userId: string | null; n: number }> };
  maintenance: number;
}

// Group fields, in this order: opened, acknowledged, ttaMs, resolved, ttrMs, eligible, within.
const OPENED = 0;
const ACKED = 1;
const TTA = 2;
const RESOLVED = 3;
const TTR = 4;
const ELIGIBLE = 5;
const WITHIN = 6;

/** The additive sum of a set of alerts. Absent ids (no client, no policy, a monitoring tool) are ''. */
export interface Rollup {
  /** Per `client \0 priority \0 policy`: the seven group fields above. */
  groups: Map<string, number[]>;
  /** Unacknowledged alerts whose target had not passed when they were added: group key → the moments it passes. */
  pending: Map<string, number[]>;
  /** Acknowledgement (resolution) times rounded to the second → how many. */
  tta: Map<number, number>;
  ttr: Map<number, number>;
  /** `YYYY-MM-DDTHH \0 quarter` (UTC) → opened. */
  quarters: Map<string, number>;
  /** Source → [occurrences, alerts]; title → [alerts, occurrences]. */
  sources: Map<string, number[]>;
  titles: Map<string, number[]>;
  /** User id ('' the monitoring tool) → acknowledgements (resolutions). */
  acks: Map<string, number>;
  resolutions: Map<string, number>;
  maintenance: number;
}

export function emptyRollup(): Rollup {
  return { groups: new Map(), pending: new Map(), tta: new Map(), ttr: new Map(), quarters: new Map(), sources: new Map(), titles: new Map(), acks: new Map(), resolutions: new Map(), maintenance: 0 };
}

/** Targets by `policy \0 priority`, in seconds. */
export type Targets = ReadonlyMap<string, number>;
export const targetsOf = (pairs: readonly TargetPair[]): Targets => new Map(pairs.map((p) => [`${p.policyId}\u0000${p.priority}`, p.seconds]));
/** The targets as a stable text: stored rollups were summed under these and are rebuilt when they change. */
export const targetsKey = (pairs: readonly TargetPair[]) => JSON.stringify(pairs.map((p) => [p.policyId, p.priority, p.seconds]).sort());

function bump<K>(map: Map<K, number>, key: K, by: number) {
  const v = (map.get(key) ?? 0) + by;
  if (v === 0) map.delete(key);
  else map.set(key, v);
}

function bumpAll<K>(map: Map<K, number[]>, key: K, by: readonly number[], sign: number) {
  let v = map.get(key);
  if (!v) map.set(key, (v = by.map(() => 0)));
  let zero = true;
  for (let i = 0; i < by.length; i++) if ((v[i] += sign * by[i]) !== 0) zero = false;
  if (zero) map.delete(key);
}

/**
 * Adds alerts to `r`. An alert with an acknowledgement target (its policy's, for its priority, in `targets`) is
 * decided when acknowledged (within or not), or when unacknowledged and its target passed by `decidedAt` (ms); one
 * whose target is still to come waits in `pending` for the moment the figures are read.
 */
export function addFacts(r: Rollup, facts: Iterable<AlertFacts>, targets: Targets, decidedAt: number) {
  for (const f of facts) {
    const key = `${f.client_id ?? ''}\u0000${f.priority}\u0000${f.escalation_policy_id ?? ''}`;
    let g = r.groups.get(key);
    if (!g) r.groups.set(key, (g = [0, 0, 0, 0, 0, 0, 0]));
    const created = Date.parse(f.created_at);
    const tta = f.acknowledged_at === null ? null : Date.parse(f.acknowledged_at) - created;
    g[OPENED]++;
    if (tta !== null) {
      g[ACKED]++;
      g[TTA] += tta;
      bump(r.tta, Math.round(tta / 1000), 1);
      bump(r.acks, f.acknowledged_by ?? '', 1);
    }
    if (f.resolved_at !== null) {
      const ttr = Date.parse(f.resolved_at) - created;
      g[RESOLVED]++;
      g[TTR] += ttr;
      bump(r.ttr, Math.round(ttr / 1000), 1);
      bump(r.resolutions, f.resolved_by ?? '', 1);
    }
    const target = f.escalation_policy_id == null ? undefined : targets.get(`${f.escalation_policy_id}\u0000${f.priority}`);
    if (target !== undefined) {
      if (tta !== null) {
        g[ELIGIBLE]++;
        if (tta <= target * 1000) g[WITHIN]++;
      } else if (created + target * 1000 <= decidedAt) g[ELIGIBLE]++;
      else {
        const list = r.pending.get(key);
        if (list) list.push(created + target * 1000);
        else r.pending.set(key, [created + target * 1000]);
      }
    }
    bump(r.quarters, `${f.created_at.slice(0, 13)}\u0000${Math.floor(Number(f.created_at.slice(14, 16)) / 15)}`, 1);
    const occurrences = Number(f.occurrences);
    bumpAll(r.sources, f.source, [occurrences, 1], 1);
    bumpAll(r.titles, f.title, [1, occurrences], 1);
    if (f.maintenance_window_id != null) r.maintenance++;
  }
  return r;
}

/** `into` += sign · `from` (sign −1: takes out what `from` once added). */
export function mergeInto(into: Rollup, from: Rollup, sign: 1 | -1) {
  for (const [k, v] of from.groups) bumpAll(into.groups, k, v, sign);
  for (const [k, list] of from.pending) {
    const mine = into.pending.get(k) ?? [];
    if (sign === 1) mine.push(...list);
    else
      for (const d of list) {
        const i = mine.indexOf(d);
        if (i >= 0) mine.splice(i, 1);
      }
    if (mine.length) into.pending.set(k, mine);
    else into.pending.delete(k);
  }
  for (const [k, n] of from.tta) bump(into.tta, k, sign * n);
  for (const [k, n] of from.ttr) bump(into.ttr, k, sign * n);
  for (const [k, n] of from.quarters) bump(into.quarters, k, sign * n);
  for (const [k, v] of from.sources) bumpAll(into.sources, k, v, sign);
  for (const [k, v] of from.titles) bumpAll(into.titles, k, v, sign);
  for (const [k, n] of from.acks) bump(into.acks, k, sign * n);
  for (const [k, n] of from.resolutions) bump(into.resolutions, k, sign * n);
  into.maintenance += sign * from.maintenance;
  return into;
}

/** A Rollup as stored text (JSON of its entries) and back. */
export function encodeRollup(r: Rollup): string {
  const e = (m: Map<unknown, unknown>) => [...m];
  return JSON.stringify({ g: e(r.groups), p: e(r.pending), a: e(r.tta), r: e(r.ttr), q: e(r.quarters), s: e(r.sources), t: e(r.titles), k: e(r.acks), v: e(r.resolutions), m: r.maintenance });
}

export function decodeRollup(text: string): Rollup {
  const o = JSON.parse(text);
  return { groups: new Map(o.g), pending: new Map(o.p), tta: new Map(o.a), ttr: new Map(o.r), quarters: new Map(o.q), sources: new Map(o.s), titles: new Map(o.t), acks: new Map(o.k), resolutions: new Map(o.v), maintenance: o.m };
}

/** The value at the nearest-rank 90th percentile of a counted set. */
function p90(counts: ReadonlyMap<number, number>) {
  let n = 0;
  for (const c of counts.values()) n += c;
  const at = nearestRankOffset(n, 0.9);
  if (at === null) return null;
  const values = [...counts.keys()].sort((a, b) => a - b);
  let seen = 0;
  for (const v of values) {
    seen += counts.get(v)!;
    if (seen > at) return v;
  }
  return null;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The first `limit` of `entries` in `order`, without sorting them all (a period may hold tens of thousands). */
function top<T>(entries: Iterable<T>, limit: number, order: (a: T, b: T) => number): T[] {
  const best: T[] = [];
  if (limit <= 0) return best;
  for (const e of entries) {
    if (best.length === limit && order(e, best[limit - 1]) >= 0) continue;
    let i = best.length;
    while (i > 0 && order(e, best[i - 1]) < 0) i--;
    best.splice(i, 0, e);
    if (best.length > limit) best.pop();
  }
  return best;
}

/**
 * The figures of `r` at `now`: groups per (client, priority) with the range of targets that applied (its pending
 * targets decided at `now`), percentiles, quarter hours, the top `limits` sources and issues, responders.
 * `clientExists` maps the id of a client deleted since the alerts were summed to no client, as the alerts now say.
 */
export function tallyOf(r: Rollup, targets: Targets, now: number, limits: { sources: number; issues: number }, clientExists: (id: string) => boolean = () => true): Tally {
  const groups = new Map<string, GroupRow>();
  for (const [key, g] of r.groups) {
    const [client, priority, policy] = key.split('\u0000');
    const clientId = client === '' || !clientExists(client) ? null : client;
    const gk = `${clientId ?? ''}\u0000${priority}`;
    let row = groups.get(gk);
    if (!row) {
      row = { clientId, priority: priority as AlertPriority, opened: 0, acknowledged: 0, ttaSum: 0, resolved: 0, ttrSum: 0, eligible: 0, within: 0, targetMin: null, targetMax: null };
      groups.set(gk, row);
    }
    row.opened += g[OPENED];
    row.acknowledged += g[ACKED];
    row.ttaSum += g[TTA];
    row.resolved += g[RESOLVED];
    row.ttrSum += g[TTR];
    row.eligible += g[ELIGIBLE];
    row.within += g[WITHIN];
    for (const deadline of r.pending.get(key) ?? []) if (deadline <= now) row.eligible++;
    const target = policy === '' ? undefined : targets.get(`${policy}\u0000${priority}`);
    if (target !== undefined) {
      row.targetMin = row.targetMin === null ? target : Math.min(row.targetMin, target);
      row.targetMax = row.targetMax === null ? target : Math.max(row.targetMax, target);
    }
  }
  const userId = (id: string) => (id === '' ? null : id);
  return {
    // Sums were kept in whole milliseconds: exact, whatever the order of adding.
    groups: [...groups.values()].map((g) => ({ ...g, ttaSum: g.ttaSum / 1000, ttrSum: g.ttrSum / 1000 })),
    p90Tta: p90(r.tta),
    p90Ttr: p90(r.ttr),
    quarterHours: [...r.quarters].map(([k, opened]) => ({ hour: k.slice(0, 13), quarter: Number(k.slice(14)), opened })),
    sources: top(r.sources, limits.sources, (a, b) => b[1][0] - a[1][0] || byCodeUnit(a[0], b[0])).map(([source, [occurrences, alerts]]) => ({ source, occurrences, alerts })),
    issues: top(r.titles, limits.issues, (a, b) => b[1][0] - a[1][0] || byCodeUnit(a[0], b[0])).map(([title, [alerts, occurrences]]) => ({ title, alerts, occurrences })),
    responders: { acks: [...r.acks].map(([id, n]) => ({ userId: userId(id), n })), resolutions: [...r.resolutions].map(([id, n]) => ({ userId: userId(id), n })) },
    maintenance: r.maintenance,
  };
}

/** The figures of a set of alerts read once (a client's report; the whole tenant's in tests). */
export function tallyFacts(facts: readonly AlertFacts[], pairs: readonly TargetPair[], now: Date, limits: { sources: number; issues: number }): Tally {
  const targets = targetsOf(pairs);
  return tallyOf(addFacts(emptyRollup(), facts, targets, now.getTime()), targets, now.getTime(), limits);
}
