// npm run bench:escalation [-- --alerts 10000] [--only sqlite|postgres|postgres2] [--profile dir]
// 10,000 alerts open at once; their escalation (start, level 1 step, one email page each, through a no-op transport)
// is due in the same second. Prints the seconds from due until every page is recorded, on SQLite and (with
// BENCH_DATABASE_URL or TEST_DATABASE_URL) on PostgreSQL, and on PostgreSQL with two server processes sharing the
// work: pages sent, duplicates and missing ones. On one process it then moves the worker's clock 15 minutes on: every
// alert is overdue in the same second and its level 1 is paged once more (the second line).
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import inspector from 'node:inspector';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../server/config.ts';
import { buildApp } from '../server/app.ts';
import type { Transports } from '../server/notifications/channel.ts';

const { values: args } = parseArgs({ options: { alerts: { type: 'string', default: '10000' }, only: { type: 'string' }, profile: { type: 'string' }, worker: { type: 'string' }, schema: { type: 'string' } } });
const ALERTS = Number(args.alerts);
/** Runs one of the three measurements only (`--only sqlite`, `postgres` or `postgres2`). */
const wanted = (name: string) => !args.only || args.only === name;

/** Counts what would have been sent; sends nothing. */
function noopTransports() {
  const count = { email: 0 };
  const transports: Transports = {
    async email() {
      count.email++;
      return { providerId: null };
    },
    async push() {
      return { providerId: null };
    },
    sms: null,
  };
  return { transports, count };
}

const configFor = (url: string, schema: string | null): Config => ({
  // One person gets every page: storm summaries off, so each of the 10,000 pages is sent and counted.
  ...loadConfig({ JOB_WORKER: 'false', REGISTER_LIMIT_IP: '100000', PUBLIC_URL: 'http://localhost:3000', PAGE_STORM_LIMIT: '0' }),
  databaseUrl: url,
  databaseSchema: schema,
  webDir: null,
  logLevel: 'silent',
});

async function inject(app: FastifyInstance, method: 'GET' | 'POST', url: string, body?: unknown, cookie?: string, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method,
    url,
    headers: { origin: 'http://localhost:3000', 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return { data: res.json() as any, cookie: res.cookies.find((c) => c.name === 'alertdesk_session')?.value };
}

/** A tenant whose default policy pages its owner by email, and `n` new alerts whose escalation has not started. */
async function seed(app: FastifyInstance, n: number) {
  const reg = await inject(app, 'POST', '/api/functions/registerUserWithTenant', {
    userData: { email: `bench-${randomUUID()}@example.com`, password: 'secret123', displayName: 'Bench Owner' },
    tenantData: { name: 'Bench MSP', plan: 'trial' },
  });
  const cookie = `alertdesk_session=${reg.cookie}`;
  const { tenantId, userId } = reg.data;
  await inject(app, 'POST', `/api/tenants/${tenantId}/escalationPolicies`, { name: 'Bench', isDefault: true, level_1: { userIds: [userId], notificationChannels: ['email'] } }, cookie);
  const { key } = (await inject(app, 'POST', `/api/tenants/${tenantId}/integrations`, { name: 'Bench' }, cookie)).data;
  for (let i = 0; i < n; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, n - i) }, (_, j) =>
        inject(app, 'POST', '/api/ingest/events', { title: `Bench alert ${i + j}`, priority: 'critical', dedupKey: `bench-${i + j}` }, undefined, { authorization: `Bearer ${key}` }),
      ),
    );
  }
}

