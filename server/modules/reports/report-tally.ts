// A report's figures worked out in one pass over the scope's alerts, read once (reports.repository `scopeFacts`),
// instead of one SQL aggregate per figure, each walking the same alerts again. For a client's report (issue 31's
// speed goal: one client's 90 days ≤ 50 ms): its alerts are a few thousand at most, and the row look-ups behind the
// index, not the arithmetic, were the time. Every figure is the SQL path's to the millisecond: times are parsed from
// the same stored texts, sums are kept in whole milliseconds, text ties are ordered by code unit as SQLite's BINARY
// and PostgreSQL's C collation order them. Pure: reports.test.ts holds both paths to the same hand-computed values.
import type { AlertPriority } from '../../../contract/alerts.ts';
import type { GroupRow, QuarterHourCount, TargetPair } from './report-figures.ts';

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

/** Everything a summary needs from its alerts, whichever way it was summed. */
export interface Tally {
  groups: GroupRow[];
  /** The nearest-rank 90th percentile of acknowledgement (resolution) seconds, unrounded; null without any. */
  p90Tta: number | null;
  p90Ttr: number | null;
  quarterHours: QuarterHourCount[];
  sources: Array<{ source: string; occurrences: number; alerts: number }>;
  issues: Array<{ title: string; alerts: number; occurrences: number }>;
  responders: { acks: Array<{ userId: string | null; n: number }>; resolutions: Array<{ userId: string | null; n: number }> };
  maintenance: number;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function bump<K>(map: Map<K, number>, key: K, by = 1) {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** The value at the nearest-rank position of `p` (the SQL path's `order by … offset`), in seconds. */
function percentile(ms: number[], rank: (n: number) => number | null) {
  const at = rank(ms.length);
  if (at === null) return null;
  ms.sort((a, b) => a - b);
  return ms[at] / 1000;
}

/**
 * The figures of `facts` (the scope's alerts): groups per (client, priority) with the acknowledgement targets of
 * `pairs` as they stand at `now` (an unacknowledged alert whose target has not passed is neither in nor out), the
 * 90th percentiles, quarter-hour counts, top sources and issues (`limits`), responders and maintenance holds.
 */
export function tallyFacts(
  facts: readonly AlertFacts[],
  pairs: readonly TargetPair[],
  now: Date,
  limits: { sources: number; issues: number },
  rank: (n: number) => number | null,
): Tally {
  const targets = new Map<string, { seconds: number; passedBefore: string }>();
  for (const p of pairs) targets.set(`${p.policyId}\u0000${p.priority}`, { seconds: p.seconds, passedBefore: new Date(now.getTime() - p.seconds * 1000).toISOString() });
  const groups = new Map<string, GroupRow & { ttaMs: number; ttrMs: number }>();
  const ttaMs: number[] = [];
  const ttrMs: number[] = [];
  const quarters = new Map<string, number>();
  const sources = new Map<string, { occurrences: number; alerts: number }>();
  const titles = new Map<string, { occurrences: number; alerts: number }>();
  const acks = new Map<string | null, number>();
  const resolutions = new Map<string | null, number>();
  let maintenance = 0;
  for (const f of facts) {
    const key = `${f.client_id ?? ''}\u0000${f.priority}`;
    let g = groups.get(key);
    if (!g) {
      g = { clientId: f.client_id, priority: f.priority, opened: 0, acknowledged: 0, ttaSum: 0, resolved: 0, ttrSum: 0, eligible: 0, within: 0, targetMin: null, targetMax: null, ttaMs: 0, ttrMs: 0 };
      groups.set(key, g);
    }
    const created = Date.parse(f.created_at);
    const tta = f.acknowledged_at === null ? null : Date.parse(f.acknowledged_at) - created;
    g.opened++;
    if (tta !== null) {
      g.acknowledged++;
      g.ttaMs += tta;
      ttaMs.push(tta);
      bump(acks, f.acknowledged_by);
    }
    if (f.resolved_at !== null) {
      const ttr = Date.parse(f.resolved_at) - created;
      g.resolved++;
      g.ttrMs += ttr;
      ttrMs.push(ttr);
      bump(resolutions, f.resolved_by);
    }
    const target = f.escalation_policy_id == null ? undefined : targets.get(`${f.escalation_policy_id}\u0000${f.priority}`);
    if (target) {
      if (tta !== null || f.created_at <= target.passedBefore) g.eligible++;
      if (tta !== null && tta <= target.seconds * 1000) g.within++;
      g.targetMin = g.targetMin === null ? target.seconds : Math.min(g.targetMin, target.seconds);
      g.targetMax = g.targetMax === null ? target.seconds : Math.max(g.targetMax, target.seconds);
    }
    bump(quarters, `${f.created_at.slice(0, 13)}\u0000${Math.floor(Number(f.created_at.slice(14, 16)) / 15)}`);
    const s = sources.get(f.source) ?? { occurrences: 0, alerts: 0 };
    s.occurrences += Number(f.occurrences);
    s.alerts++;
    sources.set(f.source, s);
    const t = titles.get(f.title) ?? { occurrences: 0, alerts: 0 };
    t.occurrences += Number(f.occurrences);
    t.alerts++;
    titles.set(f.title, t);
    if (f.maintenance_window_id != null) maintenance++;
  }
  return {
    groups: [...groups.values()].map(({ ttaMs: a, ttrMs: r, ...row }) => ({ ...row, ttaSum: a / 1000, ttrSum: r / 1000 })),
    p90Tta: percentile(ttaMs, rank),
    p90Ttr: percentile(ttrMs, rank),
    quarterHours: [...quarters].map(([k, opened]) => {
      const [hour, quarter] = k.split('\u0000');
      return { hour, quarter: Number(quarter), opened };
    }),
    sources: [...sources]
      .map(([source, v]) => ({ source, occurrences: v.occurrences, alerts: v.alerts }))
      .sort((a, b) => b.occurrences - a.occurrences || byCodeUnit(a.source, b.source))
      .slice(0, limits.sources),
    issues: [...titles]
      .map(([title, v]) => ({ title, alerts: v.alerts, occurrences: v.occurrences }))
      .sort((a, b) => b.alerts - a.alerts || byCodeUnit(a.title, b.title))
      .slice(0, limits.issues),
    responders: { acks: [...acks].map(([userId, n]) => ({ userId, n })), resolutions: [...resolutions].map(([userId, n]) => ({ userId, n })) },
    maintenance,
  };
}
