import { randomUUID } from 'node:crypto';
import type { DB, Dialect } from '../db/database.ts';
import type { JobsTable } from '../db/schema.ts';
import { claimDueJobs, completeJob, nextDueAt, retryJobAt } from './jobs.repository.ts';

/** The engine's time: the wall clock in production, a clock a test moves. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export interface JobContext {
  now: Date;
  /** True on the job's last allowed try: a handler records a permanent failure then, rather than throwing. */
  finalAttempt: boolean;
  payload: Record<string, unknown>;
}

export type JobHandler = (job: JobsTable, ctx: JobContext) => Promise<void>;

/** Something a worker does on every pass before running due jobs (the escalation engine starts pending alerts). */
export type Sweep = (now: Date) => Promise<number>;

export interface JobWorkerOptions {
  db: DB;
  dialect: Dialect;
  clock?: Clock;
  handlers: Record<string, JobHandler>;
  sweeps?: Sweep[];
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** The longest sleep between passes (a step added by another instance is seen within this). */
  pollMs?: number;
  /** How long a claimed job is this worker's; after that another worker may retry it. */
  leaseMs?: number;
  batch?: number;
  /** Backoff before try n+1: base × 4^(n-1). */
  retryBaseMs?: number;
}

/**
 * Runs durable jobs: every server instance has one. Each pass runs the sweeps, then claims due jobs in batches and
 * runs them (jobs of one batch concurrently); finished jobs are deleted, failed ones retried with backoff up to their
 * max attempts. Between passes it sleeps until the next due time, at most `pollMs`; `wake()` starts a pass now.
 * Tests do not start it: they move the clock and call `runDue()`.
 */
export class JobWorker {
  private readonly clock: Clock;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private again = false;
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

  /** Starts a pass as soon as possible (new work was added). */
  wake() {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
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
        const next = await nextDueAt(this.opts.db);
        if (next) sleep = Math.max(0, Math.min(sleep, next.getTime() - this.clock().getTime()));
      } catch (err) {
        // The database may be away: say so once per outage, and look again every 5 s until it is back.
        if (!this.failing) this.opts.log.warn({ err }, 'job worker pass failed; retrying every 5 s');
        this.failing = true;
        sleep = 5_000;
      }
      this.running = null;
      this.schedule(sleep);
    })();
    await this.running;
  }

  /** Runs every sweep and every job due now, until none is left; returns how many jobs ran. */
  async runDue(): Promise<number> {
    let ran = 0;
    for (const sweep of this.opts.sweeps ?? []) while ((await sweep(this.clock())) > 0);
    for (;;) {
      const now = this.clock();
      const token = randomUUID();
      const jobs = await claimDueJobs(this.opts.db, this.opts.dialect, {
        now,
        leaseUntil: new Date(now.getTime() + (this.opts.leaseMs ?? 60_000)),
        token,
        limit: this.opts.batch ?? 100,
      });
      if (jobs.length === 0) return ran;
      await Promise.all(jobs.map((job) => this.run(job, token, now)));
      ran += jobs.length;
      // Jobs may have added sooner work (a delivery due now): sweep again before the next claim.
      for (const sweep of this.opts.sweeps ?? []) while ((await sweep(this.clock())) > 0);
    }
  }

  private async run(job: JobsTable, token: string, now: Date) {
    const handler = this.opts.handlers[job.kind];
    const attempts = Number(job.attempts);
    const finalAttempt = attempts >= Number(job.max_attempts);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job, { now, finalAttempt, payload: JSON.parse(job.payload) as Record<string, unknown> });
      await completeJob(this.opts.db, job.id, token);
    } catch (err) {
      if (finalAttempt) {
        this.opts.log.error({ err, job: { id: job.id, kind: job.kind, key: job.unique_key } }, 'job failed for good');
        await completeJob(this.opts.db, job.id, token).catch(() => {});
      } else {
        this.opts.log.warn({ err, job: { id: job.id, kind: job.kind, attempts } }, 'job failed; retrying later');
        const delay = (this.opts.retryBaseMs ?? 5_000) * 4 ** (attempts - 1);
        await retryJobAt(this.opts.db, job.id, token, new Date(now.getTime() + delay)).catch(() => {});
      }
    }
  }
}
