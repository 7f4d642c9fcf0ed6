// The whole tenant's period, summed without reading every alert of it (issue 31: a 30-day summary over a million
// alerts in ≤ 150 ms). A settled alert (resolved or closed) never changes what a report reads of it: it cannot
// reopen (a trigger after resolution opens a new alert) and its acknowledgement is written once. So the alerts
// settled by a watermark W (some minutes behind the clock, so that no resolution still being committed is missed)
// are summed once per UTC hour of creation and stored (migration 0035); a report adds the stored sums of the whole
// hours of its period and, read live, what they leave out: the alerts still open, those settled after W, and the
// parts of the period outside whole hours. Live counts (an acknowledgement a second ago, occurrences still growing)
// therefore always show.
// - Built lazily, by the report that needs them: hours not covered yet are summed at the tenant's watermark, and a
//   watermark older than REFRESH_AFTER_MS moves to now − SETTLE_LAG_MS with a row per hour holding what settled in
//   between (read through alerts_history_idx). Rows are never changed, so two processes building at once are
//   resolved by a conditional write of the state (the loser re-reads it) and a process may keep the sum of its last
//   period in memory and slide it (subtract the hours left behind, add the new ones and the rows written since).
// - Targets: the rows decide "acknowledged within target" under the targets of their time; when a policy's targets
//   change the rows are thrown away and summed again (a new generation).
// - A client deleted since is mapped to "no client" by the service, as the alerts themselves now say.
import { randomUUID } from 'node:crypto';
import type { DB, Dialect } from '../../db/database.ts';
import type { TargetPair } from './report-figures.ts';
import { addFacts, decodeRollup, emptyRollup, encodeRollup, mergeInto, targetsKey, targetsOf, type AlertFacts, type Rollup, type Targets } from './report-tally.ts';
import * as repo from './reports.repository.ts';

const HOUR_MS = 3_600_000;
/** How far the watermark stays behind the clock: a resolution committed this much after its `resolved_at` is still summed. */
export const SETTLE_LAG_MS = 5 * 60_000;
/** How old the watermark may get before a report moves it (what settled since is read live meanwhile). */
export const REFRESH_AFTER_MS = 10 * 60_000;
/** A first build reads this many hours of alerts at a time (memory, not speed). */
const BUILD_CHUNK_HOURS = 24;

const iso = (ms: number) => new Date(ms).toISOString();

interface Cached {
  generation: string;
  settledTo: string;
  fromHour: string;
  toHour: string;
  sum: Rollup;
}
/** Per database and tenant: the sum of the stored rows of the last period asked for. */
const caches = new WeakMap<DB, Map<string, Cached>>();
const MAX_CACHED_TENANTS = 20;
const queues = new WeakMap<DB, Map<string, Promise<unknown>>>();

/** Forgets this process's cached sums (tests and the benchmark: a cold report). */
export function forgetCachedSums(db: DB) {
  caches.delete(db);
}

/** One report of a tenant at a time in this process: they share the cached sum. */
async function serially<T>(db: DB, tenantId: string, work: () => Promise<T>): Promise<T> {
  let perDb = queues.get(db);
  if (!perDb) queues.set(db, (perDb = new Map()));
  const before = perDb.get(tenantId) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  perDb.set(tenantId, settled);
  void settled.then(() => perDb.get(tenantId) === settled && perDb.delete(tenantId));
  return run;
}

/**
 * Reads the sum of the tenant's alerts opened in [from, to) at `now` through `read` (synchronously: the sum is
 * shared and changes after).
 */
export async function withPeriodSum<T>(deps: { db: DB; dialect: Dialect }, tenantId: string, from: string, to: string, pairs: readonly TargetPair[], now: Date, read: (sum: Rollup, targets: Targets) => T): Promise<T> {
  const targets = targetsOf(pairs);
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  const h0 = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  const h1 = Math.floor(toMs / HOUR_MS) * HOUR_MS;
  if (h1 <= h0) return read(addFacts(emptyRollup(), await repo.scopeFacts(deps.db, { tenantId, from, to, clientId: null }), targets, now.getTime()), targets);
  const edges: Array<[string, string]> = [];
  if (fromMs < h0) edges.push([from, iso(h0)]);
  if (h1 < toMs) edges.push([iso(h1), to]);
  return serially(deps.db, tenantId, async () => {
    let sum: Rollup;
    let facts: AlertFacts[];
    for (let attempt = 0; ; attempt++) {
      const state = await currentState(deps.db, tenantId, iso(h0), iso(h1), targetsKey(pairs), targets, now.getTime());
      [sum, facts] = await Promise.all([storedSum(deps.db, tenantId, state, iso(h0), iso(h1)), repo.unsettledFacts(deps.db, tenantId, iso(h0), iso(h1), state.settled_to, edges)]);
      // Another process summing the rows again meanwhile (new targets) may have taken away some of those just read.
      if ((await repo.rollupState(deps.db, tenantId))?.generation === state.generation) break;
      caches.get(deps.db)?.delete(tenantId);
      if (attempt === 2) throw new Error('report rollups: summed again while read');
    }
    const live = addFacts(emptyRollup(), facts, targets, now.getTime());
    mergeInto(sum, live, 1);
    try {
      return read(sum, targets);
    } finally {
      mergeInto(sum, live, -1);
    }
  });
}

