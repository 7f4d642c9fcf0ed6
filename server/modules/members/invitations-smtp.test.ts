import { describe, expect, it } from 'vitest';
import { Agent, startTestApp, testDatabases } from '../../test/test-app.ts';
import { registerOwner, uniqueEmail } from '../../test/factories.ts';
import { useSmtpTestApp } from '../../test/smtp-app.ts';
import { createMailer } from '../../notifications/mailer.ts';

for (const db of testDatabases()) {
  describe(`invitations through a real SMTP server [${db.name}]`, () => {
    const { env, smtp } = useSmtpTestApp(db);

    const mailTo = (email: string) => smtp().received.findLastIndex((m) => m.to.includes(email));
    const tokenFrom = (i: number) => decodeURIComponent(smtp().text(i).match(/\/invitations\/([A-Za-z0-9_%-]+)/)![1]);

    it('mails the invitation link, which a new person follows to join with a name and password', async () => {
      const owner = await registerOwner(env().app, { name: 'Sam Sender', tenantName: 'SMTP MSP' });
      const email = uniqueEmail('smtp');
      const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email, role: 'admin' });
      expect(res.statusCode).toBe(201);
      expect(res.data.emailSent).toBe(true);
      await expect.poll(() => mailTo(email)).toBeGreaterThanOrEqual(0);
      const i = mailTo(email);
      expect(smtp().received[i].from).toBe('no-reply@alertdesk.test');
      expect(smtp().text(i)).toContain("Subject: You're invited to join SMTP MSP on Alertdesk");
      expect(smtp().text(i)).toContain('Sam Sender invited you to join SMTP MSP on Alertdesk as Admin.');
      expect(smtp().text(i)).toContain('http://localhost:3000/invitations/');
      const token = tokenFrom(i);

      const visitor = new Agent(env().app);
      expect((await visitor.get(`/api/invitations/${token}`)).data).toMatchObject({ tenantName: 'SMTP MSP', email, role: 'admin', accountExists: false });
      const joined = await visitor.post(`/api/invitations/${token}/register`, { displayName: 'Mia Mail', password: 'secret123' });
      expect(joined.statusCode).toBe(200);
      expect(joined.data.me.tenants).toEqual([expect.objectContaining({ id: owner.tenantId, role: 'admin' })]);
      const reused = await new Agent(env().app).post(`/api/invitations/${token}/register`, { displayName: 'Mia Again', password: 'secret123' });
      expect(reused.statusCode).toBe(404);
      expect(reused.data.error.message).toBe('This invitation link is invalid or has expired');
    });

    it('mails a resent invitation with a new link for an existing account', async () => {
      const owner = await registerOwner(env().app, { tenantName: 'Resend MSP' });
      const invitee = await registerOwner(env().app, { tenantName: 'Invitee MSP' });
      const member = (await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email: invitee.email })).data.member;
      await expect.poll(() => mailTo(invitee.email)).toBeGreaterThanOrEqual(0);
      const first = tokenFrom(mailTo(invitee.email));
      const before = smtp().received.length;
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/members/${member.id}/resend`, {})).data.emailSent).toBe(true);
      await expect.poll(() => smtp().received.length).toBe(before + 1);
      const second = tokenFrom(mailTo(invitee.email));
      expect(second).not.toBe(first);
      expect((await invitee.agent.post(`/api/invitations/${first}/accept`, {})).statusCode).toBe(404);
      expect((await invitee.agent.post(`/api/invitations/${second}/accept`, {})).data.tenantName).toBe('Resend MSP');
    });
  });
}

describe('invitation email failure', () => {
  it('keeps the invitation and says the email was not sent when the SMTP server is unreachable', async () => {
    const [db] = testDatabases();
    // Nothing listens on port 9 of 127.0.0.1: the connection is refused at once.
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:9', from: 'Alertdesk <no-reply@alertdesk.test>', log: { info: () => {} } });
    const env = await startTestApp(db, { smtpUrl: 'smtp://127.0.0.1:9' }, mailer);
    try {
      const owner = await registerOwner(env.app);
      const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email: uniqueEmail('unsent') });
      expect(res.statusCode).toBe(201);
      expect(res.data).toMatchObject({ emailSent: false, member: { status: 'invited' } });
      expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.total).toBe(2);
    } finally {
      await env.close();
    }
  });
});
