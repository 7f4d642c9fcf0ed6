import { HEARTBEAT_LIMITS, HEARTBEAT_MSG } from '../../../contract/heartbeats.ts';
import type { DB } from '../../db/database.ts';
import type { HeartbeatsTable } from '../../db/schema.ts';
import { AppError, notFound, tooMany } from '../../http/errors.ts';
import { WindowCounter } from '../../http/rate-limit.ts';
import type { Clock } from '../../jobs/job-worker.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { IngestService } from '../alerts/ingest/ingest.service.ts';
import { downEvent, heartbeatSource, resolveEvent } from './heartbeat-alert.ts';
import { applyPing, applyTime, nextCheckAt, type AlertEffect, type MonitorFields, type PingKind } from './heartbeat-state.ts';
import * as repo from './heartbeats.repository.ts';

/** Monitors looked at per query of the sweep. */
const BATCH = 200;
/**
 * How long an alert change may take to go through ingestion before the worker does it instead (its first try is made
 * right after the state change, by whoever made it); also the wait between the worker's tries.
 */
export const ALERT_SYNC_RETRY_MS = 60_000;
/** Tries of a ping whose conditional write lost to another write of the same monitor. */
const PING_TRIES = 5;

/** The secret of a ping URL as we hand it out (lib/tokens newToken: 32 bytes, base64url). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

export const fieldsOf = (row: HeartbeatsTable): MonitorFields => ({
  state: row.state,
  intervalMinutes: Number(row.interval_minutes),
  graceMinutes: Number(row.grace_minutes),
  periodStartAt: row.period_start_at,
  runStartedAt: row.run_started_at,
  lastPingAt: row.last_ping_at,
  lastFailAt: row.last_fail_at,
  alertWanted: Number(row.alert_wanted) === 1,
});

/**
 * The columns a change of state writes: the fields, the next check, and, when what is wanted of the alert changed,
 * a new alert change number with its deadline for the worker.
 */
export function stateColumns(row: HeartbeatsTable, next: MonitorFields, alert: AlertEffect, now: Date): repo.HeartbeatChange {
  return {
    state: next.state,
    period_start_at: next.periodStartAt,
    run_started_at: next.runStartedAt,
    last_ping_at: next.lastPingAt,
    last_fail_at: next.lastFailAt,
    next_check_at: nextCheckAt(next)?.toISOString() ?? null,
    alert_wanted: next.alertWanted ? 1 : 0,
    ...(alert ? { alert_seq: Number(row.alert_seq) + 1, alert_sync_due_at: new Date(now.getTime() + ALERT_SYNC_RETRY_MS).toISOString() } : {}),
  };
}

/** Whether the monitor's latest news is a failure report rather than silence. */
const failedLast = (row: HeartbeatsTable) => !!row.last_fail_at && (!row.last_ping_at || row.last_fail_at >= row.last_ping_at);

export interface HeartbeatMonitorDeps {
  db: DB;
  ingest: Pick<IngestService, 'process'>;
  clock: Clock;
  log: { warn(obj: object, msg: string): void };
}

/**
 * The running side of heartbeat monitors: pings (from the unauthenticated ping URLs) and the worker's sweep. Every
 * state change is one write conditional on the version read, so of two instances (or a ping and the sweep) acting on
 * the same monitor at once exactly one changes it; the other reads it again (a ping) or leaves it (the sweep). The
 * alert follows the state through ingestion (so it deduplicates, reaches the dashboard and escalates like any alert):
 * the writer of a change makes it right after its write, and the worker makes it if that did not go through.
 */
