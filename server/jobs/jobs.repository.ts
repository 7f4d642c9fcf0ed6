import { sql } from 'kysely';
import type { DB, Dialect } from '../db/database.ts';
import type { JobsTable } from '../db/schema.ts';
import { timeOrderedUuid as timeOrderedId } from '../lib/ids.ts';
import { bulkInsert, chunks, type BulkInsert } from '../db/bulk-insert.ts';

/** A job to schedule: `uniqueKey` makes scheduling idempotent (a second enqueue with the same key does nothing). */
export interface NewJob {
  kind: string;
  uniqueKey: string;
  dueAt: Date;
  payload: Record<string, unknown>;
  tenantId?: string | null;
  alertId?: string | null;
  maxAttempts?: number;
  /**
   * Inserted already claimed by the given claim (see `insertJobs`): the worker that made it runs it right after the
   * transaction commits, without a claim of its own; if that worker dies, the lease runs out and any worker runs it.
   */
  runNow?: boolean;
}

/** A worker's claim: jobs inserted under it are leased to that worker until `leaseUntil`. */
export interface JobClaim {
  token: string;
  leaseUntil: Date;
}

/** Schedules jobs (on the pool or inside the caller's transaction), a multi-row insert per 500; returns how many were new. */
export async function enqueueJobs(db: DB, jobs: NewJob[], at: Date): Promise<number> {
  return (await insertJobs(db, jobs, at, null)).inserted;
}

/**
 * Schedules jobs as `enqueueJobs`; those marked `runNow` are inserted claimed by `claim` (its token, its lease, their
 * first attempt counted) and returned, when new (a job whose unique key exists already is someone else's): the caller
 * hands them to its worker once its transaction has committed.
 */
export async function insertJobs(db: DB, jobs: NewJob[], at: Date, claim: JobClaim | null): Promise<{ inserted: number; claimed: JobsTable[] }> {
  if (jobs.length === 0) return { inserted: 0, claimed: [] };
  const created = at.toISOString();
  const leaseUntil = claim?.leaseUntil.toISOString() ?? null;
  const rows: JobsTable[] = jobs.map((j) => {
    const mine = claim !== null && j.runNow === true;
    return {
      id: timeOrderedId(),
      tenant_id: j.tenantId ?? null,
      alert_id: j.alertId ?? null,
      kind: j.kind,
      unique_key: j.uniqueKey,
      payload: JSON.stringify(j.payload),
      due_at: j.dueAt.toISOString(),
      attempts: mine ? 1 : 0,
      max_attempts: j.maxAttempts ?? 3,
      lock_token: mine ? claim.token : null,
      locked_until: mine ? leaseUntil : null,
      created_at: created,
    };
  });
  if (!rows.some((r) => r.lock_token !== null)) return { inserted: (await bulkInsert(db, JOB_INSERT, rows)).written, claimed: [] };
  const ids = new Set((await bulkInsert(db, { ...JOB_INSERT, tail: `${JOB_INSERT.tail} returning id` }, rows)).rows.map((r) => r.id as string));
  return { inserted: ids.size, claimed: rows.filter((r) => r.lock_token !== null && ids.has(r.id)) };
}

const JOB_INSERT: BulkInsert<JobsTable> & { tail: string } = {
  table: 'jobs',
  columns: [
    ['id', 'text'],
    ['tenant_id', 'text'],
    ['alert_id', 'text'],
    ['kind', 'text'],
    ['unique_key', 'text'],
    ['payload', 'text'],
    ['due_at', 'text'],
    ['attempts', 'int'],
    ['max_attempts', 'int'],
    ['lock_token', 'text'],
    ['locked_until', 'text'],
    ['created_at', 'text'],
  ],
  tail: 'on conflict ("unique_key") do nothing',
};

/**
 * Claims up to `limit` due jobs for one worker: each gets this claim's token and a lease until `leaseUntil`, and its
 * attempt count goes up. PostgreSQL skips rows another worker is claiming (FOR UPDATE SKIP LOCKED); SQLite runs one
 * write at a time, so the single UPDATE is the claim. A job whose lease ran out (its worker died) is claimable again.
 */
export async function unsafeClaimDueJobs(db: DB, dialect: Dialect, input: { now: Date; leaseUntil: Date; token: string; limit: number }) {
  const now = input.now.toISOString();
  const due = db
    .selectFrom('jobs')
    .select('id')
    .where('due_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('due_at')
    .limit(input.limit)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
  return db
    .updateTable('jobs')
    .set({ lock_token: input.token, locked_until: input.leaseUntil.toISOString(), attempts: sql<number>`attempts + 1` })
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

/** Removes finished jobs (one statement per 500), only those this claim still holds. */
export async function unsafeCompleteJobs(db: DB, ids: string[], token: string) {
  for (const part of chunks(ids)) await db.deleteFrom('jobs').where('lock_token', '=', token).where('id', 'in', part).execute();
}

/** Puts failed jobs back for a later try (releases the lease), only those this claim still holds. */
export async function unsafeRetryJobsAt(db: DB, ids: string[], token: string, dueAt: Date) {
  for (const part of chunks(ids))
    await db.updateTable('jobs').set({ due_at: dueAt.toISOString(), lock_token: null, locked_until: null }).where('lock_token', '=', token).where('id', 'in', part).execute();
}

/** When the next job falls due (ignoring leased ones), or null with none. */
export async function unsafeNextDueAt(db: DB): Promise<Date | null> {
  const row = await db.selectFrom('jobs').select((eb) => eb.fn.min('due_at').as('due')).executeTakeFirst();
  return row?.due ? new Date(String(row.due)) : null;
}

/**
 * Cancels every job of an alert (inside the transaction that acknowledges, resolves or closes it, whose status update
 * also clears the alert's next escalation level and overdue check: alerts.repository ESCALATION_ENDS).
 */
export async function cancelAlertJobs(db: DB, tenantId: string, alertId: string) {
  await db.deleteFrom('jobs').where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).execute();
}

/** Jobs of an alert still to run (tests and the alert modal). */
export async function listAlertJobs(db: DB, tenantId: string, alertId: string) {
  return db.selectFrom('jobs').selectAll().where('tenant_id', '=', tenantId).where('alert_id', '=', alertId).orderBy('due_at').execute();
}
