// What the benchmarks that drive the server from outside share: the server started as `npm start` starts it (its own
// process), a mail server that takes (or refuses, or slowly answers) its mail, an API client with a session, and
// the run on SQLite and on PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(import.meta.dirname, '..');

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

/** A process's CPU time so far (user + system, all threads), from /proc (Linux). */
export function processCpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
/** Linux's USER_HZ: /proc counts CPU time in these. */
const CLOCK_TICKS = 100;

/** The mail server: when each page (found by the number in its alert's title) was accepted. */
export async function startInbox(mode: 'ok' | 'refuse' | 'slow') {
  const accepted = new Map<number, number>();
  let mails = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, cb) {
      if (mode === 'refuse') return cb(new Error('no mail today'));
      cb();
    },
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const at = performance.now();
        mails++;
        const m = /Inbox bench (\d+)/.exec(Buffer.concat(chunks).toString('latin1'));
        if (m && !accepted.has(Number(m[1]))) accepted.set(Number(m[1]), at);
        if (mode === 'slow') setTimeout(cb, 2000);
        else cb();
      });
    },
  });
  // Clients that go away mid-connection (the server stopped with its pooled connections open) are 'error' events.
  server.on('error', () => {});
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  // `refuse`: nothing listens (connection refused), like a mail server that is down.
  if (mode === 'refuse') await new Promise<void>((r) => server.close(() => r()));
  return { port, accepted, mails: () => mails, close: () => new Promise<void>((r) => (mode === 'refuse' ? r() : server.close(() => r()))) };
}

export async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', path.join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REGISTER_LIMIT_IP: '1000', INBOUND_SMTP_PORT: '0', WEB_DIR: path.join(os.tmpdir(), 'no-web'), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/api/health/ready`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the server did not start');
}

/** A client with a cookie jar, speaking to the API as the browser does. */
export function apiClient(base: string) {
  let cookie = '';
  return async (method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, { method, headers: { origin: base, ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('alertdesk_session='));
    if (set) cookie = set.split(';')[0];
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : null;
  };
}


/**
 * Runs `run` on a fresh SQLite file and, with BENCH_DATABASE_URL or TEST_DATABASE_URL, in a fresh PostgreSQL schema
 * (`only`: one of them); `run` gets the database's name and the environment that points the server at it.
 */
export async function eachDatabase(prefix: string, only: string | undefined, run: (name: string, env: Record<string, string>) => Promise<void>) {
  if (!only || only === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    try {
      await run('sqlite', { DATABASE_URL: path.join(dir, 'bench.db') });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl && (!only || only === 'postgres')) {
    const schema = `${prefix}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema "${schema}"`);
    try {
      await run('postgres', { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema });
    } finally {
      await admin.query(`drop schema "${schema}" cascade`);
      await admin.end();
    }
  } else if (!pgUrl && only !== 'sqlite') console.log('postgres   skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
}
