import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { MemoryMailer, testDatabases } from '../test/test-app.ts';
import { registerOwner } from '../test/factories.ts';
import { createIntegration, ingest } from '../test/alerts.ts';

/** Every line the app's logger writes, kept in memory. */
class LogCapture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text() {
    return this.lines.join('\n');
  }
}

for (const db of testDatabases()) {
  describe(`request log [${db.name}]`, () => {
    const log = new LogCapture();
    let built: BuiltApp;
    let tmpDir: string | null = null;
    const schema = db.name === 'postgres' ? `t_log_${randomBytes(4).toString('hex')}` : null;

    beforeAll(async () => {
      if (db.name === 'sqlite') tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-log-'));
      const config = {
        ...loadConfig({ PUBLIC_URL: 'http://localhost:3000' }),
        databaseUrl: tmpDir ? path.join(tmpDir, 'test.db') : db.url,
        databaseSchema: schema,
        webDir: null,
        logLevel: 'info',
      };
      built = await buildApp(config, { mailer: new MemoryMailer(), logger: { stream: log } });
      await built.app.ready();
    });
    afterAll(async () => {
      await built?.app.close();
      if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
      if (schema) {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      }
    });

    it('writes integration keys, invitation and reset tokens and OIDC codes to the log only as [redacted]', async () => {
      const { app } = built;
      const owner = await registerOwner(app);
      const { key } = await createIntegration(owner.agent, owner.tenantId);
      const token = `tok${randomBytes(16).toString('hex')}`;
      const code = `code${randomBytes(12).toString('hex')}`;
      log.lines.length = 0;

      expect((await ingest(app, `/api/ingest/events/${key}`, { title: 'Disk full' })).statusCode).toBe(202);
      expect((await ingest(app, `/api/ingest/alertmanager/${key}?x=1`, { status: 'firing', alerts: [{ labels: { alertname: 'A' } }] })).statusCode).toBe(202);
      await ingest(app, `/api/ingest/events/${key}/`, { title: 'trailing slash' });
      await ingest(app, `/v2/enqueue/${key}`, {});
      await ingest(app, `/api/ingest/events?routing_key=${key}`, { title: 'key as a query parameter' });
      await app.inject({ method: 'GET', url: `/api/invitations/${token}` });
      await app.inject({ method: 'POST', url: `/api/invitations/${token}/accept`, headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' }, payload: '{}' });
      await app.inject({ method: 'GET', url: `/invitations/${token}` });
      await app.inject({ method: 'GET', url: `/ack/${token}` });
      await app.inject({ method: 'GET', url: `/api/ack/${token}` });
      await app.inject({ method: 'GET', url: `/reset-password?token=${token}&welcome=1` });
      await app.inject({ method: 'GET', url: `/api/auth/oidc/callback?code=${code}&state=${token}` });
      await app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${key}`, cookie: `alertdesk_session=${token}` } });

      const text = log.text;
      expect(log.lines.length).toBeGreaterThan(10);
      expect(text).not.toContain(key);
      expect(text).not.toContain(token);
      expect(text).not.toContain(code);
      const urls = log.lines.map((l) => JSON.parse(l).req?.url).filter(Boolean);
      expect(urls).toEqual(
        expect.arrayContaining([
          '/api/ingest/events/[redacted]',
          '/api/ingest/alertmanager/[redacted]?x=1',
          '/api/invitations/[redacted]',
          '/api/invitations/[redacted]/accept',
          '/invitations/[redacted]',
          '/ack/[redacted]',
          '/api/ack/[redacted]',
          '/reset-password?token=[redacted]&welcome=1',
          '/api/auth/oidc/callback?code=[redacted]&state=[redacted]',
          '/api/ingest/events?routing_key=[redacted]',
        ]),
      );
      // Other URLs stay as they were: ids are not secrets and make the log useful.
      expect(urls).toContain('/api/me');
    });
  });
}
