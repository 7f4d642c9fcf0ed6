import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Agent, MemoryMailer, testDatabases } from '../test/test-app.ts';
import { uniqueEmail } from '../test/factories.ts';
import { createIntegration, ingest, pdTrigger } from '../test/alerts.ts';
import { useLoggedApp } from '../test/logs.ts';

const linkToken = (mailer: MemoryMailer, to: string, pattern: RegExp) => {
  const m = mailer.last(to)?.text.match(pattern);
  if (!m) throw new Error(`no link in the mail to ${to}`);
  return decodeURIComponent(m[1]);
};

for (const db of testDatabases()) {
  describe(`the log of a whole flow [${db.name}]`, () => {
    const mailer = new MemoryMailer();
    // The most verbose level: whatever any line could carry is in this log.
    const { log, built } = useLoggedApp(db, { logLevel: 'trace', mailer, env: { JOB_WORKER: 'false' } });

    it('never holds a password, session cookie, integration key, invitation or reset token; every request line has its id', async () => {
      const { app } = built();
      const secrets: string[] = [];
      const password = `pw-${randomBytes(8).toString('hex')}`;
      const email = uniqueEmail('owner');
      secrets.push(password);

      // Register, sign out, sign in again.
      const owner = new Agent(app);
      const reg = await owner.post('/api/functions/registerUserWithTenant', {
        userData: { email, password, displayName: 'Olivia Owner' },
        tenantData: { name: 'Logged MSP', plan: 'trial' },
      });
      expect(reg.statusCode).toBe(200);
      const tenantId = reg.data.tenantId as string;
      secrets.push(owner.cookie!.split('=')[1]);
      expect((await owner.post('/api/auth/sign-out')).statusCode).toBe(200);
      expect((await owner.post('/api/auth/sign-in', { email, password: `${password}-wrong` })).statusCode).toBe(401);
      secrets.push(`${password}-wrong`);
      expect((await owner.post('/api/auth/sign-in', { email, password })).statusCode).toBe(200);
      secrets.push(owner.cookie!.split('=')[1]);

      // An integration key, used in the path, in the Authorization header and as PagerDuty's routing_key.
      const { key } = await createIntegration(owner, tenantId);
      secrets.push(key);
      expect((await ingest(app, `/api/ingest/events/${key}`, { title: 'Key in the path' })).statusCode).toBe(202);
      expect((await ingest(app, '/api/ingest/events', { title: 'Key in the header' }, { authorization: `Bearer ${key}` })).statusCode).toBe(202);
      expect((await ingest(app, '/v2/enqueue', pdTrigger(key))).statusCode).toBe(202);
      expect((await ingest(app, '/v2/enqueue', { ...pdTrigger(key), event_action: 'explode' })).statusCode).toBe(400);

      // An invitation accepted by a new person with a password of their own.
      const invitee = uniqueEmail('invitee');
      expect((await owner.post(`/api/tenants/${tenantId}/members`, { email: invitee })).statusCode).toBe(201);
      const invitation = linkToken(mailer, invitee, /\/invitations\/([A-Za-z0-9_%-]+)/);
      const inviteePassword = `pw-${randomBytes(8).toString('hex')}`;
      secrets.push(invitation, inviteePassword);
      const joined = await new Agent(app).post(`/api/invitations/${invitation}/register`, { displayName: 'Nina New', password: inviteePassword });
      expect(joined.statusCode).toBe(200);

      // A password reset from its link.
      expect((await new Agent(app).post('/api/auth/password-reset', { email })).statusCode).toBe(200);
      const reset = linkToken(mailer, email, /reset-password\?token=([A-Za-z0-9_%-]+)/);
      const newPassword = `pw-${randomBytes(8).toString('hex')}`;
      secrets.push(reset, newPassword);
      await app.inject({ method: 'GET', url: `/reset-password?token=${encodeURIComponent(reset)}` });
      expect((await new Agent(app).post('/api/auth/password-reset/confirm', { token: reset, password: newPassword })).statusCode).toBe(200);

      const text = log.lines.join('\n');
      expect(log.lines.length).toBeGreaterThan(20);
      for (const secret of secrets) expect(text, `a secret is in the log`).not.toContain(secret);
      // Every line about a request carries its id.
      const entries = log.lines.map((l) => JSON.parse(l) as { reqId?: string; req?: unknown; res?: unknown });
      const requestLines = entries.filter((e) => e.req || e.res);
      expect(requestLines.length).toBeGreaterThan(20);
      for (const e of requestLines) expect(e.reqId).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
}
