import { randomUUID } from 'node:crypto';
import { isDatabaseUnavailable, type DB, type Dialect } from '../db/database.ts';
import type { JobsTable } from '../db/schema.ts';
import { unsafeClaimDueJobs, unsafeCompleteJobs, unsafeNextDueAt, unsafeRetryJobsAt, type JobClaim } from './jobs.repository.ts';

/** The engine's time: the wall clock in production, a clock a test moves. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export interface JobContext {
  now: Date;
  /** True on the job's last allowed try: a handler records a permanent failure then, rather than throwing. */
  finalAttempt: boolean;
  payload: Record<string, unknown>;
  /** The claim this job runs under (absent when a handler is called outside a worker). */
  claim?: WorkerClaim;
}

/**
 * A pass's claim, handed to sweeps and handlers: jobs they insert under it (`insertJobs` with `runNow`) and hand back
 * with `adopt` once their transaction has committed run on this worker right after them, with no claim of their own
 * (a level's deliveries go out as soon as the level is written). Adopted jobs are leased like claimed ones: if this
 * worker dies first, another runs them when the lease ends (at most one repeat, never lost).
 */
export interface WorkerClaim extends JobClaim {
  adopt(jobs: JobsTable[]): void;
}

export type JobHandler = (job: JobsTable, ctx: JobContext) => Promise<void>;

/**
 * A batch handler's outcome for a job it finished and deleted itself, in the transaction that recorded its work (with
 * the claim's token: `unsafeCompleteJobs(trx, ids, ctx.claim.token)`): the worker has nothing left to do for it.
 */
export const DONE_AND_DELETED: unique symbol = Symbol('job done and deleted by its handler');

/**
 * Runs every claimed job of one kind at once (reads and writes for many rows in a few statements). Returns, for each
 * job in the order given, null when it is done (DONE_AND_DELETED when the handler deleted it itself) or the error it
 * failed with: a failed job is retried (or given up) alone, the others of the batch are done. A handler that throws is run again on each job alone (unless the database
 * is away: then the whole batch is retried later), so it must not have done anything a second run would repeat.
 */
export type BatchJobHandler = (jobs: Array<{ job: JobsTable; ctx: JobContext }>) => Promise<Array<unknown>>;

/** A batch handler run on one job at a time. */
export const singly =
  (batch: BatchJobHandler): JobHandler =>
  async (job, ctx) => {
    const [err] = await batch([{ job, ctx }]);
    if (err !== null && err !== undefined && err !== DONE_AND_DELETED) throw err;
  };

/**
 * Something a worker does on every pass before running due jobs (the escalation engine starts pending alerts, fires
 * levels and overdue checks that came due); returns how many items it took (the worker calls it again until 0).
 */
export type Sweep = (now: Date, claim?: WorkerClaim) => Promise<number>;

export interface JobWorkerOptions {
  db: DB;
  dialect: Dialect;
  clock?: Clock;
  handlers: Record<string, JobHandler>;
  /** Kinds run a batch at a time (they take precedence over `handlers` for the same kind). */
  batchHandlers?: Record<string, BatchJobHandler>;
  sweeps?: Sweep[];
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** The longest sleep between passes (a step added by another instance is seen within this). */
  pollMs?: number;
  /** How long a claimed job is this worker's; after that another worker may retry it. */
  leaseMs?: number;
  /** Jobs claimed at once (default 500). */
  batch?: number;
  /** Claim-and-run loops side by side in `runDue` (default 2 on PostgreSQL, 1 on SQLite, whose writes are serial). */
  lanes?: number;
  /** Backoff before try n+1: base × 4^(n-1), at most `retryMaxMs` (default 10 minutes). */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

/**
 * Runs durable jobs: every server instance has one. Each pass runs the sweeps, then claims due jobs in batches and
 * runs them (kinds with a batch handler all at once, the others concurrently); the batch's finished jobs are deleted
 * in one statement, failed ones retried with backoff up to their max attempts (each alone: the rest of its batch is
 * done). Between passes it sleeps until the next due time, at most `pollMs`; `wake()` starts a pass now.
 * Tests do not start it: they move the clock and call `runDue()`.
 */
export class JobWorker {
  private readonly clock: Clock;
  private timer: NodeJS.Timeout | null = null;
  /** When `timer` fires (wall clock, ms). */
  private timerDue = 0;
  private running: Promise<void> | null = null;
  private stopped = true;
  private again = false;
  /** A wake asked for during a pass: the next pass starts within this many ms of its end. */
  private soonMs: number | null = null;
  private failing = false;

