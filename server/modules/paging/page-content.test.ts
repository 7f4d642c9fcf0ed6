import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { insertClient } from '../../test/factories.ts';
import { createIntegration } from '../../test/alerts.ts';
import { pagingHarness, savePreferences } from '../../test/paging.ts';
import { age, localTime, pageMessage, smsText } from './page-message.ts';

// What a page says: whose alert (client, and the tenant for people in several), how urgent, how old, in the person's
// time zone; HTML email with a plain-text alternative; an SMS of 160 characters with a short acknowledge link.

describe('page texts', () => {
  const links = { open: 'https://pager.example/app/dashboard?alert=a1', ack: 'https://pager.example/ack/TOKEN', ackToken: 'TOKEN', shortAck: 'https://pager.example/a/abcdefghijkl' };
  const alert = { id: 'a1', title: 'Exchange <EXCH01> is not responding', description: 'Ping & SMTP checks failed', priority: 'critical', source: 'Nagios', created_at: '2026-11-25T02:00:00.000Z' };

  it('names client, tenant, priority, level and age, with times in the person’s zone', () => {
    const m = pageMessage(alert, { clientName: 'Globex', tenantName: 'Acme MSP', level: 2, timeZone: 'Europe/Berlin', now: new Date('2026-11-25T02:14:30Z'), links });
    expect(m.title).toBe('[CRIT] Globex: Exchange <EXCH01> is not responding · Acme MSP');
    expect(m.text.split('\n').slice(0, 2)).toEqual(['CRITICAL alert for Globex (Acme MSP)', 'Exchange <EXCH01> is not responding']);
    expect(m.text).toContain('Opened: Wed 25 Nov, 03:00 GMT+1 (14 min ago)');
    expect(m.text).toContain('Paged: Escalation level 2');
    expect(m.text).toContain('Acknowledge: https://pager.example/ack/TOKEN');
    expect(m.summary).toBe('Ping & SMTP checks failed\nEscalation level 2 · opened 14 min ago');
    expect(m.sms).toBe('[CRIT] Globex: Exchange <EXCH01> is not responding. Ack: https://pager.example/a/abcdefghijkl');
  });

  it('writes HTML that escapes the alert’s words, has both buttons and a dark variant', () => {
    const m = pageMessage(alert, { clientName: 'Globex & Sons', tenantName: null, level: 1, timeZone: 'America/New_York', now: new Date('2026-11-25T05:00:00Z'), links });
    expect(m.html).toContain('Exchange &lt;EXCH01&gt; is not responding');
    expect(m.html).not.toContain('<EXCH01>');
    expect(m.html).toContain('Globex &amp; Sons');
    expect(m.html).toMatch(/<a href="https:\/\/pager\.example\/ack\/TOKEN"[^>]*>Acknowledge<\/a>/);
    expect(m.html).toMatch(/<a href="https:\/\/pager\.example\/app\/dashboard\?alert=a1"[^>]*>Open alert<\/a>/);
    expect(m.html).toContain('prefers-color-scheme: dark');
    expect(m.html).toContain('Tue 24 Nov, 21:00 EST (3 h ago)');
    // Without a client and with one tenant: no names to give.
    const plain = pageMessage({ ...alert, description: null }, { clientName: null, tenantName: null, level: null, timeZone: 'UTC', now: new Date('2026-11-25T02:00:20Z'), links });
    expect(plain.title).toBe('[CRIT] Exchange <EXCH01> is not responding');
    expect(plain.text).toContain('Opened: Wed 25 Nov, 02:00 UTC (just now)');
    expect(plain.text).toContain('Paged: You subscribed to alerts like this one');
  });

  it('keeps an SMS to 160 characters whatever the title and client', () => {
    const long = smsText('high', 'A client with a very long name indeed, Incorporated', 'x'.repeat(300), links.shortAck);
    expect(long.length).toBe(160);
    expect(long.startsWith('[HIGH] A client with a very long name: x')).toBe(true);
    expect(long.endsWith(`. Ack: ${links.shortAck}`)).toBe(true);
  });

  it('says how long ago in words and falls back to UTC for an unknown zone', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect([0, 59_000, 60_000, 59 * 60_000, 61 * 60_000, 47 * 3600_000, 50 * 3600_000].map((ms) => age(new Date(now.getTime() - ms).toISOString(), now))).toEqual([
      'just now',
      'just now',
      '1 min ago',
      '59 min ago',
      '1 h 1 min ago',
      '47 h ago',
      '2 days ago',
    ]);
    expect(localTime('2026-11-25T12:00:00Z', 'Not/AZone')).toBe('Wed 25 Nov, 12:00 UTC');
  });

  it('writes each time in the person’s zone, across a clock change, whatever was written before', () => {
    // Asked twice each (the second from what was already written), and in two zones within the same minute.
    for (let i = 0; i < 2; i++) {
      expect(localTime('2026-03-29T00:59:59.900Z', 'Europe/Amsterdam')).toBe('Sun 29 Mar, 01:59 GMT+1');
      expect(localTime('2026-03-29T01:00:00.000Z', 'Europe/Amsterdam')).toBe('Sun 29 Mar, 03:00 GMT+2');
      expect(localTime('2026-03-29T01:00:30.000Z', 'America/New_York')).toBe('Sat 28 Mar, 21:00 EDT');
      expect(localTime('2026-03-29T01:00:30.000+02:00', 'Europe/Amsterdam')).toBe('Sun 29 Mar, 00:00 GMT+1');
      expect(localTime('2026-11-25T12:00:00Z', 'Asia/Kolkata')).toBe('Wed 25 Nov, 17:30 GMT+5:30');
    }
  });
});

