// npm run bench:ingest [-- --seconds 8 --concurrency 50]
// Starts the real server on a fresh database (SQLite always; PostgreSQL too when BENCH_DATABASE_URL or
// TEST_DATABASE_URL is set), sends PagerDuty events over HTTP from a second process, and prints: new alerts/s, dedup
// updates/s, p50/p99 latency at a fixed 1,000 events/s, ingest-to-dashboard p95 over the live stream, stored alerts
// against 202 answers, and the ratio to a bare Fastify route that validates and inserts one row.
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { z } from 'zod';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../server/config.ts';
import { buildApp } from '../server/app.ts';
import BetterSqlite from 'better-sqlite3';
import pg from 'pg';
import { PagerDutyAccepted, PagerDutyEvent } from '../contract/integrations.ts';
import type { RoutingRule } from '../contract/ingest-formats.ts';
import { fromPagerDuty } from '../server/modules/alerts/ingest/ingest.mappers.ts';
import { applyRules } from '../server/modules/alerts/ingest/routing-rules.ts';
import { freshDatabase } from './bench-db.ts';

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '8' }, concurrency: { type: 'string', default: '50' }, keys: { type: 'string', default: '8' }, 'maintenance-only': { type: 'boolean' } },
});
const SECONDS = Number(args.seconds);
const CONCURRENCY = Number(args.concurrency);
const KEYS = Number(args.keys);
const TARGETS = { sqlite: 5000, postgres: 2500 };

interface PhaseResult {
  sent: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  sse: { tracked: number; received: number; p50: number; p95: number } | null;
}

class LoadGenerator {
  private child: ChildProcess;
  private ready: Promise<void>;
  constructor() {
    this.child = fork(path.join(import.meta.dirname, 'bench-ingest-load.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    this.ready = new Promise((resolve) => this.child.once('message', () => resolve()));
  }
  async run(phase: Record<string, unknown>): Promise<PhaseResult> {
    await this.ready;
    return new Promise((resolve, reject) => {
      this.child.once('message', (msg: { type: string; result?: PhaseResult; error?: string }) =>
        msg.type === 'result' ? resolve(msg.result!) : reject(new Error(msg.error)),
      );
      this.child.send({ type: 'run', phase });
    });
  }
  close() {
    this.child.send({ type: 'exit' });
  }
}

interface Target {
  name: 'sqlite' | 'postgres';
  url: string;
}

const ok = (r: PhaseResult) => r.statuses['202'] ?? 0;
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function benchAlertdesk(target: Target, load: LoadGenerator) {
  const store = freshDatabase(target);
  const config: Config = {
    ...loadConfig({}),
    databaseUrl: store.url,
    databaseSchema: store.schema,
    webDir: null,
    logLevel: 'silent',
    publicUrl: 'http://127.0.0.1',
  };
  const { app, deps } = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}`;

  // A tenant, its owner's session (for the live stream) and a few integration keys, through the real API.
  const reg = await app.inject({
    method: 'POST',
    url: '/api/functions/registerUserWithTenant',
    payload: { userData: { email: `bench-${randomUUID().slice(0, 8)}@example.com`, password: 'bench-pass', displayName: 'Bench' }, tenantData: { name: 'Bench MSP', plan: 'trial' } },
  });
  const tenantId = reg.json().tenantId as string;
  const session = reg.cookies.find((c) => c.name === 'alertdesk_session')!.value;
  const cookie = `alertdesk_session=${session}`;
  const keys: string[] = [];
  for (let k = 0; k < KEYS; k++) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/tenants/${tenantId}/integrations`,
      headers: { cookie, origin: 'http://127.0.0.1' },
      payload: { name: `Prometheus ${k + 1}` },
    });
    keys.push(res.json().key);
  }
  const url = `${base}/v2/enqueue`;
  const ms = SECONDS * 1000;

  const warm = await load.run({ mode: 'max', url, keys, prefix: 'warm', concurrency: CONCURRENCY, durationMs: 1500 });
  const created = await load.run({ mode: 'max', url, keys, prefix: 'new', concurrency: CONCURRENCY, durationMs: ms });
  const dedup = await load.run({ mode: 'max', url, keys, prefix: 'dup', dedupSpace: 200, concurrency: CONCURRENCY, durationMs: ms });
  const fixed = await load.run({
    mode: 'rate',
    rate: 1000,
    url,
    keys,
    prefix: 'rate',
    concurrency: 256,
    durationMs: ms,
    sse: { url: `${base}/api/tenants/${tenantId}/events`, cookie, every: 5 },
  });

  const rules = await benchRules(app, { tenantId, cookie, url }, load);

  const counts = await sql<{ alerts: number; occurrences: number }>`select count(*) as alerts, coalesce(sum(occurrences), 0) as occurrences from alerts`.execute(deps.db);
  const stored = counts.rows[0];
  await app.close();
  await store.drop();

  // Every 202 must be a stored event: new keys made alerts, repeated keys raised an open alert's occurrence count.
  const answers = ok(warm) + ok(created) + ok(dedup) + ok(fixed) + rules.answers;
  return { created, dedup, fixed, rules, stored: { alerts: Number(stored.alerts), occurrences: Number(stored.occurrences) }, answers };
}

