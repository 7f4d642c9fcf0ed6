import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createMailer } from '../../notifications/mailer.ts';
import { forkWorker } from '../../test/fork-worker.ts';
import { startTestApp, testDatabases, type TestDatabase } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { createIntegration, ingest } from '../../test/alerts.ts';
import { startSmtpServer, type ReceivedMail } from '../../test/smtp.ts';
import { CuttableProxy } from '../../test/proxy.ts';

// Paging under faults, counted at a real SMTP server: a server killed mid-send, the database lost mid-send. Every
// alert must be paged (0 missing); a page may go out twice only if it was on its way when the fault struck, and at
// most PAGE_SENDS_IN_FLIGHT (5) are.

const ALERTS = 120;
const IN_FLIGHT = 5;
const LEASE_PASSED_MS = 5 * 60_000;

/** Mails per alert (the alert id is in each page's Open link). */
function countPages(mails: ReceivedMail[]) {
  const perAlert = new Map<string, number>();
  for (const m of mails) {
    const id = /alert=([0-9a-f-]{36})/.exec(m.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];
    if (id) perAlert.set(id, (perAlert.get(id) ?? 0) + 1);
  }
  const total = [...perAlert.values()].reduce((a, b) => a + b, 0);
  return { perAlert, unique: perAlert.size, duplicates: total - perAlert.size };
}

/** A tenant whose default policy pages its owner by email at level 1 only, and `ALERTS` new critical alerts. */
async function burst(env: Awaited<ReturnType<typeof startTestApp>>) {
  const owner = await registerOwner(env.app);
  const policy = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, {
    name: 'Night',
    isDefault: true,
    level_1: { userIds: [owner.userId], notificationChannels: ['email'] },
  });
  expect(policy.statusCode).toBe(201);
  const { key } = await createIntegration(owner.agent, owner.tenantId);
  const ids: string[] = [];
  for (let i = 0; i < ALERTS; i++) {
    const res = await ingest(env.app, '/api/ingest/events', { title: `Backup failed ${i}`, priority: 'critical' }, { authorization: `Bearer ${key}` });
    expect(res.statusCode).toBe(202);
    ids.push(res.json().alertId);
  }
  return ids;
}

/** Another instance over the same database, whose clock is past every lease: it takes over what was left. */
async function recover(env: Awaited<ReturnType<typeof startTestApp>>, smtpUrl: string) {
  const mailer = createMailer({ smtpUrl, from: 'Alertdesk <pager@alertdesk.test>', log: { info: () => {} } });
  const { app } = await buildApp({ ...env.config, jobWorker: false }, { logger: false, mailer, clock: () => new Date(Date.now() + LEASE_PASSED_MS) });
  try {
    for (let i = 0; i < 20 && (await app.jobs.worker.runDue()) > 0; i++);
  } finally {
    await app.close();
  }
}

