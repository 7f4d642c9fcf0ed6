import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { pagingHarness, savePreferences } from '../../test/paging.ts';
import { DeliveryError } from '../../notifications/channel.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';

// A mail server that stays down: the page is retried with growing backoff for more than 30 minutes (not given up
// after three quick tries), and after its second failure the person is paged at once on their next channel, which
// the alert's timeline says.

const SECOND = 1000;

for (const db of testDatabases()) {
  describe(`paging through a mail outage [${db.name}]`, () => {
    const h = pagingHarness(db);

    /** The owner, paged by email at level 1 (levels 2 and 3 page others), with SMS on for critical alerts; the mail server refusing connections. */
    async function outage(phone: string) {
      const { owner, integration } = await h.setup();
      await savePreferences(owner.agent, owner.tenantId, { email: true, sms: ['critical'], phoneNumber: phone });
      const send = h.fake.transports.email;
      const ownerEmail = await h.emailOf(owner.userId);
      let down = true;
      let refused = 0;
      h.fake.transports.email = async (mail) => {
        if (!down) return send(mail);
        if (mail.to === ownerEmail) refused++;
        throw new DeliveryError('email: connect ECONNREFUSED 127.0.0.1:25', false);
      };
      const alertId = await h.trigger(integration.key);
      const email = async () => (await listAttempts(h.env.deps.db, owner.tenantId, alertId)).find((a) => a.user_id === owner.userId && a.channel === 'email')!;
      const texts = () => h.fake.sent.sms.filter((m) => m.to === phone);
      return { owner, alertId, email, texts, refused: () => refused, up: () => (down = false), restore: () => (h.fake.transports.email = send) };
    }

    it('retries the email for more than 30 minutes with growing backoff, and pages by SMS at once after its second failure', async () => {
      const o = await outage(`+1555000${Math.floor(1000 + Math.random() * 8999)}`);
      try {
        await h.advance(0);
        expect([(await o.email()).outcome, o.texts()]).toEqual(['pending', []]);
        await h.advance(5 * SECOND);
        // Second failure: the SMS goes out now, once.
        expect(o.refused()).toBe(2);
        expect(o.texts()).toHaveLength(1);
        expect(o.texts()[0].body).toMatch(/^\[CRIT\] Disk full/);
        const paged = (await h.detail(o.owner.agent, o.owner.tenantId, o.alertId)).timeline.filter((e: { kind: string }) => e.kind === 'paged');
        expect(paged.map((e: { detail: Record<string, unknown> }) => [e.detail.channel, e.detail.outcome, e.detail.reason])).toEqual([
          ['sms', 'sent', 'Email kept failing: paged by this channel instead'],
        ]);
        // The email is tried again after 20 s, 80 s, 5⅓ min, then every 10 minutes: still pending at 30 minutes.
        const triesAt: number[] = [];
        let elapsed = 5 * SECOND;
        for (const wait of [20, 80, 320, 600, 600] as const) {
          await h.advance(wait * SECOND - 1);
          expect(o.refused()).toBe(2 + triesAt.length);
          await h.advance(1);
          elapsed += wait * SECOND;
          triesAt.push(elapsed);
          expect(o.refused()).toBe(2 + triesAt.length);
        }
        expect(elapsed).toBeGreaterThan(27 * 60 * SECOND);
        expect(await o.email()).toMatchObject({ outcome: 'pending', tries: 7 });
        await h.advance(3 * 60 * SECOND);
        expect((await o.email()).outcome).toBe('pending');
        // The eighth try, about 37 minutes in, is the last: the page is recorded as failed, nothing sent twice.
        await h.advance(7 * 60 * SECOND);
        expect(await o.email()).toMatchObject({ outcome: 'failed', reason: 'email: connect ECONNREFUSED 127.0.0.1:25', tries: 8 });
        await h.advance(60 * 60 * SECOND);
        expect(o.refused()).toBe(8);
        expect(o.texts()).toHaveLength(1);
      } finally {
        o.restore();
      }
    });

    it('sends the email once the mail server is back, and the SMS stays the only fallback', async () => {
      const o = await outage(`+1555000${Math.floor(1000 + Math.random() * 8999)}`);
      try {
        await h.advance(0);
        await h.advance(5 * SECOND);
        await h.advance(20 * SECOND);
        expect(o.refused()).toBe(3);
        o.up();
        await h.advance(80 * SECOND);
        expect(await o.email()).toMatchObject({ outcome: 'sent', tries: 4 });
        expect(h.mailsTo(await h.emailOf(o.owner.userId)).filter((m) => m.text.includes(o.alertId))).toHaveLength(1);
        expect(o.texts()).toHaveLength(1);
        await h.advance(30 * 60 * SECOND);
        expect(o.texts()).toHaveLength(1);
      } finally {
        o.restore();
      }
    });

    it('has no next channel for a person reachable by email only: the email keeps being retried, nothing else is sent', async () => {
      const { owner, integration } = await h.setup();
      const send = h.fake.transports.email;
      h.fake.transports.email = async () => {
        throw new DeliveryError('email: 421 try again later', false);
      };
      try {
        const alertId = await h.trigger(integration.key);
        await h.advance(0);
        await h.advance(5 * SECOND);
        await h.advance(20 * SECOND);
        expect((await listAttempts(h.env.deps.db, owner.tenantId, alertId)).map((a) => [a.channel, a.outcome, a.tries])).toEqual([['email', 'pending', 3]]);
        expect(h.fake.sent.push.filter((p) => p.payload.alertId === alertId)).toEqual([]);
      } finally {
        h.fake.transports.email = send;
      }
    });
  });
}
