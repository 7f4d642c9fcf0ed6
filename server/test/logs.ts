import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Mailer } from '../notifications/mailer.ts';
import { MemoryMailer, removeTestDatabase, type TestDatabase } from './test-app.ts';
import { returnSchema, takeSchema } from './schema-pool.ts';

/** Every line the app's logger writes, kept in memory. */
export class LogCapture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text() {
    return this.lines.join('\n');
  }
}

/**
 * For the describe it is called in: an app whose logger writes into `log` (unlike `startTestApp`, whose app logs
 * nothing), over a fresh database (a temp SQLite file, or a new PostgreSQL schema), built before its tests and closed,
 * database removed, after them. `env` adds to the environment the config is loaded from; read the app with `built()`.
 */
export function useLoggedApp(db: TestDatabase, opts: { logLevel: string; mailer?: Mailer; env?: Record<string, string> }) {
  const log = new LogCapture();
  let built: BuiltApp | undefined;
  let tmpDir: string | null = null;
  let schema: string | null = null;
  beforeAll(async () => {
    if (db.name === 'sqlite') tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-log-'));
    else schema = await takeSchema(db.url);
    const config = {
      ...loadConfig({ PUBLIC_URL: 'http://localhost:3000', INBOUND_SMTP_PORT: '0', ...opts.env }),
      databaseUrl: tmpDir ? path.join(tmpDir, 'test.db') : db.url,
      databaseSchema: schema,
      webDir: null,
      logLevel: opts.logLevel,
    };
    built = await buildApp(config, { mailer: opts.mailer ?? new MemoryMailer(), logger: { stream: log } });
    await built.app.ready();
  });
  afterAll(async () => {
    await built?.app.close();
    if (schema) await returnSchema(db.url, schema);
    removeTestDatabase(tmpDir);
  });
  return {
    log,
    built() {
      if (!built) throw new Error('logged app not started');
      return built;
    },
  };
}