/** Ten routing rules over the fields a rule reads, every op: the first nine match none of the events, the last all. */
const TEN_RULES = [
  { when: [{ field: 'title', op: 'contains', value: 'backup failed' }], then: { priority: 'critical' } },
  { when: [{ field: 'source', op: 'equals', value: 'fs01.acme.local' }], then: { clientFrom: 'source' } },
  { when: [{ field: 'tags.customer', op: 'exists' }], then: { clientFrom: 'tags.customer' } },
  { when: [{ field: 'metadata.customer', op: 'equals', value: 'globex' }], then: { priority: 'low' } },
  { when: [{ field: 'title', op: 'matches', value: '^(Watchdog|InfoInhibitor)$' }], then: { drop: true } },
  { when: [{ field: 'source', op: 'matches', value: '^globex-' }, { field: 'priority', op: 'equals', value: 'critical' }], then: { priority: 'high' } },
  { when: [{ field: 'description', op: 'contains', value: 'maintenance' }], then: { drop: true } },
  { when: [{ field: 'dedupKey', op: 'matches', value: '^initech-[0-9]+$' }], then: { dedupKey: 'initech-{{source}}' } },
  { when: [{ field: 'client', op: 'equals', value: 'Umbrella' }], then: { priority: 'medium' } },
  { when: [{ field: 'source', op: 'matches', value: '\\.prod\\.example\\.com$' }], then: { priority: 'high' } },
];

/**
 * Issue 28's cost of routing rules: new alerts/s through integrations with TEN_RULES beside integrations without
 * rules, in the same server and database, alternated in twelve quarter-length phases (ruled, plain, plain, ruled,
 * three times) so the table's growth and the machine's other work weigh on both alike.
 */
