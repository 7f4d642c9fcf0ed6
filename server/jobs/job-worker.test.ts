import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDatabases } from '../test/test-app.ts';
import { JobWorker, type JobHandler } from './job-worker.ts';
import { enqueueJobs } from './jobs.repository.ts';

for (const db of testDatabases()) {
  describe(`job worker [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    beforeAll(async () => {
      env = await startTestApp(db);
    });
    afterAll(async () => env?.close());

    it('runs on its own: a failed pass (database away) is logged once and retried, due jobs run, a job is scheduled once', async () => {
      const ran: string[] = [];
      const warnings: string[] = [];
      let sweepFailures = 1;
      const handler: JobHandler = async (_job, { payload }) => {
        ran.push(String(payload.n));
      };
      const worker = new JobWorker({
        db: env.deps.db,
        dialect: env.deps.dialect,
        handlers: { 'test.job': handler },
        sweeps: [
          async () => {
            if (sweepFailures-- > 0) throw new Error('connection terminated');
            return 0;
          },
        ],
        log: { warn: (_o, m) => warnings.push(m), error: (_o, m) => warnings.push(m) },
        pollMs: 50,
      });
      const now = new Date();
      const job = (n: number) => ({ kind: 'test.job', uniqueKey: `test:${n}`, dueAt: now, payload: { n } });
      expect(await enqueueJobs(env.deps.db, [job(1), job(2)], now)).toBe(2);
      // The same key again schedules nothing.
      expect(await enqueueJobs(env.deps.db, [job(1)], now)).toBe(0);
      worker.start();
      try {
        // The first pass fails; the worker waits 5 s, then runs both jobs.
        await expect.poll(() => ran.slice().sort(), { timeout: 15_000 }).toEqual(['1', '2']);
        await expect.poll(() => warnings).toEqual(['job worker pass failed; retrying every 5 s', 'job worker is running again']);
        // A job added later is picked up by the next pass (it sleeps at most pollMs).
        await enqueueJobs(env.deps.db, [job(3)], new Date());
        await expect.poll(() => ran.length).toBe(3);
      } finally {
        await worker.stop();
      }
    });

    it('retries a failing job with backoff and gives up after its last attempt', async () => {
      let nowMs = Date.now();
      let calls = 0;
      const finals: boolean[] = [];
      const worker = new JobWorker({
        db: env.deps.db,
        dialect: env.deps.dialect,
        clock: () => new Date(nowMs),
        handlers: {
          'test.flaky': async (_job, { finalAttempt }) => {
            calls++;
            finals.push(finalAttempt);
            throw new Error('provider down');
          },
        },
        log: { warn: () => {}, error: () => {} },
        retryBaseMs: 1000,
      });
      await enqueueJobs(env.deps.db, [{ kind: 'test.flaky', uniqueKey: 'flaky:1', dueAt: new Date(nowMs), payload: {} }], new Date(nowMs));
      await worker.runDue();
      expect(calls).toBe(1);
      nowMs += 999;
      await worker.runDue();
      expect(calls).toBe(1);
      nowMs += 1;
      await worker.runDue();
      expect(calls).toBe(2);
      nowMs += 4000;
      await worker.runDue();
      expect(finals).toEqual([false, false, true]);
      nowMs += 3_600_000;
      await worker.runDue();
      expect(calls).toBe(3);
      expect(await env.deps.db.selectFrom('jobs').select('id').where('unique_key', '=', 'flaky:1').execute()).toEqual([]);
    });
  });
}