/** `--profile dir`: a CPU profile of the draining alone (not the seeding), for Chrome DevTools or any .cpuprofile reader. */
async function startProfile() {
  const session = new inspector.Session();
  session.connect();
  const post = <T>(method: string) => new Promise<T>((resolve, reject) => session.post(method, (err, res) => (err ? reject(err) : resolve(res as T))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop(file: string) {
      const { profile } = await post<{ profile: object }>('Profiler.stop');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** Runs the worker until nothing is due; returns the seconds it took and what the transport counted. */
async function drain(app: FastifyInstance, count: { email: number }, name = 'drain') {
  const profiler = args.profile ? await startProfile() : null;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  while ((await app.jobs.worker.runDue()) > 0);
  const cpu = process.cpuUsage(cpu0);
  if (profiler) await profiler.stop(path.join(args.profile!, `${name}-${process.pid}.cpuprofile`));
  // CPU seconds of this process (the server's own work; PostgreSQL's is not in it): less noisy than wall time on a busy machine.
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, sent: count.email };
}

/** The machine's 1-minute load average and core count: wall-clock figures only compare under the same load. */
const load = () => `load ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`;

async function single(name: string, url: string, schema: string | null) {
  const { transports, count } = noopTransports();
  // The worker's clock: the wall clock, moved 15 minutes on for the second wave.
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const { app, deps } = await buildApp(configFor(url, schema), { logger: false, transports, clock });
  await app.ready();
  const sentAttempts = async (step: string) =>
    Number(
      (
        await deps.db
          .selectFrom('notification_attempts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('outcome', '=', 'sent')
          .where('step', '=', step)
          .executeTakeFirstOrThrow()
      ).n,
    );
  try {
    await seed(app, ALERTS);
    const r = await drain(app, count, name);
    const recorded = await sentAttempts('L1');
    console.log(
      `${name.padEnd(10)} ${ALERTS} alerts due at once: every page recorded after ${r.seconds.toFixed(2)} s ` +
        `(${Math.round(ALERTS / r.seconds)} pages/s, ${r.cpuSeconds.toFixed(2)} s CPU, ${load()}); sent ${r.sent}, recorded ${recorded}, missing ${ALERTS - recorded}`,
    );
    // Second wave: nobody acknowledged, every alert passes its critical target (15 min) in the same second: each is
    // marked overdue and its level 1 paged once more (overdue checks, then repeat steps, then deliveries).
    offsetMs = 15 * 60_000 + 1_000;
    count.email = 0;
    const o = await drain(app, count, `${name}-overdue`);
    const repeated = await sentAttempts('overdue');
    console.log(
      `${''.padEnd(10)} ${ALERTS} alerts overdue at once: every repeat page recorded after ${o.seconds.toFixed(2)} s ` +
        `(${Math.round(ALERTS / o.seconds)} pages/s, ${o.cpuSeconds.toFixed(2)} s CPU, ${load()}); sent ${o.sent}, recorded ${repeated}, missing ${ALERTS - repeated}`,
    );
  } finally {
    await app.close();
  }
}

/** Child process: one more server instance on the same PostgreSQL schema, draining the same work. */
async function workerProcess(url: string, schema: string) {
  const { transports, count } = noopTransports();
  const { app } = await buildApp(configFor(url, schema), { logger: false, transports });
  await app.ready();
  process.send!({ type: 'ready' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const r = await drain(app, count, 'worker');
  process.send!({ type: 'done', ...r });
  await app.close();
  process.exit(0);
}

async function twoProcesses(url: string) {
  const schema = `bench_esc_${Date.now().toString(36)}`;
  const { transports } = noopTransports();
  const { app, deps } = await buildApp(configFor(url, schema), { logger: false, transports });
  await app.ready();
  try {
    await seed(app, ALERTS);
    const children = [0, 1].map(() =>
      fork(import.meta.filename, ['--worker', url, '--schema', schema, '--alerts', String(ALERTS)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    await Promise.all(children.map((c) => new Promise<void>((resolve) => c.once('message', () => resolve()))));
    const results = await Promise.all(
      children.map(
        (c) =>
          new Promise<{ seconds: number; cpuSeconds: number; sent: number }>((resolve) => {
            c.once('message', (m: { seconds: number; cpuSeconds: number; sent: number }) => resolve(m));
            c.send({ type: 'go' });
          }),
      ),
    );
    const sent = results.reduce((a, r) => a + r.sent, 0);
    const distinct = await deps.db.selectFrom('notification_attempts').select((eb) => eb.fn.countAll<number>().as('n')).where('outcome', '=', 'sent').executeTakeFirstOrThrow();
    const seconds = Math.max(...results.map((r) => r.seconds));
    console.log(
      `postgres×2  ${ALERTS} alerts due at once, two server processes: every page recorded after ${seconds.toFixed(2)} s ` +
        `(${Math.round(ALERTS / seconds)} pages/s, ${results.map((r) => r.cpuSeconds.toFixed(2)).join(' + ')} s CPU, ${load()}); ` +
        `sent ${sent} (${results.map((r) => r.sent).join(' + ')}), duplicates ${sent - Number(distinct.n)}, missing ${ALERTS - Number(distinct.n)}`,
    );
  } finally {
    await app.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  }
}

if (args.worker) {
  await workerProcess(args.worker, args.schema!);
} else {
  if (wanted('sqlite')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-bench-esc-'));
    try {
      await single('sqlite', path.join(dir, 'bench.db'), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    if (wanted('postgres')) {
      const schema = `bench_esc1_${Date.now().toString(36)}`;
      try {
        await single('postgres', pgUrl, schema);
      } finally {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`drop schema if exists "${schema}" cascade`);
        await c.end();
      }
    }
    if (wanted('postgres2')) await twoProcesses(pgUrl);
  } else if (wanted('postgres') || wanted('postgres2')) console.log('postgres   skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
}