async function benchRules(app: Awaited<ReturnType<typeof buildApp>>['app'], t: { tenantId: string; cookie: string; url: string }, load: LoadGenerator) {
  const headers = { cookie: t.cookie, origin: 'http://127.0.0.1' };
  const make = async (name: string, rules: unknown[] | null) => {
    const keys: string[] = [];
    for (let k = 0; k < KEYS; k++) {
      const res = await app.inject({ method: 'POST', url: `/api/tenants/${t.tenantId}/integrations`, headers, payload: { name: `${name} ${k + 1}` } });
      if (rules) {
        const put = await app.inject({ method: 'PUT', url: `/api/tenants/${t.tenantId}/integrations/${res.json().integration.id}/rules`, headers, payload: { rules } });
        if (put.statusCode !== 200) throw new Error(`saving the rules answered ${put.statusCode}: ${put.body}`);
      }
      keys.push(res.json().key);
    }
    return keys;
  };
  const plainKeys = await make('Plain', null);
  const ruledKeys = await make('Ruled', TEN_RULES);
  const quarter = (SECONDS * 1000) / 4;
  const phase = (keys: string[], prefix: string) => load.run({ mode: 'max', url: t.url, keys, prefix, concurrency: CONCURRENCY, durationMs: quarter });
  const warm = await load.run({ mode: 'max', url: t.url, keys: ruledKeys, prefix: 'rwarm', concurrency: CONCURRENCY, durationMs: 1000 });
  const runs = { plain: [] as PhaseResult[], ruled: [] as PhaseResult[] };
  // Three times ruled, plain, plain, ruled: a drift (the table growing, other work on the machine) cancels out.
  for (const cycle of [0, 1, 2]) {
    runs.ruled.push(await phase(ruledKeys, `ruled${cycle}a`));
    for (const round of ['a', 'b']) runs.plain.push(await phase(plainKeys, `plain${cycle}${round}`));
    runs.ruled.push(await phase(ruledKeys, `ruled${cycle}b`));
  }
  const rate = (list: PhaseResult[]) => (list.reduce((n, r) => n + ok(r), 0) / list.reduce((ms, r) => ms + r.elapsedMs, 0)) * 1000;
  // Every 202 (the warm-up's too) is a stored event, for the stored-vs-answered check.
  const all = [warm, ...runs.plain, ...runs.ruled];
  return { plain: rate(runs.plain), ruled: rate(runs.ruled), answers: all.reduce((n, r) => n + ok(r), 0), evaluation: ruleEvaluationMicros() };
}

/** What the ten rules cost one event on their own, in microseconds (the CPU time the ratio above is about). */
function ruleEvaluationMicros() {
  const events = Array.from({ length: 1000 }, (_, i) =>
    fromPagerDuty({ routing_key: 'k', event_action: 'trigger', dedup_key: `d-${i}`, payload: { summary: `High CPU on web-${i % 50}.prod: 97% for 5 minutes`, source: `web-${i % 50}.prod.example.com`, severity: 'critical', component: 'nginx', group: 'prod-web', class: 'cpu', custom_details: { cpu: '97%' } } } as PagerDutyEvent),
  );
  const rules = TEN_RULES as RoutingRule[];
  for (let i = 0; i < 20_000; i++) applyRules(rules, events[i % 1000]);
  const started = process.hrtime.bigint();
  const n = 200_000;
  for (let i = 0; i < n; i++) applyRules(rules, events[i % 1000]);
  return Number(process.hrtime.bigint() - started) / 1e3 / n;
}

/**
 * The reference of issue 14: bare Fastify validating the same body with a JSON schema (Fastify's own compiled
 * validator and serializer, from the same contract) and inserting one row per event through the driver itself (a
 * prepared statement, no query builder), same database settings: what the hardware allows a durable route.
 */
