import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../config.ts';
import { buildApp } from '../app.ts';
import type { Deps } from '../deps.ts';
import type { Mail, Mailer } from '../notifications/mailer.ts';
import type { Clock } from '../jobs/job-worker.ts';
import type { Transports } from '../notifications/channel.ts';
import { copyMigratedSqlite, returnSchema, takeSchema } from './schema-pool.ts';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  url: string;
}

/** SQLite always; PostgreSQL when TEST_DATABASE_URL is set. Under CI=true a missing PostgreSQL is an error. */
export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [{ name: 'sqlite', url: '' }];
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) list.push({ name: 'postgres', url: pgUrl });
  else if (process.env.CI === 'true') throw new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL tests cannot be skipped in CI');
  return list;
}

/** A mailer that keeps what it was given, for tests that read the link out of a mail. */
export class MemoryMailer implements Mailer {
  sent: Mail[] = [];
  async send(mail: Mail) {
    this.sent.push(mail);
  }
  last(to?: string) {
    const list = to ? this.sent.filter((m) => m.to === to) : this.sent;
    return list[list.length - 1];
  }
}

export interface TestEnv {
  app: FastifyInstance;
  deps: Deps;
  db: TestDatabase;
  mailer: MemoryMailer;
  config: Config;
}

/** A fresh server over a fresh database: a temp SQLite file, or a new PostgreSQL schema dropped afterwards. */
export async function startTestApp(
  db: TestDatabase,
  overrides: Partial<Config> = {},
  mailer?: Mailer,
  /** The escalation engine's clock and transports (tests of paging move time and use local fake providers). */
  paging: { clock?: Clock; transports?: Transports; pollMs?: number } = {},
): Promise<TestEnv & { close(): Promise<void> }> {
  let tmpDir: string | null = null;
  let databaseUrl = db.url;
  let databaseSchema: string | null = null;
  if (db.name === 'sqlite') {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-test-'));
    databaseUrl = path.join(tmpDir, 'test.db');
    await copyMigratedSqlite(databaseUrl);
  } else databaseSchema = await takeSchema(db.url);
  const config: Config = {
    // Test files register many owners from one address; the registration limit has its own test (auth.test.ts).
    // No job worker running by itself: paging tests drive it with `app.jobs.worker.runDue()` and a moved clock.
    // No SMTP listener, so the many test apps do not compete for port 2525: the inbound-mail tests turn it on at a
    // free port with `overrides: { inboundMail: inboundMailOn() }` and read the port from `app.inboundMail.port()`.
    ...loadConfig({ PUBLIC_URL: 'http://localhost:3000', REGISTER_LIMIT_IP: '100000', JOB_WORKER: 'false', INBOUND_SMTP_PORT: '0' }),
    databaseUrl,
    databaseSchema,
    webDir: null,
    logLevel: 'silent',
    ...overrides,
  };
  const memory = new MemoryMailer();
  const { app, deps } = await buildApp(config, { mailer: mailer ?? memory, logger: false, ...paging });
  await app.ready();
  return {
    app,
    deps,
    db,
    mailer: memory,
    config,
    async close() {
      await app.close();
      if (databaseSchema) await returnSchema(db.url, databaseSchema);
      removeTestDatabase(tmpDir);
    },
  };
}

/** The SMTP listener on, at a port the OS picks on the loopback address, for `overrides.inboundMail`. */
export const inboundMailOn = (domain = 'alerts.test'): Config['inboundMail'] => ({ port: 0, host: '127.0.0.1', domain, tls: null });

/** Removes a test's SQLite database: its temporary folder (a PostgreSQL schema goes back to the pool instead). */
export function removeTestDatabase(tmpDir: string | null) {
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
}

/**
 * Runs the suite once per test database with a fresh app for the whole file:
 * `describeEachDatabase('clients', (t) => { it('…', async () => { t().app … }) })`.
 */
export function describeEachDatabase(name: string, body: (env: () => TestEnv) => void, overrides: Partial<Config> = {}) {
  for (const db of testDatabases()) {
    describe(`${name} [${db.name}]`, () => {
      let env: (TestEnv & { close(): Promise<void> }) | null = null;
      beforeAll(async () => {
        env = await startTestApp(db, overrides);
      });
      afterAll(async () => {
        await env?.close();
      });
      body(() => {
        if (!env) throw new Error('test app not started');
        return env;
      });
    });
  }
}

/** An HTTP client over app.inject that keeps its own session cookie, like one browser would. */
export class Agent {
  cookie: string | null = null;
  constructor(readonly app: FastifyInstance) {}

  async request(method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse & { data: any }> {
    const res = await this.app.inject({
      method,
      url,
      headers: {
        origin: 'http://localhost:3000',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    const set = res.cookies.find((c) => c.name === 'alertdesk_session');
    if (set) this.cookie = set.value ? `alertdesk_session=${set.value}` : null;
    let data: any = null;
    try {
      data = res.body ? JSON.parse(res.body) : null;
    } catch {
      data = res.body;
    }
    return Object.assign(res, { data });
  }
  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, body: unknown = {}) {
    return this.request('POST', url, body);
  }
  put(url: string, body: unknown) {
    return this.request('PUT', url, body);
  }
  patch(url: string, body: unknown) {
    return this.request('PATCH', url, body);
  }
  delete(url: string) {
    return this.request('DELETE', url);
  }
}
