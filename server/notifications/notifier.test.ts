import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDatabases } from '../test/test-app.ts';
import { addMember, registerOwner } from '../test/factories.ts';
import { DeliveryError, type Message, type Transports } from './channel.ts';
import { listPushTokens, savePushToken, upsertPreferences } from './contacts.repository.ts';
import { createNotifier } from './notifier.ts';
import { toChannelPreferences } from './preferences.ts';
import type { Mail } from './mailer.ts';

const message = (over: Partial<Message> = {}): Message => ({
  purpose: 'approval',
  title: 'Please decide: New laptop',
  text: 'Body',
  summary: 'Summary',
  url: 'http://localhost:3000/app/approval-workflows',
  ...over,
});

for (const db of testDatabases()) {
  describe(`notifier [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    beforeAll(async () => {
      env = await startTestApp(db);
    });
    afterAll(async () => env?.close());

    /** Providers at the edge: email fails transiently `emailFailures` times; push endpoints containing "gone" answer 410. */
    function providers(opts: { emailFailures?: number } = {}) {
      let failures = opts.emailFailures ?? 0;
      const sent = { email: [] as Mail[], push: [] as Array<{ endpoint: string; payload: Record<string, unknown> }>, sms: [] as string[] };
      const transports: Transports = {
        async email(mail) {
          if (failures-- > 0) throw new DeliveryError('email: connection refused', false);
          sent.email.push(mail);
          return { providerId: null };
        },
        async push(target, payload) {
          if (target.endpoint.includes('gone')) throw new DeliveryError('push: subscription gone (410)', true, true);
          sent.push.push({ endpoint: target.endpoint, payload: JSON.parse(payload) });
          return { providerId: 'p1' };
        },
        sms: async (_to, body) => {
          sent.sms.push(body);
          return { providerId: 'SM1' };
        },
      };
      return { transports, sent };
    }

    async function person(prefs: Partial<ReturnType<typeof toChannelPreferences>> = {}) {
      const owner = await registerOwner(env.app);
      const m = await addMember(env.deps, env.app, owner.tenantId);
      const row = await env.deps.db.selectFrom('users').select(['id', 'email']).where('id', '=', m.userId).executeTakeFirstOrThrow();
      await upsertPreferences(env.deps.db, row.id, { ...toChannelPreferences(undefined), ...prefs }, new Date().toISOString());
      return { userId: row.id, email: row.email };
    }

    it('sends on every channel the person can be reached by and says why it skipped the others', async () => {
      const { transports, sent } = providers();
      const notifier = createNotifier({ db: env.deps.db, transports });
      const who = await person({ push: { enabled: true }, sms: { enabled: true, alertTypes: ['critical'] }, phoneNumber: '+15550001111' });
      const page = message({ purpose: 'alert', priority: 'high', sms: '[HIGH] x' });
      const out = await notifier.notify(who, page, ['email', 'push', 'sms'], false);
      expect(out.map((o) => [o.outcome, o.reason])).toEqual([
        ['sent', null],
        ['skipped', 'No browser is subscribed to push notifications'],
        ['skipped', 'SMS is off for high alerts in their preferences'],
      ]);
      expect(sent.email.map((m) => [m.to, m.subject])).toEqual([[who.email, page.title]]);
      expect((await notifier.notify(who, { ...page, priority: 'critical' }, ['sms'], false))[0].outcome).toBe('sent');
      expect(sent.sms).toEqual(['[HIGH] x']);
    });

    it('removes a push subscription the push service says is gone, whoever sends (pages, approvals, handovers)', async () => {
      const { transports, sent } = providers();
      const notifier = createNotifier({ db: env.deps.db, transports });
      const who = await person({ push: { enabled: true } });
      const at = new Date().toISOString();
      await savePushToken(env.deps.db, who.userId, { endpoint: 'https://push.example/gone-1', p256dh: 'k', auth: 'a', userAgent: null }, at);
      await savePushToken(env.deps.db, who.userId, { endpoint: 'https://push.example/live-1', p256dh: 'k', auth: 'a', userAgent: null }, at);
      for (const purpose of ['oncall', 'approval'] as const) {
        const [out] = await notifier.notify(who, message({ purpose, pushData: { extra: 'x' } }), ['push'], false);
        expect(out.outcome).toBe('sent');
      }
      expect((await listPushTokens(env.deps.db, who.userId)).map((t) => t.endpoint)).toEqual(['https://push.example/live-1']);
      expect(sent.push[0]).toEqual({ endpoint: 'https://push.example/live-1', payload: { title: 'Please decide: New laptop', body: 'Summary', extra: 'x', url: 'http://localhost:3000/app/approval-workflows' } });
      // Only gone subscriptions left: the push fails for good, and nothing is left to send to.
      await env.deps.db.deleteFrom('user_tokens').where('user_id', '=', who.userId).execute();
      await savePushToken(env.deps.db, who.userId, { endpoint: 'https://push.example/gone-2', p256dh: 'k', auth: 'a', userAgent: null }, at);
      const [gone] = await notifier.notify(who, message(), ['push'], false);
      expect(gone).toMatchObject({ outcome: 'failed', reason: 'push: subscription gone (410)' });
      expect(await listPushTokens(env.deps.db, who.userId)).toEqual([]);
    });

    it('reports a transient failure as pending (to retry) until the last try, then as failed', async () => {
      const { transports } = providers({ emailFailures: 2 });
      const notifier = createNotifier({ db: env.deps.db, transports });
      const who = await person();
      const [first] = await notifier.notify(who, message(), ['email'], false);
      expect(first.outcome).toBe('pending');
      expect(first.error).toBeInstanceOf(DeliveryError);
      expect((await notifier.notify(who, message(), ['email'], true))[0]).toMatchObject({ outcome: 'failed', reason: 'email: connection refused' });
      expect((await notifier.notify(who, message(), ['email'], false))[0].outcome).toBe('sent');
    });

    it('applies alert preferences to pages only: "alert notifications" off skips a page by email, not an approval', async () => {
      const { transports } = providers();
      const notifier = createNotifier({ db: env.deps.db, transports });
      const who = await person({ email: { enabled: true, alertNotifications: false, weeklyDigest: false, systemUpdates: false }, sms: { enabled: true, alertTypes: ['critical'] }, phoneNumber: '+15550003333' });
      expect((await notifier.notify(who, message({ purpose: 'alert', priority: 'critical' }), ['email'], false))[0]).toMatchObject({ outcome: 'skipped', reason: 'Email alert notifications are off in their preferences' });
      expect((await notifier.notify(who, message(), ['email'], false))[0].outcome).toBe('sent');
      // A message without an SMS text never goes by SMS.
      expect((await notifier.notify(who, message(), ['sms'], false))[0]).toMatchObject({ outcome: 'skipped', reason: 'This kind of message is not sent by SMS' });
    });
  });
}