  constructor(private readonly opts: JobWorkerOptions) {
    this.clock = opts.clock ?? systemClock;
  }

  /** True between `start()` and `stop()` (readiness: this instance runs its share of the jobs). */
  get isRunning(): boolean {
    return !this.stopped;
  }

  start() {
    this.stopped = false;
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Adds the handler of a kind of job (a module with timed work of its own registers it at start). */
  handle(kind: string, handler: JobHandler) {
    this.opts.handlers[kind] = handler;
  }

  /** Adds the batch handler of a kind of job. */
  handleBatch(kind: string, handler: BatchJobHandler) {
    (this.opts.batchHandlers ??= {})[kind] = handler;
  }

  /** Adds a sweep, run on every pass after those added before it. */
  addSweep(sweep: Sweep) {
    (this.opts.sweeps ??= []).push(sweep);
  }

  /** Starts a pass as soon as possible (new work was added). */
  wake() {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /**
   * Starts a pass within `ms` (one running is followed within `ms` of its end): work that may wait that long, so what
   * arrives together (a burst of new alerts) is taken in one pass.
   */
  wakeWithin(ms: number) {
    if (this.stopped) return;
    // During a pass, the work may have come after its sweep looked: the pass is followed within `ms`, not at its poll.
    if (this.running) {
      this.soonMs = Math.min(this.soonMs ?? ms, ms);
      return;
    }
    if (this.timer && this.timerDue <= Date.now() + ms) return;
    this.schedule(ms);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = Date.now() + ms;
    this.timer = setTimeout(() => void this.pass(), ms);
    this.timer.unref?.();
  }

  private async pass() {
    this.timer = null;
    if (this.running) return;
    this.running = (async () => {
      let sleep = this.opts.pollMs ?? 1000;
      try {
        do {
          this.again = false;
          await this.runDue();
        } while (this.again && !this.stopped);
        if (this.failing) this.opts.log.warn({}, 'job worker is running again');
        this.failing = false;
        const next = await unsafeNextDueAt(this.opts.db);
        if (next) sleep = Math.max(0, Math.min(sleep, next.getTime() - this.clock().getTime()));
        if (this.soonMs !== null) sleep = Math.min(sleep, this.soonMs);
      } catch (err) {
        // The database may be away: say so once per outage, and look again every 5 s until it is back.
        if (!this.failing) this.opts.log.warn({ err }, 'job worker pass failed; retrying every 5 s');
        this.failing = true;
        sleep = 5_000;
      }
      this.running = null;
      this.soonMs = null;
      this.schedule(sleep);
    })();
    await this.running;
  }

  /**
   * Runs every sweep and every job due now, until none is left; returns how many jobs ran. On PostgreSQL two lanes
   * do this side by side (each its own transactions and connections; SKIP LOCKED splits the work between them as
   * between two instances), so the database works on one batch while this process prepares the next.
   */
  async runDue(): Promise<number> {
    const lanes = this.opts.lanes ?? (this.opts.dialect === 'postgres' ? 2 : 1);
    const ran = await Promise.all(Array.from({ length: lanes }, () => this.lane()));
    return ran.reduce((a, b) => a + b, 0);
  }

  private newClaim(now: Date): WorkerClaim & { adopted: JobsTable[] } {
    const adopted: JobsTable[] = [];
    return { token: randomUUID(), leaseUntil: new Date(now.getTime() + (this.opts.leaseMs ?? 60_000)), adopted, adopt: (jobs) => void adopted.push(...jobs) };
  }

  /** Runs the jobs adopted under a claim (and those they adopt in turn); returns how many ran. */
  private async runAdopted(claim: WorkerClaim & { adopted: JobsTable[] }, now: Date): Promise<number> {
    let ran = 0;
    while (claim.adopted.length > 0) {
      const jobs = claim.adopted.splice(0);
      await this.runBatch(jobs, claim, now);
      ran += jobs.length;
    }
    return ran;
  }

  /** Every sweep until it has nothing left, each batch's adopted jobs run right after it; returns how many jobs ran. */
  private async sweepAll(): Promise<number> {
    let ran = 0;
    for (const sweep of this.opts.sweeps ?? [])
      for (;;) {
        const now = this.clock();
        const claim = this.newClaim(now);
        const started = await sweep(now, claim);
        ran += await this.runAdopted(claim, now);
        if (started <= 0) break;
      }
    return ran;
  }

  private async lane(): Promise<number> {
    let ran = await this.sweepAll();
    for (;;) {
      const now = this.clock();
      const claim = this.newClaim(now);
      const jobs = await unsafeClaimDueJobs(this.opts.db, this.opts.dialect, { now, leaseUntil: claim.leaseUntil, token: claim.token, limit: this.opts.batch ?? 500 });
      if (jobs.length === 0) return ran;
      await this.runBatch(jobs, claim, now);
      ran += jobs.length + (await this.runAdopted(claim, now));
      // Jobs may have added sooner work (a delivery due now): sweep again before the next claim.
      ran += await this.sweepAll();
    }
  }

  /**
   * Runs a batch handler over its jobs and notes each one's outcome. A handler that throws for a whole batch (not
   * because the database is away) is run again on each job alone, so a job it cannot handle fails alone.
   */
  private async runBatchHandler(batch: BatchJobHandler, list: Array<{ job: JobsTable; ctx: JobContext }>, outcomes: Map<JobsTable, unknown>) {
    const run = async (part: typeof list) => {
      const results = await batch(part);
      part.forEach(({ job }, i) => outcomes.set(job, i < results.length ? results[i] : new Error('batch handler returned no outcome')));
    };
    try {
      await run(list);
    } catch (err) {
      if (list.length === 1 || isDatabaseUnavailable(err)) {
        for (const { job } of list) outcomes.set(job, err ?? new Error('job failed'));
        return;
      }
      this.opts.log.warn({ err, kind: list[0].job.kind, jobs: list.length }, 'job batch failed; running its jobs one by one');
      for (const item of list) await run([item]).catch((e: unknown) => outcomes.set(item.job, e ?? new Error('job failed')));
    }
  }

  /** Runs one claim's jobs, then deletes the finished ones in one statement and puts the failed ones back. */
  private async runBatch(jobs: JobsTable[], claim: WorkerClaim, now: Date) {
    const { token } = claim;
    const outcomes = new Map<JobsTable, unknown>();
    // A job whose payload cannot be read fails alone.
    const items: Array<{ job: JobsTable; ctx: JobContext }> = [];
    for (const job of jobs) {
      try {
        items.push({ job, ctx: { now, finalAttempt: Number(job.attempts) >= Number(job.max_attempts), payload: JSON.parse(job.payload) as Record<string, unknown>, claim } });
      } catch (err) {
        outcomes.set(job, err);
      }
    }
    const byKind = new Map<string, typeof items>();
    for (const item of items) {
      const list = byKind.get(item.job.kind);
      if (list) list.push(item);
      else byKind.set(item.job.kind, [item]);
    }
    await Promise.all(
      [...byKind].map(async ([kind, list]) => {
        const batch = this.opts.batchHandlers?.[kind];
        if (batch) return this.runBatchHandler(batch, list, outcomes);
        const handler = this.opts.handlers[kind];
        await Promise.all(
          list.map(async ({ job, ctx }) => {
            try {
              if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
              await handler(job, ctx);
              outcomes.set(job, null);
            } catch (err) {
              outcomes.set(job, err ?? new Error('job failed'));
            }
          }),
        );
      }),
    );
    const done: string[] = [];
    const retries = new Map<number, string[]>();
    for (const job of jobs) {
      const err = outcomes.has(job) ? outcomes.get(job) : new Error('job has no outcome');
      if (err === DONE_AND_DELETED) continue;
      if (err === null || err === undefined) {
        done.push(job.id);
        continue;
      }
      const attempts = Number(job.attempts);
      if (attempts >= Number(job.max_attempts)) {
        this.opts.log.error({ err, job: { id: job.id, kind: job.kind, key: job.unique_key } }, 'job failed for good');
        done.push(job.id);
      } else {
        this.opts.log.warn({ err, job: { id: job.id, kind: job.kind, attempts } }, 'job failed; retrying later');
        const delay = Math.min((this.opts.retryBaseMs ?? 5_000) * 4 ** (attempts - 1), this.opts.retryMaxMs ?? 10 * 60_000);
        retries.set(delay, [...(retries.get(delay) ?? []), job.id]); // few: failures are rare
      }
    }
    // A job not deleted or put back here (the database went away) stays leased and runs again when its lease ends:
    // at most one repeat, never lost.
    await unsafeCompleteJobs(this.opts.db, done, token);
    for (const [delay, ids] of retries) await unsafeRetryJobsAt(this.opts.db, ids, token, new Date(now.getTime() + delay)).catch(() => {});
  }
}