/** The stored rows of the settled alerts created in [fromHour, toHour) at watermark `settledTo`, one per hour. */
async function buildRows(db: DB, tenantId: string, fromHour: string, toHour: string, settledTo: string, targets: Targets, now: number): Promise<repo.RollupRow[]> {
  const rows: repo.RollupRow[] = [];
  for (let at = Date.parse(fromHour); at < Date.parse(toHour); at += BUILD_CHUNK_HOURS * HOUR_MS) {
    const end = iso(Math.min(Date.parse(toHour), at + BUILD_CHUNK_HOURS * HOUR_MS));
    rows.push(...rowsOf(await repo.settledFacts(db, tenantId, iso(at), end, settledTo), settledTo, targets, now));
  }
  return rows;
}

function rowsOf(facts: readonly AlertFacts[], settledTo: string, targets: Targets, now: number): repo.RollupRow[] {
  const perHour = new Map<string, AlertFacts[]>();
  for (const f of facts) {
    const hour = `${f.created_at.slice(0, 13)}:00:00.000Z`;
    const list = perHour.get(hour);
    if (list) list.push(f);
    else perHour.set(hour, [f]);
  }
  return [...perHour].map(([hour, list]) => ({ hour, settled_to: settledTo, payload: encodeRollup(addFacts(emptyRollup(), list, targets, now)) }));
}

/**
 * The tenant's rollup state covering [fromHour, toHour) under `key` targets, built, extended or moved on as needed.
 * A process that loses a race to another re-reads what the other wrote.
 */
async function currentState(db: DB, tenantId: string, fromHour: string, toHour: string, key: string, targets: Targets, now: number): Promise<repo.RollupState> {
  for (let attempt = 0; ; attempt++) {
    const state = await repo.rollupState(db, tenantId);
    const watermark = iso(now - SETTLE_LAG_MS);
    if (!state || state.targets !== key) {
      const next = { generation: randomUUID(), targets: key, covered_from: fromHour, covered_to: toHour, settled_to: watermark };
      const rows = await buildRows(db, tenantId, fromHour, toHour, watermark, targets, now);
      if (await repo.writeRollups(db, tenantId, state, state !== undefined, next, rows)) return next;
    } else {
      const next = { ...state };
      const rows: repo.RollupRow[] = [];
      // New hours are summed at the current watermark, like the others.
      if (fromHour < state.covered_from) {
        rows.push(...(await buildRows(db, tenantId, fromHour, state.covered_from, state.settled_to, targets, now)));
        next.covered_from = fromHour;
      }
      if (toHour > state.covered_to) {
        rows.push(...(await buildRows(db, tenantId, state.covered_to, toHour, state.settled_to, targets, now)));
        next.covered_to = toHour;
      }
      if (now - SETTLE_LAG_MS - Date.parse(state.settled_to) > REFRESH_AFTER_MS) {
        const settled = await repo.factsSettledBetween(db, tenantId, next.covered_from, next.covered_to, state.settled_to, watermark);
        rows.push(...rowsOf(settled, watermark, targets, now));
        next.settled_to = watermark;
      }
      if (next.covered_from === state.covered_from && next.covered_to === state.covered_to && next.settled_to === state.settled_to) return state;
      if (await repo.writeRollups(db, tenantId, state, false, next, rows)) return next;
    }
    if (attempt === 3) throw new Error('report rollups: the state kept moving');
  }
}

/** The sum of the stored rows of [fromHour, toHour) at the state's watermark: the cached one moved along, or read whole. */
async function storedSum(db: DB, tenantId: string, state: repo.RollupState, fromHour: string, toHour: string): Promise<Rollup> {
  let perDb = caches.get(db);
  if (!perDb) caches.set(db, (perDb = new Map()));
  const c = perDb.get(tenantId);
  perDb.delete(tenantId);
  const add = async (sum: Rollup, a: string, b: string, after: string | null, upTo: string, sign: 1 | -1) => {
    if (a >= b) return;
    for (const row of await repo.rollupRows(db, tenantId, a, b, after, upTo)) mergeInto(sum, decodeRollup(row.payload), sign);
  };
  let next: Cached;
  if (!c || c.generation !== state.generation || c.settledTo > state.settled_to || toHour <= c.fromHour || fromHour >= c.toHour) {
    next = { generation: state.generation, settledTo: state.settled_to, fromHour, toHour, sum: emptyRollup() };
    await add(next.sum, fromHour, toHour, null, state.settled_to, 1);
  } else {
    // Slide: hours left behind out, new hours in (all at the cached watermark), then the rows written since.
    await add(c.sum, c.fromHour, fromHour, null, c.settledTo, -1);
    await add(c.sum, fromHour, c.fromHour, null, c.settledTo, 1);
    await add(c.sum, toHour, c.toHour, null, c.settledTo, -1);
    await add(c.sum, c.toHour, toHour, null, c.settledTo, 1);
    if (state.settled_to > c.settledTo) await add(c.sum, fromHour, toHour, c.settledTo, state.settled_to, 1);
    next = { generation: state.generation, settledTo: state.settled_to, fromHour, toHour, sum: c.sum };
  }
  // Kept only once whole (a failure above leaves no half-moved sum behind); most recently used last.
  perDb.set(tenantId, next);
  if (perDb.size > MAX_CACHED_TENANTS) perDb.delete(perDb.keys().next().value!);
  return next.sum;
}
