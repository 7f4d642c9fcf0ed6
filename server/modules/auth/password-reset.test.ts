import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { Agent, startTestApp, testDatabases } from '../../test/test-app.ts';
import { registerOwner, uniqueEmail } from '../../test/factories.ts';
import { useSmtpTestApp } from '../../test/smtp-app.ts';

for (const db of testDatabases()) {
  describe(`password reset through a real SMTP server [${db.name}]`, () => {
    const { env, smtp } = useSmtpTestApp(db);

    const tokenFromMail = (i?: number) => decodeURIComponent(smtp().text(i).match(/reset-password\?token=([A-Za-z0-9_%-]+)/)![1]);

    it('mails a single-use link that sets a new password and ends every session', async () => {
      const owner = await registerOwner(env().app);
      const res = await new Agent(env().app).post('/api/auth/password-reset', { email: owner.email });
      expect(res.statusCode).toBe(200);
      expect(res.data.message).toBe('If an account exists for this email, a reset link has been sent.');
      await expect.poll(() => smtp().received.length).toBe(1);
      expect(smtp().received[0].to).toEqual([owner.email]);
      expect(smtp().text()).toContain('http://localhost:3000/reset-password?token=');
      const token = tokenFromMail();

      const short = await new Agent(env().app).post('/api/auth/password-reset/confirm', { token, password: '123' });
      expect(short.statusCode).toBe(400);
      expect(short.data.error.message).toBe('Password must be at least 6 characters');

      const ok = await new Agent(env().app).post('/api/auth/password-reset/confirm', { token, password: 'brand-new-1' });
      expect(ok.statusCode).toBe(200);
      expect((await owner.agent.get('/api/me')).statusCode).toBe(401);
      const reused = await new Agent(env().app).post('/api/auth/password-reset/confirm', { token, password: 'another-one' });
      expect(reused.statusCode).toBe(400);
      expect(reused.data.error.message).toBe('This password reset link is invalid or has expired');

      const agent = new Agent(env().app);
      expect((await agent.post('/api/auth/sign-in', { email: owner.email, password: owner.password })).statusCode).toBe(401);
      expect((await agent.post('/api/auth/sign-in', { email: owner.email, password: 'brand-new-1' })).statusCode).toBe(200);
    });

    it('answers the same for an unknown address and sends nothing', async () => {
      const before = smtp().received.length;
      const res = await new Agent(env().app).post('/api/auth/password-reset', { email: uniqueEmail('nobody') });
      expect(res.statusCode).toBe(200);
      expect(res.data.message).toBe('If an account exists for this email, a reset link has been sent.');
      await new Promise((r) => setTimeout(r, 100));
      expect(smtp().received.length).toBe(before);
      const empty = await new Agent(env().app).post('/api/auth/password-reset', { email: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.data.error.message).toBe('Email is required');
    });

    it('voids every older open link of the account once a reset is done', async () => {
      const owner = await registerOwner(env().app);
      const mine = () => smtp().received.filter((m) => m.to.includes(owner.email)).length;
      for (let i = 1; i <= 3; i++) {
        await new Agent(env().app).post('/api/auth/password-reset', { email: owner.email });
        await expect.poll(mine).toBe(i);
      }
      const tokens = smtp().received.map((m, i) => (m.to.includes(owner.email) ? tokenFromMail(i) : null)).filter((x): x is string => x !== null);
      expect(new Set(tokens).size).toBe(3);
      // The newest link is used…
      expect((await new Agent(env().app).post('/api/auth/password-reset/confirm', { token: tokens[2], password: 'brand-new-1' })).statusCode).toBe(200);
      // …and the older mails no longer work, though within their hour.
      for (const token of tokens.slice(0, 2)) {
        const res = await new Agent(env().app).post('/api/auth/password-reset/confirm', { token, password: 'attacker-1' });
        expect(res.statusCode).toBe(400);
        expect(res.data.error.message).toBe('This password reset link is invalid or has expired');
      }
      const agent = new Agent(env().app);
      expect((await agent.post('/api/auth/sign-in', { email: owner.email, password: 'attacker-1' })).statusCode).toBe(401);
      expect((await agent.post('/api/auth/sign-in', { email: owner.email, password: 'brand-new-1' })).statusCode).toBe(200);
      const open = await env().deps.db.selectFrom('password_resets').select('token_hash').where('user_id', '=', owner.userId).where('used_at', 'is', null).execute();
      expect(open).toEqual([]);
    });

    it('refuses an expired link', async () => {
      const owner = await registerOwner(env().app);
      await new Agent(env().app).post('/api/auth/password-reset', { email: owner.email });
      await expect.poll(() => smtp().received.filter((m) => m.to.includes(owner.email)).length).toBe(1);
      const token = tokenFromMail();
      await env().deps.db.updateTable('password_resets').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
      const res = await new Agent(env().app).post('/api/auth/password-reset/confirm', { token, password: 'brand-new-1' });
      expect(res.statusCode).toBe(400);
      expect(res.data.error.message).toBe('This password reset link is invalid or has expired');
    });
  });
}

describe('password-reset requests per address', () => {
  for (const db of testDatabases()) {
    it(`mails at most RESET_LIMIT_IP requests from one address, whichever emails they name, and says nothing about accounts [${db.name}]`, async () => {
      expect(loadConfig({}).resetLimit).toEqual({ perIp: 20, windowMs: 3600_000 });
      expect(loadConfig({ RESET_LIMIT_IP: '5', RESET_LIMIT_WINDOW_MS: '60000' }).resetLimit).toEqual({ perIp: 5, windowMs: 60_000 });
      const env = await startTestApp(db, { resetLimit: { perIp: 3, windowMs: 3600_000 } });
      try {
        const request = (ip: string, email: string) =>
          env.app.inject({
            method: 'POST',
            url: '/api/auth/password-reset',
            remoteAddress: ip,
            headers: { origin: 'http://localhost:3000', 'content-type': 'application/json' },
            payload: JSON.stringify({ email }),
          });
        const owners = [];
        for (let i = 0; i < 4; i++) owners.push(await registerOwner(env.app));
        for (const o of owners.slice(0, 2)) expect((await request('203.0.113.30', o.email)).json()).toEqual({ ok: true, message: 'If an account exists for this email, a reset link has been sent.' });
        expect((await request('203.0.113.30', uniqueEmail('nobody'))).statusCode).toBe(200);
        expect(env.mailer.sent).toHaveLength(2);
        // Beyond the limit: the same answer for an existing and an unknown address, and no mail.
        const existing = await request('203.0.113.30', owners[2].email);
        const unknown = await request('203.0.113.30', uniqueEmail('nobody'));
        for (const res of [existing, unknown]) {
          expect(res.statusCode).toBe(429);
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
          expect(res.json().error).toEqual({ code: 'rate_limited', message: 'Too many requests. Please try again later.' });
        }
        expect(existing.body).toBe(unknown.body);
        expect(env.mailer.sent).toHaveLength(2);
        // Another address is not affected.
        expect((await request('203.0.113.31', owners[3].email)).statusCode).toBe(200);
        expect(env.mailer.sent.map((m) => m.to)).toEqual([owners[0].email, owners[1].email, owners[3].email]);
      } finally {
        await env.close();
      }
    });
  }
});
