import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { createIntegration } from '../../test/alerts.ts';
import { pagingHarness, MINUTE, savePreferences } from '../../test/paging.ts';
import { listAlertJobs } from '../../jobs/jobs.repository.ts';
import { ackLinkSigner } from './ack-links.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { buildApp } from '../../app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';

for (const db of testDatabases()) {
  describe(`acknowledge links, reachability and notices [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, detail, mailsTo, emailOf, advance } = h;

    it('acknowledges from the link of a page as that person: the page shows it first, the link works once', async () => {
      const { owner, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      const alertId = await trigger(integration.key);
      await advance(0);
      const mail = mailsTo(ownerEmail).find((m) => m.text.includes(alertId))!;
      const token = /\/ack\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
      const anon = { origin: 'http://localhost:3000' };
      const info = await h.env.app.inject({ method: 'GET', url: `/api/ack/${token}` });
      expect(info.statusCode).toBe(200);
      expect(info.json()).toMatchObject({ alertId, status: 'new', personName: 'Olive Owner', usable: true });
      // Looking does not acknowledge (mail scanners follow links).
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.status).toBe('new');
      const ack = await h.env.app.inject({ method: 'POST', url: `/api/ack/${token}`, headers: anon });
      expect(ack.statusCode).toBe(200);
      expect(ack.json()).toEqual({ alertId, status: 'acknowledged', message: 'Alert acknowledged. Thank you!' });
      const d = await detail(owner.agent, owner.tenantId, alertId);
      expect(d.alert.acknowledgedBy).toBe(owner.userId);
      expect(d.timeline.find((e: { kind: string }) => e.kind === 'acknowledged').actorName).toBe('Olive Owner');
      expect(await listAlertJobs(h.env.deps.db, owner.tenantId, alertId)).toEqual([]);
      const replay = await h.env.app.inject({ method: 'POST', url: `/api/ack/${token}`, headers: anon });
      expect(replay.statusCode).toBe(409);
      expect(replay.json().error.message).toBe('This acknowledge link was already used.');
      const forged = await h.env.app.inject({ method: 'POST', url: `/api/ack/${token.slice(0, -2)}xx`, headers: anon });
      expect(forged.statusCode).toBe(404);
      expect(forged.json().error.message).toBe('This acknowledge link is invalid or has expired.');
      const crossSite = await h.env.app.inject({ method: 'POST', url: `/api/ack/${token}`, headers: { origin: 'https://evil.example' } });
      expect(crossSite.statusCode).toBe(403);
    });

    it('signs acknowledge links: nothing is stored per page; a link altered, expired, or for someone no longer a member does not acknowledge', async () => {
      const { owner, second, integration } = await setup();
      const ownerEmail = await emailOf(owner.userId);
      const alertId = await trigger(integration.key);
      await advance(0);
      const token = /\/ack\/([A-Za-z0-9_-]+)/.exec(mailsTo(ownerEmail).find((m) => m.text.includes(alertId))!.text)![1];
      expect(token).toHaveLength(64);
      expect(await h.env.deps.db.selectFrom('ack_tokens').select('token_hash').where('alert_id', '=', alertId).execute()).toEqual([]);
      const post = (t: string) => h.env.app.inject({ method: 'POST', url: `/api/ack/${t}`, headers: { origin: 'http://localhost:3000' } });
      // Another person's link for the same alert cannot be made from this one: any changed character breaks the signature.
      const raw = Buffer.from(token, 'base64url');
      raw[20] ^= 1;
      const altered = await post(raw.toString('base64url'));
      expect(altered.statusCode).toBe(404);
      expect(altered.json().error.message).toBe('This acknowledge link is invalid or has expired.');
      // A correctly signed link past its expiry, and one for a person who left the organization.
      const sign = await ackLinkSigner(h.env.deps.db);
      const expired = await post(sign(alertId, owner.userId, new Date(Date.now() - 1000))!);
      expect(expired.statusCode).toBe(404);
      const stranger = await registerOwner(h.env.app);
      const notMember = await post(sign(alertId, stranger.userId, new Date(Date.now() + 3_600_000))!);
      expect(notMember.statusCode).toBe(403);
      expect(notMember.json().error.message).toBe('You are no longer a member of this organization.');
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.status).toBe('new');
      // Another member's own link works once; its use is what is stored.
      const theirs = sign(alertId, second.userId, new Date(Date.now() + 3_600_000))!;
      expect((await post(theirs)).statusCode).toBe(200);
      expect((await detail(owner.agent, owner.tenantId, alertId)).alert.acknowledgedBy).toBe(second.userId);
      expect((await h.env.app.inject({ method: 'GET', url: `/api/ack/${theirs}` })).json()).toMatchObject({ usable: false, status: 'acknowledged' });
      expect((await post(theirs)).json().error.message).toBe('This acknowledge link was already used.');
      expect(await h.env.deps.db.selectFrom('ack_tokens').select('user_id').where('alert_id', '=', alertId).execute()).toEqual([{ user_id: second.userId }]);
    });

    it('tells owners and admins by which channels each member can be paged now; others get 403, strangers 404', async () => {
      const owner = await registerOwner(h.env.app, { name: 'Reach Owner' });
      const member = await addMember(h.env.deps, h.env.app, owner.tenantId);
      await savePreferences(member.agent, owner.tenantId, { email: false, sms: ['critical'], push: true, phoneNumber: '+15550002222' });
      const res = await owner.agent.get(`/api/tenants/${owner.tenantId}/reachability`);
      expect(res.statusCode).toBe(200);
      // This server sends SMS (through the test's stand-in of the provider): whoever turned SMS on with a number is reachable.
      expect(res.data.smsEnabled).toBe(true);
      const byId = Object.fromEntries(res.data.items.map((i: { userId: string }) => [i.userId, i]));
      expect(byId[owner.userId]).toEqual({ userId: owner.userId, displayName: 'Reach Owner', email: true, push: false, sms: false });
      expect(byId[member.userId]).toMatchObject({ email: false, push: false, sms: true });
      // Without a provider nobody is reachable by SMS, whatever they saved.
      const bare = await buildApp({ ...h.env.config }, { logger: false, transports: fakeTransports({ sms: false }).transports });
      try {
        const reach = await bare.app.notifications.notifier.reachability([{ userId: member.userId, email: 'm@example.com' }]);
        expect(bare.app.notifications.notifier.smsConfigured).toBe(false);
        expect(reach.get(member.userId)).toEqual({ email: false, push: false, sms: false });
      } finally {
        await bare.app.close();
      }
      expect((await member.agent.get(`/api/tenants/${owner.tenantId}/reachability`)).statusCode).toBe(403);
      const stranger = await registerOwner(h.env.app);
      expect((await stranger.agent.get(`/api/tenants/${owner.tenantId}/reachability`)).statusCode).toBe(404);
    });

    it('tells the incoming primary once, by email, when their shift starts', async () => {
      const owner = await registerOwner(h.env.app, { name: 'Day Person' });
      const night = await addMember(h.env.deps, h.env.app, owner.tenantId);
      const today = new Date().toISOString().slice(0, 10);
      const shifts = [
        { startHour: 0, endHour: 12, primaryOnCall: owner.userId, secondaryOnCall: null },
        { startHour: 12, endHour: 24, primaryOnCall: night.userId, secondaryOnCall: null },
      ];
      const created = await owner.agent.post(`/api/tenants/${owner.tenantId}/onCallSchedules`, {
        name: 'Handover desk',
        startTime: today,
        endTime: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        timeZone: 'UTC',
        rotations: Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, shifts])),
      });
      expect(created.statusCode).toBe(201);
      const nightEmail = await emailOf(night.userId);
      const ownerEmail = await emailOf(owner.userId);
      h.nowMs = Date.parse(`${today}T11:30:00Z`);
      await advance(0);
      expect(mailsTo(nightEmail)).toHaveLength(0);
      await advance(30 * MINUTE);
      expect(mailsTo(nightEmail).map((m) => m.subject)).toEqual(['You are on call now: Handover desk']);
      expect(mailsTo(nightEmail)[0].text).toContain('Your on-call shift on Handover desk starts now until');
      await advance(2 * MINUTE);
      expect(mailsTo(nightEmail)).toHaveLength(1);
      expect(mailsTo(ownerEmail)).toHaveLength(0);
      // Midnight hands back to the day person.
      h.nowMs = Date.parse(`${today}T23:50:00Z`);
      await advance(0);
      await advance(10 * MINUTE);
      expect(mailsTo(ownerEmail).map((m) => m.subject)).toEqual(['You are on call now: Handover desk']);
    });

    it('notifies subscribers of a matching new alert once, without escalation', async () => {
      const owner = await registerOwner(h.env.app);
      const subscriber = await addMember(h.env.deps, h.env.app, owner.tenantId);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      await savePreferences(subscriber.agent, owner.tenantId, { email: true, alertSubscriptions: [{ type: 'priority', value: 'high' }] });
      const email = await emailOf(subscriber.userId);
      await trigger(integration.key, { priority: 'high' });
      await trigger(integration.key, { priority: 'low' });
      await advance(0);
      await advance(60 * MINUTE);
      expect(mailsTo(email)).toHaveLength(1);
      expect(mailsTo(email)[0].text).toContain('Paged: You subscribed to alerts like this one');
    });
  });
}
