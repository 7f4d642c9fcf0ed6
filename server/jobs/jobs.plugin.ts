import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DB, Dialect } from '../db/database.ts';
import { JobWorker, systemClock, type BatchJobHandler, type Clock, type JobHandler, type Sweep } from './job-worker.ts';

/**
 * The job runner as modules see it (`app.jobs`): each module registers its kinds of job and its sweeps at start; the
 * worker (one per instance) runs them. Tests drive `worker.runDue()` with a moved `clock`.
 */
export interface JobsRuntime {
  worker: JobWorker;
  /** The time the worker runs on (tests move it); modules scheduling jobs read time here too. */
  clock: Clock;
  /** A kind of job run one at a time. */
  handle(kind: string, handler: JobHandler): void;
  /** A kind of job run a batch at a time. */
  handleBatch(kind: string, handler: BatchJobHandler): void;
  /** Work done on every pass before due jobs (e.g. starting the escalation of new alerts). */
  sweep(sweep: Sweep): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobsRuntime;
  }
}

export interface JobsOptions {
  db: DB;
  dialect: Dialect;
  /** Whether this instance runs the worker (JOB_WORKER; tests run it by hand). */
  start: boolean;
  clock?: Clock;
  /** The worker's longest sleep between passes (default POLL_MS). */
  pollMs?: number;
}

/** The worker's longest sleep between passes: work another instance added is seen within it. */
const POLL_MS = 500;

async function jobs(app: FastifyInstance, opts: JobsOptions) {
  const clock = opts.clock ?? systemClock;
  const worker = new JobWorker({ db: opts.db, dialect: opts.dialect, clock, handlers: {}, log: app.log, pollMs: opts.pollMs ?? POLL_MS });
  app.decorate('jobs', {
    worker,
    clock,
    handle: (kind, handler) => worker.handle(kind, handler),
    handleBatch: (kind, handler) => worker.handleBatch(kind, handler),
    sweep: (sweep) => worker.addSweep(sweep),
  } satisfies JobsRuntime);
  if (opts.start) app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
}

export const jobsPlugin = fp(jobs, { name: 'jobs' });
