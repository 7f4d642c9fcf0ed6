import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_MSG, MSG } from '../../../contract/messages.ts';
import { Agent, startTestApp, testDatabases } from '../../test/test-app.ts';
import { registerOwner, uniqueEmail } from '../../test/factories.ts';
import { startSmtpServer } from '../../test/smtp.ts';
import { createMailer } from '../mail/mailer.ts';

for (const db of testDatabases()) {
  describe(`password reset through a real SMTP server [${db.name}]`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let env: Awaited<ReturnType<typeof startTestApp>>;
    beforeAll(async () => {
      smtp = await startSmtpServer();
      const mailer = createMailer({ smtpUrl: smtp.url, from: 'Alertdesk <no-reply@alertdesk.test>', log: { info: () => {} } });
      env = await startTestApp(db, { smtpUrl: smtp.url }, mailer);
    });
    afterAll(async () => {
      await env?.close();
      await smtp?.close();
    });

    const tokenFromMail = (i?: number) => decodeURIComponent(smtp.text(i).match(/reset-password\?token=([A-Za-z0-9_%-]+)/)![1]);

    it('mails a single-use link that sets a new password and ends every session', async () => {
      const owner = await registerOwner(env.app);
      const res = await new Agent(env.app).post('/api/auth/password-reset', { email: owner.email });
      expect(res.statusCode).toBe(200);
      expect(res.data.message).toBe(OWN_MSG.resetEmailSent);
      await expect.poll(() => smtp.received.length).toBe(1);
      expect(smtp.received[0].to).toEqual([owner.email]);
      expect(smtp.text()).toContain('http://localhost:3000/reset-password?token=');
      const token = tokenFromMail();

      const short = await new Agent(env.app).post('/api/auth/password-reset/confirm', { token, password: '123' });
      expect(short.statusCode).toBe(400);
      expect(short.data.error.message).toBe(MSG.passwordTooShort);

      const ok = await new Agent(env.app).post('/api/auth/password-reset/confirm', { token, password: 'brand-new-1' });
      expect(ok.statusCode).toBe(200);
      expect((await owner.agent.get('/api/me')).statusCode).toBe(401);
      const reused = await new Agent(env.app).post('/api/auth/password-reset/confirm', { token, password: 'another-one' });
      expect(reused.statusCode).toBe(400);
      expect(reused.data.error.message).toBe(OWN_MSG.resetLinkInvalid);

      const agent = new Agent(env.app);
      expect((await agent.post('/api/auth/sign-in', { email: owner.email, password: owner.password })).statusCode).toBe(401);
      expect((await agent.post('/api/auth/sign-in', { email: owner.email, password: 'brand-new-1' })).statusCode).toBe(200);
    });

    it('answers the same for an unknown address and sends nothing', async () => {
      const before = smtp.received.length;
      const res = await new Agent(env.app).post('/api/auth/password-reset', { email: uniqueEmail('nobody') });
      expect(res.statusCode).toBe(200);
      expect(res.data.message).toBe(OWN_MSG.resetEmailSent);
      await new Promise((r) => setTimeout(r, 100));
      expect(smtp.received.length).toBe(before);
      const empty = await new Agent(env.app).post('/api/auth/password-reset', { email: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.data.error.message).toBe(MSG.emailRequired);
    });

    it('refuses an expired link', async () => {
      const owner = await registerOwner(env.app);
      await new Agent(env.app).post('/api/auth/password-reset', { email: owner.email });
      await expect.poll(() => smtp.received.filter((m) => m.to.includes(owner.email)).length).toBe(1);
      const token = tokenFromMail();
      await env.deps.db.updateTable('password_resets').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
      const res = await new Agent(env.app).post('/api/auth/password-reset/confirm', { token, password: 'brand-new-1' });
      expect(res.statusCode).toBe(400);
      expect(res.data.error.message).toBe(OWN_MSG.resetLinkInvalid);
    });
  });
}
