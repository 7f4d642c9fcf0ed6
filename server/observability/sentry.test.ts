import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { MemoryMailer } from '../test/test-app.ts';
import { reportingService } from '../test/reporting-service.ts';

// Sentry's client is per process: one app, on SQLite (what is reported does not depend on the database).
describe('error reporting (production mode, SENTRY_DSN set)', () => {
  let receiver: Awaited<ReturnType<typeof reportingService>>;
  let built: BuiltApp;
  let base: string;
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-sentry-'));

  beforeAll(async () => {
    receiver = await reportingService();
    const config = {
      ...loadConfig({ PUBLIC_URL: 'http://localhost:3000', NODE_ENV: 'production', SENTRY_DSN: receiver.dsn, JOB_WORKER: 'false', INBOUND_SMTP_PORT: '0' }),
      databaseUrl: path.join(tmpDir, 'test.db'),
      webDir: null,
      logLevel: 'silent',
    };
    built = await buildApp(config, { mailer: new MemoryMailer(), logger: false });
    // A route with a bug in it, added before the server is ready like every other route.
    built.app.post('/api/test/boom', async () => {
      throw new Error('kaboom: a bug in a route');
    });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(built.app.server.address() as import('node:net').AddressInfo).port}`;
  });
  afterAll(async () => {
    await built?.app.close();
    await receiver?.close();
    fs.rmSync(tmpDir, { recursive: true, force: true });
  });

  it('hands the web DSN to the browser at run time', async () => {
    const config = await (await fetch(`${base}/api/config`)).json();
    expect(config.sentryDsn).toBe(receiver.dsn);
  });

  it('reports an unhandled route error exactly once, with its request id, without cookie, authorization or password', async () => {
    const secrets = { cookie: 'cookie-value-5f1e9a', bearer: 'bearer-value-77c2d0', password: 'password-value-a9b8c7', token: 'token-value-3e4d5c', key: 'integrationkey0123456789abcdef01' };
    const res = await fetch(`${base}/api/test/boom?token=${secrets.token}&page=2`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'http://localhost:3000',
        cookie: `alertdesk_session=${secrets.cookie}`,
        authorization: `Bearer ${secrets.bearer}`,
      },
      body: JSON.stringify({ email: 'someone@example.com', password: secrets.password }),
    });
    expect(res.status).toBe(500);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    expect(await res.json()).toEqual({ error: { code: 'internal', message: 'Internal server error', requestId } });

    // Errors that are not bugs are not reported: a 401, a 404, a 400.
    expect((await fetch(`${base}/api/me`)).status).toBe(401);
    expect((await fetch(`${base}/api/ingest/events/${secrets.key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' })).status).toBe(401);
    expect((await fetch(`${base}/api/nothing-here`)).status).toBe(404);
    expect((await fetch(`${base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' }, body: '{}' })).status).toBe(400);

    await expect.poll(() => receiver.items().filter((i) => i.type === 'event').length).toBe(1);
    // Closing flushes whatever is still queued: still exactly one error event.
    await built.app.close();
    const events = receiver.items().filter((i) => i.type === 'event');
    expect(events).toHaveLength(1);
    const event = events[0].payload;
    expect(event.exception.values[0].value).toBe('kaboom: a bug in a route');
    expect(event.tags.request_id).toBe(requestId);
    expect(event.tags.route).toBe('/api/test/boom');
    expect(event.environment).toBe('production');

    // Nothing secret in anything sent (error events, transactions, sessions).
    const sent = receiver.envelopes.join('\n');
    for (const secret of Object.values(secrets)) expect(sent).not.toContain(secret);
    expect(sent).not.toContain('someone@example.com');
  });
});