for (const db of testDatabases()) {
  describe(`pages that say whose alert it is [${db.name}]`, () => {
    const h = pagingHarness(db);

    /** A tenant whose level 1 pages the owner and a member of two tenants by `channels`, with a Globex integration. */
    async function globex(channels: string[]) {
      const { owner, second } = await h.setup();
      await h.env.deps.db
        .updateTable('escalation_policies')
        .set({ level_1: JSON.stringify({ userIds: [owner.userId, second.userId], scheduleIds: [], notificationChannels: channels }) })
        .where('tenant_id', '=', owner.tenantId)
        .execute();
      const clientId = await insertClient(h.env.deps.db, owner.tenantId, 'Globex');
      const integration = await createIntegration(owner.agent, owner.tenantId, { clientId });
      return { owner, second, key: integration.key };
    }

    it('emails the client, the tenant (to a person of several) and the time in the person’s zone, as HTML with a plain-text alternative', async () => {
      const { owner, second, key } = await globex(['email']);
      expect((await owner.agent.request('PATCH', '/api/profile', { timeZone: 'Asia/Tokyo' })).statusCode).toBe(200);
      const alertId = await h.trigger(key, { title: 'EXCH01 not responding', description: 'SMTP <check> failed' });
      await h.advance(0);
      const [ownerMail] = h.mailsTo(await h.emailOf(owner.userId));
      const [secondMail] = h.mailsTo(await h.emailOf(second.userId));
      // The owner belongs to this tenant only; the member to two, so theirs names it.
      expect(ownerMail.subject).toBe('[CRIT] Globex: EXCH01 not responding');
      expect(secondMail.subject).toBe('[CRIT] Globex: EXCH01 not responding · Acme MSP');
      expect(ownerMail.text).toContain('CRITICAL alert for Globex\nEXCH01 not responding\n\nSMTP <check> failed');
      expect(secondMail.text).toContain('Organization: Acme MSP');
      const tokyo = localTime(new Date(h.nowMs).toISOString(), 'Asia/Tokyo').slice(0, 12);
      expect(ownerMail.text).toMatch(new RegExp(`Opened: ${tokyo}\\d\\d:\\d\\d GMT\\+9 \\(just now\\)`));
      expect(secondMail.text).toMatch(/Opened: .* UTC \(just now\)/);
      expect(ownerMail.text).toContain(`Open alert: http://localhost:3000/app/dashboard?alert=${alertId}`);
      expect(ownerMail.html).toContain('SMTP &lt;check&gt; failed');
      expect(ownerMail.html).toMatch(/href="http:\/\/localhost:3000\/ack\/[A-Za-z0-9_-]{64}"[^>]*>Acknowledge</);
    });

    it('texts `[CRIT] Globex: title. Ack: <short link>`; the short link leads to the acknowledge page, which names the client', async () => {
      const { owner, key } = await globex(['sms']);
      await savePreferences(owner.agent, owner.tenantId, { email: true, sms: ['critical'], phoneNumber: '+15550007777' });
      const alertId = await h.trigger(key, { title: 'EXCH01 not responding' });
      await h.advance(0);
      const sms = h.fake.sent.sms.filter((m) => m.to === '+15550007777');
      expect(sms).toHaveLength(1);
      const match = /^\[CRIT\] Globex: EXCH01 not responding\. Ack: http:\/\/localhost:3000\/a\/([A-Za-z0-9_-]{12})$/.exec(sms[0].body);
      expect(match).not.toBeNull();
      const short = await h.env.app.inject({ method: 'GET', url: `/a/${match![1]}` });
      expect(short.statusCode).toBe(302);
      expect(short.headers['cache-control']).toBe('no-store');
      const token = /^\/ack\/([A-Za-z0-9_-]{64})$/.exec(String(short.headers.location))![1];
      const info = (await h.env.app.inject({ method: 'GET', url: `/api/ack/${token}` })).json();
      expect(info).toMatchObject({ alertId, clientName: 'Globex', tenantName: 'Acme MSP', title: 'EXCH01 not responding', timeZone: 'UTC', usable: true });
      const ack = await h.env.app.inject({ method: 'POST', url: `/api/ack/${token}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(ack.json()).toMatchObject({ alertId, status: 'acknowledged' });
      // The same short link again: the same signed link, now used.
      const again = await h.env.app.inject({ method: 'GET', url: `/a/${match![1]}` });
      expect((await h.env.app.inject({ method: 'GET', url: String(again.headers.location).replace('/ack/', '/api/ack/') })).json().usable).toBe(false);
      // A week later, or a code that is no page's: the page that says the link is invalid or expired.
      await h.env.deps.db.updateTable('notification_attempts').set({ created_at: new Date(Date.now() - 8 * 24 * 3600_000).toISOString() }).where('short_code', '=', match![1]).execute();
      for (const code of [match![1], 'AAAAAAAAAAAA', 'x'.repeat(40)]) {
        const res = await h.env.app.inject({ method: 'GET', url: `/a/${code}` });
        expect([res.statusCode, res.headers.location]).toEqual([302, '/ack/expired-or-unknown']);
      }
    });
  });
}