async function benchBare(target: Target, load: LoadGenerator) {
  const store = freshDatabase(target);
  const ddl = 'create table bench_events (id text primary key, routing_key text not null, dedup_key text not null, summary text not null, payload text not null, created_at text not null)';
  const insertSql = (p: (n: number) => string) => `insert into bench_events (id, routing_key, dedup_key, summary, payload, created_at) values (${[1, 2, 3, 4, 5, 6].map(p).join(', ')})`;
  let insert: (values: string[]) => Promise<void> | void;
  let close: () => Promise<void>;
  if (target.name === 'sqlite') {
    const sqlite = new BetterSqlite(store.url);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.exec(ddl);
    const stmt = sqlite.prepare(insertSql(() => '?'));
    insert = (values) => void stmt.run(values);
    close = async () => void sqlite.close();
  } else {
    const boot = new pg.Client({ connectionString: store.url });
    await boot.connect();
    await boot.query(`create schema "${store.schema}"`);
    await boot.end();
    const pool = new pg.Pool({ connectionString: store.url, max: 10, options: `-c search_path="${store.schema}"` });
    await pool.query(ddl);
    const text = insertSql((n) => `$${n}`);
    insert = async (values) => void (await pool.query({ name: 'bench_insert', text, values }));
    close = () => pool.end();
  }
  const app = Fastify({ logger: false, bodyLimit: 512 * 1024 });
  const jsonSchema = (schema: z.ZodType) => {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-07', io: 'input' }) as Record<string, unknown>;
    return rest;
  };
  app.post<{ Body: PagerDutyEvent }>('/v2/enqueue', { schema: { body: jsonSchema(PagerDutyEvent), response: { 202: jsonSchema(PagerDutyAccepted) } } }, async (req, reply) => {
    const dedupKey = req.body.dedup_key ?? randomUUID();
    await insert([randomUUID(), req.body.routing_key, dedupKey, req.body.payload?.summary ?? '', JSON.stringify(req.body), new Date().toISOString()]);
    return reply.code(202).send({ status: 'success' as const, message: 'Event processed', dedup_key: dedupKey });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/v2/enqueue`;
  const keys = ['bare'];
  await load.run({ mode: 'max', url, keys, prefix: 'warm', concurrency: CONCURRENCY, durationMs: 1500 });
  const result = await load.run({ mode: 'max', url, keys, prefix: 'bare', concurrency: CONCURRENCY, durationMs: SECONDS * 1000 });
  await app.close();
  await close();
  await store.drop();
  return result;
}

function report(target: Target, ours: Awaited<ReturnType<typeof benchAlertdesk>>, bare: PhaseResult) {
  const ratio = ours.created.perSecond / bare.perSecond;
  const other = (r: PhaseResult) =>
    Object.entries(r.statuses)
      .filter(([s]) => s !== '202')
      .map(([s, n]) => `${n}×${s}`)
      .join(', ') || 'none';
  const lines = [
    `\n== ${target.name} (${os.cpus().length} CPUs, ${CONCURRENCY} connections, ${KEYS} integration keys, ${SECONDS} s per phase) ==`,
    `new alerts/s            ${fmt(ours.created.perSecond)}   (target ≥ ${fmt(TARGETS[target.name])})   p50 ${fmt(ours.created.p50, 1)} ms, p99 ${fmt(ours.created.p99, 1)} ms; other answers: ${other(ours.created)}`,
    `dedup updates/s         ${fmt(ours.dedup.perSecond)}   p50 ${fmt(ours.dedup.p50, 1)} ms, p99 ${fmt(ours.dedup.p99, 1)} ms; other answers: ${other(ours.dedup)}`,
    `at 1,000 events/s       p50 ${fmt(ours.fixed.p50, 2)} ms, p99 ${fmt(ours.fixed.p99, 2)} ms, max ${fmt(ours.fixed.max, 1)} ms   (target p99 ≤ 25 ms); other answers: ${other(ours.fixed)}`,
    `ingest → dashboard      p50 ${fmt(ours.fixed.sse?.p50 ?? 0, 1)} ms, p95 ${fmt(ours.fixed.sse?.p95 ?? 0, 1)} ms over the live stream (${ours.fixed.sse?.received}/${ours.fixed.sse?.tracked} tracked events seen)   (target p95 ≤ 100 ms)`,
    `stored vs answered      ${fmt(ours.stored.occurrences)} events stored (occurrences over ${fmt(ours.stored.alerts)} alerts) / ${fmt(ours.answers)} answers 202   ${ours.stored.occurrences === ours.answers ? 'equal' : 'DIFFERENT'}`,
    `bare Fastify route      ${fmt(bare.perSecond)} inserts/s  →  ratio ${ratio.toFixed(2)}   (target ≥ 0.60)`,
    `10 routing rules        ${fmt(ours.rules.ruled)} new alerts/s with 10 rules per integration (the last matching), ${fmt(ours.rules.plain)} without  →  ratio ${(ours.rules.ruled / ours.rules.plain).toFixed(2)}   (target ≥ 0.90); the rules alone: ${fmt(ours.rules.evaluation, 2)} µs an event`,
  ];
  console.log(lines.join('\n'));
}

/**
 * Issue 31's cost of maintenance windows (`--maintenance-only` runs just this): new alerts/s into a tenant with no
 * window, into a tenant with 100 windows none of which holds the alert (weekly ones on other days, one-off ones past
 * or to come, scoped to other clients or to the whole tenant), and into that tenant's client inside an active window
 * (the alert is held: stored, paging nobody until the window ends). Own server and database; the three take turns in
 * half-length phases, forth and back, so the table's growth and the machine's other work weigh on each alike. The
 * windows are evaluated per alert in microseconds (maintenance-windows.ts MaintenanceCalendar); what remains is the
 * calendar's build when paging's routing cache reloads the tenant (every 30 s, or on a change). Goal: ratio ≥ 0.95.
 */
async function benchMaintenance(target: Target, load: LoadGenerator) {
  const store = freshDatabase(target);
  const config: Config = { ...loadConfig({}), databaseUrl: store.url, databaseSchema: store.schema, webDir: null, logLevel: 'silent', publicUrl: 'http://127.0.0.1' };
  const { app, deps } = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const call = async (method: 'POST', url: string, cookie: string, payload: unknown) => {
    const res = await app.inject({ method, url, headers: { cookie, origin: 'http://127.0.0.1' }, payload: payload as object });
    if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    return res.json() as { id: string; key: string };
  };
  const tenant = async (name: string) => {
    const reg = await app.inject({
      method: 'POST',
      url: '/api/functions/registerUserWithTenant',
      payload: { userData: { email: `bench-${randomUUID().slice(0, 8)}@example.com`, password: 'bench-pass', displayName: 'Bench' }, tenantData: { name, plan: 'trial' } },
    });
    if (reg.statusCode >= 300) throw new Error(`registration answered ${reg.statusCode}: ${reg.body}`);
    return { id: reg.json().tenantId as string, cookie: `alertdesk_session=${reg.cookies.find((c) => c.name === 'alertdesk_session')!.value}` };
  };
  const keysFor = async (t: { id: string; cookie: string }, name: string, clientId: string) => {
    const keys: string[] = [];
    for (let k = 0; k < KEYS; k++) keys.push((await call('POST', `/api/tenants/${t.id}/integrations`, t.cookie, { name: `${name} ${k + 1}`, clientId })).key);
    return keys;
  };
  const plain = await tenant('No windows MSP');
  const windowed = await tenant('Windows MSP');
  // A trial allows 10 clients; the windows are scoped to 20 others.
  await deps.db.updateTable('tenants').set({ max_clients: 100 }).where('id', '=', windowed.id).execute();
  const client = async (t: { id: string; cookie: string }, name: string) => (await call('POST', `/api/tenants/${t.id}/clients`, t.cookie, { name, status: 'active' })).id;
  const plainKeys = await keysFor(plain, 'Plain', await client(plain, 'Quiet'));
  const quietId = await client(windowed, 'Quiet');
  const heldId = await client(windowed, 'Held');
  const others: string[] = [];
  for (let i = 0; i < 20; i++) others.push(await client(windowed, `Other ${i}`));
  const quietKeys = await keysFor(windowed, 'Quiet', quietId);
  const heldKeys = await keysFor(windowed, 'Held', heldId);
  // 100 windows, none over now: weekly ones on the two days that are neither yesterday, today nor tomorrow in UTC
  // (their zone is UTC), one-off ones a week past or to come; a quarter of each the whole tenant's.
  const today = new Date().getUTCDay();
  const days = [3, 4].map((d) => (today + d) % 7);
  const hour = 3_600_000;
  for (let i = 0; i < 100; i++) {
    const scope = i % 4 === 0 ? {} : { clientIds: [others[i % others.length], others[(i * 7) % others.length]] };
    const at = (h: number) => new Date(Date.now() + h * hour).toISOString();
    const body =
      i % 2 === 0
        ? { name: `Weekly ${i}`, recurrence: { days, from: '01:00', to: '05:00', timeZone: 'UTC' }, scope }
        : { name: `One-off ${i}`, start: at(i % 3 === 0 ? -200 - i : 170 + i), end: at(i % 3 === 0 ? -198 - i : 172 + i), scope };
    await call('POST', `/api/tenants/${windowed.id}/maintenanceWindows`, windowed.cookie, body);
  }
  // The held client's window: on now, for longer than the run.
  await call('POST', `/api/tenants/${windowed.id}/maintenanceWindows`, windowed.cookie, {
    name: 'Patch night',
    start: new Date(Date.now() - hour).toISOString(),
    end: new Date(Date.now() + 5 * hour).toISOString(),
    scope: { clientIds: [heldId] },
  });
  const url = `${base}/v2/enqueue`;
  const half = (SECONDS * 1000) / 2;
  const phase = (keys: string[], prefix: string) => load.run({ mode: 'max', url, keys, prefix, concurrency: CONCURRENCY, durationMs: half });
  const warm = [await phase(plainKeys, 'mwarm-p'), await phase(quietKeys, 'mwarm-q'), await phase(heldKeys, 'mwarm-h')];
  const runs = { plain: [] as PhaseResult[], quiet: [] as PhaseResult[], held: [] as PhaseResult[] };
  // Plain, quiet, held, then held, quiet, plain: each kind's mean position (and so the table's size) is the same.
  const kinds = [
    [runs.plain, plainKeys, 'mplain'],
    [runs.quiet, quietKeys, 'mquiet'],
    [runs.held, heldKeys, 'mheld'],
  ] as const;
  for (const [list, keys, prefix] of kinds) list.push(await phase(keys, `${prefix}0`));
  for (const [list, keys, prefix] of [...kinds].reverse()) list.push(await phase(keys, `${prefix}1`));
  const rate = (list: PhaseResult[]) => (list.reduce((n, r) => n + ok(r), 0) / list.reduce((ms, r) => ms + r.elapsedMs, 0)) * 1000;
  const q = await sql<{ alerts: number; held: number }>`select count(*) as alerts, count(maintenance_window_id) as held from alerts`.execute(deps.db);
  const answers = [...warm, ...runs.plain, ...runs.quiet, ...runs.held].reduce((n, r) => n + ok(r), 0);
  await app.close();
  await store.drop();
  return { plain: rate(runs.plain), quiet: rate(runs.quiet), held: rate(runs.held), alerts: Number(q.rows[0].alerts), heldAlerts: Number(q.rows[0].held), answers };
}

function reportMaintenance(target: Target, m: Awaited<ReturnType<typeof benchMaintenance>>) {
  const lines = [
    `\n== ${target.name}: maintenance windows (${CONCURRENCY} connections, ${KEYS} integration keys per kind, 2 × ${SECONDS / 2} s per kind) ==`,
    `no window               ${fmt(m.plain)} new alerts/s`,
    `100 windows, none on    ${fmt(m.quiet)} new alerts/s  →  ratio ${(m.quiet / m.plain).toFixed(2)}   (target ≥ 0.95)`,
    `client in active window ${fmt(m.held)} new alerts/s  →  ratio ${(m.held / m.plain).toFixed(2)}   (held: stored, paging nobody)`,
    `stored vs answered      ${fmt(m.alerts)} alerts (${fmt(m.heldAlerts)} held by the window) / ${fmt(m.answers)} answers 202   ${m.alerts === m.answers ? 'equal' : 'DIFFERENT'}`,
  ];
  console.log(lines.join('\n'));
}

const targets: Target[] = [{ name: 'sqlite', url: '' }];
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) targets.push({ name: 'postgres', url: pgUrl });

const load = new LoadGenerator();
try {
  for (const target of targets) {
    if (!args['maintenance-only']) {
      const ours = await benchAlertdesk(target, load);
      const bare = await benchBare(target, load);
      report(target, ours, bare);
    }
    reportMaintenance(target, await benchMaintenance(target, load));
  }
} finally {
  load.close();
}
