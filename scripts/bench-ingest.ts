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
import { freshDatabase } from './bench-db.ts';

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '8' }, concurrency: { type: 'string', default: '50' }, keys: { type: 'string', default: '8' } },
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

  const counts = await sql<{ alerts: number; occurrences: number }>`select count(*) as alerts, coalesce(sum(occurrences), 0) as occurrences from alerts`.execute(deps.db);
  const stored = counts.rows[0];
  await app.close();
  await store.drop();

  // Every 202 must be a stored event: new keys made alerts, repeated keys raised an open alert's occurrence count.
  const answers = ok(warm) + ok(created) + ok(dedup) + ok(fixed);
  return { created, dedup, fixed, stored: { alerts: Number(stored.alerts), occurrences: Number(stored.occurrences) }, answers };
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
  ];
  console.log(lines.join('\n'));
}

const targets: Target[] = [{ name: 'sqlite', url: '' }];
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) targets.push({ name: 'postgres', url: pgUrl });

const load = new LoadGenerator();
try {
  for (const target of targets) {
    const ours = await benchAlertdesk(target, load);
    const bare = await benchBare(target, load);
    report(target, ours, bare);
  }
} finally {
  load.close();
}