export function createHeartbeatMonitor(deps: HeartbeatMonitorDeps) {
  const { db, ingest, clock, log } = deps;
  const pings = new WindowCounter(HEARTBEAT_LIMITS.pingsPerMinute, 60_000);

  /**
   * Opens or resolves the monitor's alert as its row wants, then records that this change (its number) went through.
   * When another change came meanwhile the latest is applied too, even if its writer already did: that writer's
   * ingestion may have run before this one's (a resolve, then this stale trigger), and the last word must be the
   * row's. Throws when ingestion fails (the worker tries again later).
   */
  async function syncAlert(row: HeartbeatsTable, output: string | null = null): Promise<void> {
    let current = row;
    for (let attempt = 0; attempt < 3; attempt++) {
      const wanted = Number(current.alert_wanted) === 1;
      const event = wanted ? downEvent(current, failedLast(current) ? { output: attempt === 0 ? output : null } : null) : resolveEvent(current);
      const outcome = await ingest.process(heartbeatSource(current), event);
      if (await repo.markAlertSynced(db, current.tenant_id, current.id, Number(current.alert_seq), wanted ? outcome.alertId : null)) return;
      const fresh = await repo.findHeartbeat(db, current.tenant_id, current.id);
      if (!fresh) return;
      current = fresh;
    }
  }

  /** syncAlert for a change just written: a failure is left to the worker (the change itself is stored). */
  async function syncAfterWrite(row: HeartbeatsTable, output: string | null) {
    try {
      await syncAlert(row, output);
    } catch (err) {
      log.warn({ err, heartbeatId: row.id }, 'heartbeat alert change failed; the worker retries it');
    }
  }

  /**
   * A ping: GET, HEAD or POST on /api/heartbeat/<secret>[/start|/fail]. Unknown secret: 404; more than the limit a
   * minute: 429. `body` is what a /fail sent (the job's output), kept in the alert's description.
   */
  async function ping(token: string, kind: PingKind, body: string | null): Promise<void> {
    if (!TOKEN_SHAPE.test(token)) throw notFound(HEARTBEAT_MSG.unknownPingUrl);
    return pingHash(hashToken(token), kind, body);
  }

  /** A ping of the monitor whose secret has this hash (the ping URL's, or found by its mail address). */
  async function pingHash(hash: string, kind: PingKind, body: string | null): Promise<void> {
    // Counted before the look-up: a flood on one URL costs no query.
    const wait = pings.blockedFor(hash);
    if (wait > 0) throw tooMany(HEARTBEAT_MSG.rateLimited, wait);
    pings.hit(hash);
    let row = await repo.unsafeFindHeartbeatByTokenHash(db, hash);
    for (let attempt = 0; attempt < PING_TRIES; attempt++) {
      if (!row) throw notFound(HEARTBEAT_MSG.unknownPingUrl);
      const now = clock();
      const { next, alert } = applyPing(fieldsOf(row), kind, now);
      const set = stateColumns(row, next, alert, now);
      if (await repo.updateHeartbeatIf(db, row.tenant_id, row.id, { version: Number(row.version) }, set)) {
        if (alert) await syncAfterWrite({ ...row, ...set }, kind === 'fail' ? body : null);
        return;
      }
      row = await repo.unsafeFindHeartbeatByTokenHash(db, hash);
    }
    throw new AppError(409, 'conflict', 'The monitor changed while the ping was recorded. Please retry.');
  }

  /**
   * The worker's sweep: moves every monitor whose deadline has come (late, down; going down opens its alert), then
   * makes the alert changes that did not go through in time. Returns how many monitors it looked at (the worker calls
   * it again until none).
   */
  async function sweep(now: Date): Promise<number> {
    const at = now.toISOString();
    const due = await repo.unsafeDueHeartbeats(db, at, BATCH);
    const changed: HeartbeatsTable[] = [];
    for (const row of due) {
      const { next, alert } = applyTime(fieldsOf(row), now);
      const set = stateColumns(row, next, alert, now);
      // Nothing to change (a deadline moved meanwhile): look again later rather than at once, forever.
      if (next.state === row.state && (!set.next_check_at || set.next_check_at <= at)) set.next_check_at = new Date(now.getTime() + 60_000).toISOString();
      const won = await repo.updateHeartbeatIf(db, row.tenant_id, row.id, { version: Number(row.version), state: row.state, nextCheckAt: row.next_check_at }, set);
      if (won && alert) changed.push({ ...row, ...set });
    }
    for (const row of changed) await syncAfterWrite(row, null);

    const stale = await repo.unsafeUnsyncedHeartbeats(db, at, BATCH);
    const retryAt = new Date(now.getTime() + ALERT_SYNC_RETRY_MS).toISOString();
    for (const row of stale) {
      // Taken first (its next try put off), so two workers never make the same change twice.
      if (!(await repo.claimAlertSync(db, row.tenant_id, row.id, { alertSeq: Number(row.alert_seq), dueAt: row.alert_sync_due_at! }, retryAt))) continue;
      try {
        await syncAlert(row);
      } catch (err) {
        log.warn({ err, heartbeatId: row.id }, 'heartbeat alert change failed again; retrying later');
      }
    }
    return due.length + stale.length;
  }

  return { ping, pingHash, sweep, syncAlert };
}

export type HeartbeatMonitor = ReturnType<typeof createHeartbeatMonitor>;
