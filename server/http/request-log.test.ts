import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test/test-app.ts';
import { registerOwner } from '../test/factories.ts';
import { createIntegration, ingest } from '../test/alerts.ts';
import { useLoggedApp } from '../test/logs.ts';

for (const db of testDatabases()) {
  describe(`request log [${db.name}]`, () => {
    const { log, built } = useLoggedApp(db, { logLevel: 'info' });

    it('writes integration keys, invitation and reset tokens and OIDC codes to the log only as [redacted]', async () => {
      const { app } = built();
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
      // Percent-encoded paths that the router decodes to the same routes.
      expect((await ingest(app, `/api/ingest/%65vents/${key}`, { title: 'Encoded path' })).statusCode).toBe(202);
      await app.inject({ method: 'GET', url: `/api/calendar%46eeds/${token}.ics` });
      await app.inject({ method: 'GET', url: `/api/%61ck/${token}` });
      await app.inject({ method: 'GET', url: `/%69nvitations/${token}` });
      // The digest's "turn off" link and a chat post's one-time link (API and page).
      await app.inject({ method: 'GET', url: `/api/digest/off/${token}` });
      await app.inject({ method: 'GET', url: `/digest/off/${token}` });
      await app.inject({ method: 'GET', url: `/api/chat-links/${token}` });
      await app.inject({ method: 'GET', url: `/app/chat/${token}` });
      // An SMS page's short acknowledge link, plain and encoded.
      await app.inject({ method: 'GET', url: `/a/${code}` });
      await app.inject({ method: 'GET', url: `/%61/${code}x` });

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
          '/api/digest/off/[redacted]',
          '/digest/off/[redacted]',
          '/api/chat-links/[redacted]',
          '/app/chat/[redacted]',
          '/reset-password?token=[redacted]&welcome=1',
          '/api/auth/oidc/callback?code=[redacted]&state=[redacted]',
          '/api/ingest/events?routing_key=[redacted]',
          '/api/ingest/%65vents/[redacted]',
          '/api/calendar%46eeds/[redacted]',
          '/api/%61ck/[redacted]',
          '/%69nvitations/[redacted]',
          '/a/[redacted]',
          '/%61/[redacted]',
        ]),
      );
      // Other URLs stay as they were: ids are not secrets and make the log useful.
      expect(urls).toContain('/api/me');
    });
  });
}
