import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDatabases } from '../test/test-app.ts';
import { collectingLog, testJobWorker } from '../test/jobs.ts';
import { DONE_AND_DELETED, type BatchJobHandler, type JobHandler } from './job-worker.ts';
import { unsafeCompleteJobs, enqueueJobs, insertJobs } from './jobs.repository.ts';

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
      const worker = testJobWorker(env.deps, {
        handlers: { 'test.job': handler },
        sweeps: [
          async () => {
            if (sweepFailures-- > 0) throw new Error('connection terminated');
            return 0;
          },
        ],
        log: collectingLog(warnings),
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

    it('follows a pass within the time asked when woken during it, instead of sleeping until its poll', async () => {
      // New alerts wake the worker within 100 ms; one that arrives while a pass runs (after its sweep looked) must not
      // wait for the next poll.
      let passes = 0;
      let release: () => void = () => {};
      const worker = testJobWorker(env.deps, {
        handlers: {},
        sweeps: [
          async () => {
            passes++;
            if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
            return 0;
          },
        ],
        pollMs: 60_000,
        // One lane, so each pass calls the sweep once (PostgreSQL's default is two side by side).
        lanes: 1,
      });
      worker.start();
      try {
        await expect.poll(() => passes).toBe(1);
        worker.wakeWithin(50);
        release();
        await expect.poll(() => passes, { timeout: 5_000 }).toBe(2);
      } finally {
        release();
        await worker.stop();
      }
    });

    it('retries a failing job with backoff and gives up after its last attempt', async () => {
      let nowMs = Date.now();
      let calls = 0;
      const finals: boolean[] = [];
      const worker = testJobWorker(env.deps, {
        clock: () => new Date(nowMs),
        handlers: {
          'test.flaky': async (_job, { finalAttempt }) => {
            calls++;
            finals.push(finalAttempt);
            throw new Error('provider down');
          },
        },
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

    it('runs the jobs of a kind claimed together in one batch call; a job that failed is retried alone with backoff, the others are done once', async () => {
      let nowMs = Date.now();
      const calls: string[][] = [];
      let failing = new Set(['b3']);
      const batch: BatchJobHandler = async (items) => {
        calls.push(items.map(({ ctx }) => String(ctx.payload.n)).sort());
        return items.map(({ ctx }) => (failing.has(String(ctx.payload.n)) ? new Error(`provider down for ${String(ctx.payload.n)}`) : null));
      };
      const warnings: string[] = [];
      const worker = testJobWorker(env.deps, {
        clock: () => new Date(nowMs),
        batchHandlers: { 'test.batch': batch },
        log: collectingLog(warnings),
        retryBaseMs: 1000,
        lanes: 1,
      });
      const at = new Date(nowMs);
      await enqueueJobs(env.deps.db, ['b1', 'b2', 'b3', 'b4'].map((n) => ({ kind: 'test.batch', uniqueKey: `batch:${n}`, dueAt: at, payload: { n } })), at);
      expect(await worker.runDue()).toBe(4);
      expect(calls).toEqual([['b1', 'b2', 'b3', 'b4']]);
      const left = async () => (await env.deps.db.selectFrom('jobs').select(['unique_key', 'attempts', 'due_at', 'lock_token']).where('kind', '=', 'test.batch').execute()).map((j) => ({ ...j, attempts: Number(j.attempts) }));
      expect(await left()).toEqual([{ unique_key: 'batch:b3', attempts: 1, due_at: new Date(nowMs + 1000).toISOString(), lock_token: null }]);
      expect(warnings).toEqual(['job failed; retrying later']);
      // Not due yet; then due: only the failed job runs again, and this time it succeeds.
      nowMs += 999;
      expect(await worker.runDue()).toBe(0);
      nowMs += 1;
      failing = new Set();
      expect(await worker.runDue()).toBe(1);
      expect(calls).toEqual([['b1', 'b2', 'b3', 'b4'], ['b3']]);
      expect(await left()).toEqual([]);
    });

    it('runs a batch whose handler throws again job by job: the job it cannot handle fails alone and is given up after its last attempt', async () => {
      let nowMs = Date.now();
      const seen: string[][] = [];
      const warnings: string[] = [];
      const worker = testJobWorker(env.deps, {
        clock: () => new Date(nowMs),
        batchHandlers: {
          'test.poisoned': async (items) => {
            seen.push(items.map(({ ctx }) => String(ctx.payload.n)).sort());
            if (items.some(({ ctx }) => ctx.payload.poison)) throw new TypeError('cannot read this one');
            return items.map(() => null);
          },
        },
        log: collectingLog(warnings),
        retryBaseMs: 1000,
        lanes: 1,
      });
      const at = new Date(nowMs);
      const job = (n: string, poison = false) => ({ kind: 'test.poisoned', uniqueKey: `poisoned:${n}`, dueAt: at, payload: { n, poison }, maxAttempts: 2 });
      await enqueueJobs(env.deps.db, [job('p1'), job('p2', true), job('p3')], at);
      await worker.runDue();
      expect(seen).toEqual([['p1', 'p2', 'p3'], ['p1'], ['p2'], ['p3']]);
      const left = async () => (await env.deps.db.selectFrom('jobs').select('unique_key').where('kind', '=', 'test.poisoned').execute()).map((j) => j.unique_key);
      expect(await left()).toEqual(['poisoned:p2']);
      nowMs += 1000;
      await worker.runDue();
      expect(seen.slice(4)).toEqual([['p2']]);
      expect(await left()).toEqual([]);
      expect(warnings).toEqual(['job batch failed; running its jobs one by one', 'job failed; retrying later', 'job failed for good']);
    });

    it('runs the jobs a sweep inserted claimed right after it, without a claim of their own; a handler may finish and delete a job itself', async () => {
      const nowMs = Date.now();
      const ran: string[] = [];
      let sweeps = 0;
      const worker = testJobWorker(env.deps, {
        clock: () => new Date(nowMs),
        batchHandlers: {
          'test.adopted': async (items) => {
            ran.push(...items.map(({ ctx }) => String(ctx.payload.n)));
            // Leased to this claim already (no claim of their own), then deleted here, as a handler would in its transaction.
            const held = await env.deps.db.selectFrom('jobs').select(['lock_token', 'attempts']).where('kind', '=', 'test.adopted').execute();
            expect(held.map((j) => [j.lock_token, Number(j.attempts)])).toEqual(items.map(({ ctx }) => [ctx.claim!.token, 1]));
            await unsafeCompleteJobs(env.deps.db, items.map(({ job }) => job.id), items[0].ctx.claim!.token);
            return items.map(() => DONE_AND_DELETED);
          },
        },
        sweeps: [
          async (now, claim) => {
            if (sweeps++ > 0) return 0;
            const jobs = ['a1', 'a2'].map((n) => ({ kind: 'test.adopted', uniqueKey: `adopted:${n}:${nowMs}`, dueAt: now, payload: { n }, runNow: true }));
            const { claimed } = await insertJobs(env.deps.db, jobs, now, claim!);
            claim!.adopt(claimed);
            return 1;
          },
        ],
        lanes: 1,
      });
      expect(await worker.runDue()).toBe(2);
      expect(ran.sort()).toEqual(['a1', 'a2']);
      expect(await env.deps.db.selectFrom('jobs').select('id').where('kind', '=', 'test.adopted').execute()).toEqual([]);
    });
  });
}
