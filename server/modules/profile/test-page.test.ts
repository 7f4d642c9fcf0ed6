import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGING_MSG } from '../../../contract/paging.ts';
import { TEST_PAGE_MSG } from '../../../contract/profile.ts';
import { DeliveryError, type Transports } from '../../notifications/channel.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { registerOwner } from '../../test/factories.ts';
import { savePreferences } from '../../test/paging.ts';
import { Agent, startTestApp, testDatabases } from '../../test/test-app.ts';

const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' };
const subscribe = (agent: Agent, endpoint: string) => agent.post('/api/userTokens', { token: { endpoint, expirationTime: null, keys } });

/** The providers' stand-ins, with a push service that says a subscription is gone (410) for endpoints under /gone/. */
function transportsWithGonePush(sms: boolean) {
  const fake = fakeTransports({ sms });
  const transports: Transports = {
    ...fake.transports,
    push: async (target, payload) => {
      if (target.endpoint.includes('/gone/')) throw new DeliveryError('push: subscription gone (410)', true, true);
      return fake.transports.push(target, payload);
    },
  };
  return { ...fake, transports };
}

for (const db of testDatabases()) {
  describe(`send me a test page [${db.name}]`, () => {
    const fake = transportsWithGonePush(true);
    const noSms = transportsWithGonePush(false);
    let env: Awaited<ReturnType<typeof startTestApp>>;
    let bare: Awaited<ReturnType<typeof startTestApp>>;
    beforeAll(async () => {
      env = await startTestApp(db, {}, undefined, { transports: fake.transports });
      bare = await startTestApp(db, {}, undefined, { transports: noSms.transports });
    });
    afterAll(async () => {
      await env?.close();
      await bare?.close();
    });

    it('wants a session and a known channel', async () => {
      expect((await new Agent(env.app).post('/api/profile/testPage', { channel: 'email' })).statusCode).toBe(401);
      expect((await new Agent(env.app).get('/api/profile/pushSubscription?endpoint=x')).statusCode).toBe(401);
      const owner = await registerOwner(env.app);
      const bad = await owner.agent.post('/api/profile/testPage', { channel: 'pigeon' });
      expect(bad.statusCode).toBe(400);
      expect(bad.data.error.fields.channel).toBe(TEST_PAGE_MSG.channelInvalid);
      expect((await owner.agent.get('/api/profile/pushSubscription')).statusCode).toBe(400);
    });

    it('sends an email test page through the notifier and says a provider’s refusal', async () => {
      const owner = await registerOwner(env.app);
      const ok = await owner.agent.post('/api/profile/testPage', { channel: 'email' });
      expect(ok.statusCode).toBe(200);
      expect(ok.data).toEqual({ channel: 'email', outcome: 'sent', reason: null });
      const mail = fake.sent.email.filter((m) => m.to === owner.email);
      expect(mail).toHaveLength(1);
      expect(mail[0].subject).toBe(TEST_PAGE_MSG.title);
      expect(mail[0].text).toContain(TEST_PAGE_MSG.text);

      fake.failures.email.push(new DeliveryError('email: 550 mailbox unavailable', true));
      const failed = await owner.agent.post('/api/profile/testPage', { channel: 'email' });
      expect(failed.data).toEqual({ channel: 'email', outcome: 'failed', reason: 'email: 550 mailbox unavailable' });
      // A transient failure is final for a test page: it is not retried, it is reported.
      fake.failures.email.push(new DeliveryError('email: connection refused', false));
      expect((await owner.agent.post('/api/profile/testPage', { channel: 'email' })).data).toMatchObject({ outcome: 'failed', reason: 'email: connection refused' });

      await savePreferences(owner.agent, owner.tenantId, { email: false });
      expect((await owner.agent.post('/api/profile/testPage', { channel: 'email' })).data).toEqual({ channel: 'email', outcome: 'skipped', reason: PAGING_MSG.emailOff });
    });

    it('texts the saved number, says why it cannot, and says when SMS is not configured on the server', async () => {
      const owner = await registerOwner(env.app);
      expect((await owner.agent.post('/api/profile/testPage', { channel: 'sms' })).data).toEqual({ channel: 'sms', outcome: 'skipped', reason: PAGING_MSG.smsOff });
      await savePreferences(owner.agent, owner.tenantId, { email: true, sms: ['critical'], phoneNumber: '+14155550199' });
      const sent = await owner.agent.post('/api/profile/testPage', { channel: 'sms' });
      expect(sent.data).toEqual({ channel: 'sms', outcome: 'sent', reason: null });
      expect(fake.sent.sms.filter((s) => s.to === '+14155550199')).toEqual([{ to: '+14155550199', body: TEST_PAGE_MSG.sms }]);

      const other = await registerOwner(bare.app);
      await savePreferences(other.agent, other.tenantId, { email: true, sms: ['critical'], phoneNumber: '+14155550198' });
      expect((await other.agent.post('/api/profile/testPage', { channel: 'sms' })).data).toEqual({ channel: 'sms', outcome: 'not_configured', reason: 'SMS is not configured on this server' });
      expect(noSms.sent.sms).toHaveLength(0);
    });

    it('pushes to the person’s browsers; the status says whether this browser’s subscription is held, and a gone one is dropped', async () => {
      const owner = await registerOwner(env.app);
      const stranger = await registerOwner(env.app);
      await savePreferences(owner.agent, owner.tenantId, { email: true, push: true });
      expect((await owner.agent.post('/api/profile/testPage', { channel: 'push' })).data).toEqual({ channel: 'push', outcome: 'skipped', reason: PAGING_MSG.noPushSubscription });

      const mine = `https://push.example.com/ok/${owner.userId}`;
      const status = (agent: Agent, endpoint: string) => agent.get(`/api/profile/pushSubscription?endpoint=${encodeURIComponent(endpoint)}`);
      expect((await status(owner.agent, mine)).data).toEqual({ subscribed: false, updatedAt: null });
      expect((await subscribe(owner.agent, mine)).statusCode).toBe(200);
      const held = await status(owner.agent, mine);
      expect(held.data.subscribed).toBe(true);
      expect(typeof held.data.updatedAt).toBe('string');
      // Another person's browser is not theirs to ask about.
      expect((await status(stranger.agent, mine)).data.subscribed).toBe(false);

      const sent = await owner.agent.post('/api/profile/testPage', { channel: 'push' });
      expect(sent.data).toEqual({ channel: 'push', outcome: 'sent', reason: null });
      const pushed = fake.sent.push.filter((p) => p.endpoint === mine);
      expect(pushed).toHaveLength(1);
      expect(pushed[0].payload).toMatchObject({ title: TEST_PAGE_MSG.title, body: TEST_PAGE_MSG.text, test: 'true' });

      // A browser whose subscription the push service no longer knows: the page fails and the status says so.
      const stale = `https://push.example.com/gone/${stranger.userId}`;
      await subscribe(stranger.agent, stale);
      await savePreferences(stranger.agent, stranger.tenantId, { email: true, push: true });
      expect((await stranger.agent.post('/api/profile/testPage', { channel: 'push' })).data).toEqual({ channel: 'push', outcome: 'failed', reason: 'push: subscription gone (410)' });
      expect((await status(stranger.agent, stale)).data.subscribed).toBe(false);
    });

    it('allows five test pages in ten minutes per person, then answers 429', async () => {
      const owner = await registerOwner(env.app);
      const other = await registerOwner(env.app);
      for (let i = 0; i < 5; i++) expect((await owner.agent.post('/api/profile/testPage', { channel: 'email' })).statusCode).toBe(200);
      const before = fake.sent.email.length;
      const refused = await owner.agent.post('/api/profile/testPage', { channel: 'sms' });
      expect(refused.statusCode).toBe(429);
      expect(refused.data.error.message).toBe(TEST_PAGE_MSG.tooMany);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
      expect(fake.sent.email.length).toBe(before);
      expect((await other.agent.post('/api/profile/testPage', { channel: 'email' })).statusCode).toBe(200);
    });
  });
}
