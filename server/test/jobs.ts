import type { Deps } from '../deps.ts';
import { JobWorker, type JobWorkerOptions } from '../jobs/job-worker.ts';

/** A worker log that keeps each warning and error message in `messages`, in order. */
export const collectingLog = (messages: string[]): JobWorkerOptions['log'] => ({
  warn: (_o, m) => messages.push(m),
  error: (_o, m) => messages.push(m),
});

/**
 * A job worker over the test app's database, for a test to drive (`runDue()`, or `start()` and `stop()`): no handlers
 * and a silent log unless `opts` gives them; `opts` sets the rest (`clock`, `batchHandlers`, `sweeps`, `lanes`…).
 */
export function testJobWorker(deps: Pick<Deps, 'db' | 'dialect'>, opts: Partial<JobWorkerOptions> = {}) {
  return new JobWorker({ db: deps.db, dialect: deps.dialect, handlers: {}, log: { warn: () => {}, error: () => {} }, ...opts });
}