for (const db of testDatabases()) {
  describe(`paging under faults [${db.name}]`, () => {
    const closers: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close().catch(() => {});
    });

    /** A worker process killed mid-send (SIGKILL); with `twoInstances`, another instance pages alongside it throughout. */
    async function killMidSend(twoInstances: boolean) {
      let killAt: ((n: number) => void) | null = null;
      const smtp = await startSmtpServer({ delayMs: 15, onMail: (_m, n) => killAt?.(n) });
      closers.push(smtp.close);
      const env = await startTestApp(db, { pageSendsInFlight: IN_FLIGHT, pageStormLimit: 0 });
      closers.push(env.close);
      const ids = await burst(env);
      const worker = forkWorker(env.config, {
        SMTP_URL: smtp.url,
        PAGE_SENDS_IN_FLIGHT: String(IN_FLIGHT),
        // One person gets every page here: no storm summaries, each page counted.
        PAGE_STORM_LIMIT: '0',
      });
      closers.push(worker.kill);
      // The other instance, when there is one, takes its share from the start and goes on after the kill.
      let other: Awaited<ReturnType<typeof buildApp>> | null = null;
      let draining: Promise<void> = Promise.resolve();
      if (twoInstances) {
        const mailer = createMailer({ smtpUrl: smtp.url, from: 'Alertdesk <pager@alertdesk.test>', log: { info: () => {} } });
        other = await buildApp({ ...env.config, jobWorker: false }, { logger: false, mailer });
        closers.push(() => other!.app.close());
        draining = (async () => {
          for (let i = 0; i < 400 && countPages(smtp.received).unique < ALERTS; i++) {
            if ((await other!.app.jobs.worker.runDue()) === 0) await new Promise((r) => setTimeout(r, 50));
          }
        })();
      }
      // Killed once a quarter of the pages went out.
      await new Promise<void>((resolve) => (killAt = (n) => n >= ALERTS / 4 && (worker.child.kill('SIGKILL'), resolve())));
      await worker.exited;
      killAt = null;
      const atKill = countPages(smtp.received);
      expect(atKill.unique).toBeLessThan(ALERTS);

      await draining;
      await recover(env, smtp.url);
      const after = countPages(smtp.received);
      expect(ids.filter((id) => !after.perAlert.has(id))).toEqual([]);
      expect(after.duplicates).toBeLessThanOrEqual(IN_FLIGHT);
    }

    it('a server killed mid-send (SIGKILL): every alert paged, at most the pages in flight twice', { timeout: 60_000 }, () => killMidSend(false));

    if (db.name === 'postgres')
      it('two instances, one killed mid-send (SIGKILL): every alert paged, at most its pages in flight twice', { timeout: 60_000 }, () => killMidSend(true));

    /**
     * The database taken away mid-send; with `twoInstances` (PostgreSQL), another instance reaching it directly pages
     * alongside throughout, and the first one's database is back after about 3 s.
     */
    async function loseDatabaseMidSend(twoInstances: boolean) {
      const { away, back, target } = await databaseAway(db, closers);
      let cutAt: ((n: number) => void) | null = null;
      const smtp = await startSmtpServer({ delayMs: 5, onMail: (_m, n) => cutAt?.(n) });
      closers.push(smtp.close);
      const mailer = createMailer({ smtpUrl: smtp.url, from: 'Alertdesk <pager@alertdesk.test>', log: { info: () => {} } });
      const env = await startTestApp(target, { pageSendsInFlight: IN_FLIGHT, pageStormLimit: 0 }, mailer);
      closers.push(env.close);
      const ids = await burst(env);
      const other = twoInstances ? await buildApp({ ...env.config, databaseUrl: db.url, jobWorker: false }, { logger: false, mailer }) : null;
      if (other) closers.push(() => other.app.close());
      cutAt = (n) => {
        if (n !== ALERTS / 4) return;
        cutAt = null;
        away(env);
      };
      const drain = async () => {
        for (let i = 0; other && i < 50 && (await other.app.jobs.worker.runDue()) > 0; i++);
      };
      // The worker's pass fails when the database goes; it comes back a moment later.
      await Promise.all([env.app.jobs.worker.runDue().catch(() => {}), drain()]);
      if (twoInstances) await new Promise((r) => setTimeout(r, 2_000));
      await back();
      if (!twoInstances) expect(countPages(smtp.received).unique).toBeLessThan(ALERTS);
      await recover(env, smtp.url);
      const after = countPages(smtp.received);
      expect(ids.filter((id) => !after.perAlert.has(id))).toEqual([]);
      expect(after.duplicates).toBeLessThanOrEqual(IN_FLIGHT);
      expect(after.duplicates + after.unique).toBeGreaterThanOrEqual(ALERTS);
    }

    it('the database lost mid-send: every alert paged, at most the pages in flight twice', { timeout: 60_000 }, () => loseDatabaseMidSend(false));

    // PostgreSQL runs several instances over one database: one of them loses it for 3 s mid-send while the other goes
    // on. The pages the first had on their way are the only ones that may go out twice.
    if (db.name === 'postgres')
      it('two instances, one losing the database for 3 s mid-send: every alert paged, at most its pages in flight twice', { timeout: 60_000 }, () =>
        loseDatabaseMidSend(true),
      );
  });
}

/**
 * How a test takes the database away: PostgreSQL through a proxy that resets every connection and refuses new ones;
 * SQLite by another connection holding an exclusive lock past the busy timeout (every write fails as SQLITE_BUSY).
 */
async function databaseAway(db: TestDatabase, closers: Array<() => Promise<void>>) {
  if (db.name === 'postgres') {
    const url = new URL(db.url);
    const proxy = new CuttableProxy(url.hostname, Number(url.port || 5432));
    await proxy.listen();
    closers.push(() => proxy.close());
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    return {
      target: { name: 'postgres' as const, url: url.toString() },
      away: () => proxy.down(),
      back: async () => {
        await new Promise((r) => setTimeout(r, 1_000));
        proxy.up();
      },
    };
  }
  let lock: Database.Database | null = null;
  return {
    target: db,
    away: (env: Awaited<ReturnType<typeof startTestApp>>) => {
      lock = new Database(env.config.databaseUrl);
      lock.exec('begin exclusive');
      // Held past the server's 5 s busy timeout (a write waits that long, synchronously, then fails).
      setTimeout(() => {
        lock?.exec('rollback');
        lock?.close();
        lock = null;
      }, 5_500).unref();
    },
    back: async () => {
      while (lock) await new Promise((r) => setTimeout(r, 100));
    },
  };
}
