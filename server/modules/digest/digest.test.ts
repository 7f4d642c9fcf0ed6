import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGEST_MSG } from '../../../contract/digest.ts';
import { Agent, startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { createIntegration, ingest, pdTrigger } from '../../test/alerts.ts';
import { createClient } from '../../test/clients.ts';
import { dueWeek, digestHoursAnywhere, lastWeek } from './digest-schedule.ts';

// Monday 30 November 2026. Berlin is UTC+1 then: its 08:00 is 07:00 UTC; Auckland (UTC+13) reaches it on Sunday.
const MONDAY_0800_BERLIN = Date.parse('2026-11-30T07:00:00.000Z');

describe('when a digest is due', () => {
  it('is Monday from 08:00 to 20:00 in the person’s own zone, for the seven days before that Monday', () => {
    expect(dueWeek(new Date(MONDAY_0800_BERLIN - 1), 'Europe/Berlin')).toBeNull();
    expect(dueWeek(new Date(MONDAY_0800_BERLIN), 'Europe/Berlin')).toEqual({
      week: '2026-11-30',
      from: '2026-11-22T23:00:00.000Z',
      to: '2026-11-29T23:00:00.000Z',
      previousFrom: '2026-11-15T23:00:00.000Z',
    });
    expect(dueWeek(new Date(MONDAY_0800_BERLIN + 12 * 3600_000), 'Europe/Berlin')).toBeNull();
    // Auckland's Monday 08:00 is Sunday 19:00 UTC.
    expect(dueWeek(new Date('2026-11-29T19:00:00.000Z'), 'Pacific/Auckland')?.week).toBe('2026-11-30');
    // An unknown or unset zone is UTC.
    expect(dueWeek(new Date('2026-11-30T08:00:00.000Z'), null)?.from).toBe('2026-11-23T00:00:00.000Z');
    expect(dueWeek(new Date('2026-11-30T08:00:00.000Z'), 'Mars/Olympus')?.week).toBe('2026-11-30');
  });

  it('spans a change of daylight saving time by local days (Berlin, last week of March)', () => {
    const w = lastWeek(new Date('2026-03-30T10:00:00.000Z'), 'Europe/Berlin');
    expect(w.from).toBe('2026-03-22T23:00:00.000Z');
    expect(w.to).toBe('2026-03-29T22:00:00.000Z');
  });

  it('is Monday morning somewhere only from Sunday 18:00 to Tuesday 08:00 UTC', () => {
    expect(digestHoursAnywhere(new Date('2026-11-29T17:59:00.000Z'))).toBe(false);
    expect(digestHoursAnywhere(new Date('2026-11-29T18:00:00.000Z'))).toBe(true);
    expect(digestHoursAnywhere(new Date('2026-11-30T12:00:00.000Z'))).toBe(true);
    expect(digestHoursAnywhere(new Date('2026-12-01T07:59:00.000Z'))).toBe(true);
    expect(digestHoursAnywhere(new Date('2026-12-01T08:00:00.000Z'))).toBe(false);
    expect(digestHoursAnywhere(new Date('2026-11-26T12:00:00.000Z'))).toBe(false);
  });
});

for (const db of testDatabases()) {
  describe(`the weekly digest [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let nowMs = MONDAY_0800_BERLIN - 60_000;
    const run = async () => {
      await env.app.digest.sweep(new Date(nowMs));
      while ((await env.app.jobs.worker.runDue()) > 0);
    };
    const mailsTo = (email: string) => env.mailer.sent.filter((m) => m.to === email && m.subject.startsWith('Your week in Alertdesk'));

    beforeAll(async () => {
      env = await startTestApp(db, {}, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => env?.close());

    /** A tenant whose alerts of last week (Berlin) are: 2 critical of Globex (one acknowledged after 10 min), 1 low. */
    async function seededTenant(name: string) {
      const owner = await registerOwner(env.app, { name: 'Dana Digest', tenantName: name });
      await env.deps.db.updateTable('users').set({ time_zone: 'Europe/Berlin' }).where('id', '=', owner.userId).execute();
      const globex = await createClient(owner.agent, owner.tenantId, { name: 'Globex' });
      const integration = await createIntegration(owner.agent, owner.tenantId, { clientId: globex.id });
      for (const [n, severity] of [[1, 'critical'], [2, 'critical'], [3, 'info']] as const) {
        const res = await ingest(env.app, '/v2/enqueue', pdTrigger(integration.key, { dedup_key: `k${n}` }, { summary: `Alert ${n}`, severity }));
        expect(res.statusCode).toBe(202);
      }
      const alerts = await env.deps.db.selectFrom('alerts').select(['id', 'title']).where('tenant_id', '=', owner.tenantId).orderBy('title').execute();
      // Move them into last week: Tuesday 24 Nov, 10:00 UTC.
      const created = '2026-11-24T10:00:00.000Z';
      for (const a of alerts) {
        const ack = a.title === 'Alert 1' ? { status: 'acknowledged' as const, acknowledged_at: '2026-11-24T10:10:00.000Z' } : {};
        await env.deps.db.updateTable('alerts').set({ created_at: created, ...ack }).where('id', '=', a.id).execute();
      }
      return owner;
    }

    it('mails each person once, on Monday at 08:00 in their zone, with last week’s figures of their tenant', async () => {
      const owner = await seededTenant('Digest MSP');
      nowMs = MONDAY_0800_BERLIN - 60_000;
      await run();
      expect(mailsTo(owner.email)).toHaveLength(0);

      nowMs = MONDAY_0800_BERLIN;
      await run();
      const [mail] = mailsTo(owner.email);
      expect(mail.subject).toBe('Your week in Alertdesk: Digest MSP: 3 alerts (Mon 23 Nov – Sun 29 Nov 2026)');
      expect(mail.text).toContain('Alerts: 3 (week before: 0)');
      expect(mail.text).toContain('Critical 2, Info 1');
      expect(mail.text).toContain('Time to acknowledge (mean): 10 min');
      expect(mail.text).toContain('Not acknowledged: 2');
      expect(mail.text).toContain('Top clients: Globex (3)');
      expect(mail.html).toContain('Globex');
      expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

      // Later sweeps send nothing more that week; nor does the job run again by another instance (its claim says sent).
      nowMs += 5 * 60_000;
      await run();
      await env.app.digest.handler({} as never, { now: new Date(nowMs), finalAttempt: false, payload: { userId: owner.userId, week: '2026-11-30' } });
      expect(mailsTo(owner.email)).toHaveLength(1);
    });

    it('turns off through the mail’s link: the page asks first, a POST (or a mail client’s one-click) turns it off, a forged link is refused', async () => {
      const owner = await seededTenant('Link MSP');
      nowMs = MONDAY_0800_BERLIN + 3600_000;
      await run();
      const mail = mailsTo(owner.email).at(-1)!;
      const token = /\/digest\/off\/([A-Za-z0-9_-]+)/.exec(mail.text)![1];
      const anon = new Agent(env.app);
      const info = await anon.get(`/api/digest/off/${token}`);
      expect(info.statusCode).toBe(200);
      expect(info.data).toEqual({ email: owner.email, weeklyDigest: true });

      const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      expect((await anon.get(`/api/digest/off/${forged}`)).statusCode).toBe(404);
      const refused = await env.app.inject({ method: 'POST', url: `/api/digest/off/${forged}` });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error.message).toBe(DIGEST_MSG.linkInvalid);

      // RFC 8058: the mail provider posts a form, with no session and no origin of ours.
      const oneClick = await env.app.inject({ method: 'POST', url: `/api/digest/off/${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      expect(oneClick.statusCode).toBe(200);
      expect(oneClick.json()).toEqual({ email: owner.email, weeklyDigest: false });
      const prefs = await env.deps.db.selectFrom('notification_preferences').selectAll().where('user_id', '=', owner.userId).executeTakeFirstOrThrow();
      expect([prefs.email_weekly_digest, prefs.email_enabled]).toEqual([0, 1]);
      // Replayed: still off, nothing else changed.
      expect((await anon.post(`/api/digest/off/${token}`, {})).data).toEqual({ email: owner.email, weeklyDigest: false });

      // Next Monday: no digest for them.
      nowMs = MONDAY_0800_BERLIN + 7 * 86400_000;
      const before = mailsTo(owner.email).length;
      await run();
      expect(mailsTo(owner.email)).toHaveLength(before);
    });

    it('previews the digest for the signed-in person, only for a tenant they belong to', async () => {
      const owner = await seededTenant('Preview MSP');
      nowMs = MONDAY_0800_BERLIN + 3 * 86400_000;
      const res = await owner.agent.get(`/api/me/digest/preview?tenantId=${owner.tenantId}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('Preview MSP');
      expect(res.body).toContain('Globex');
      const stranger = await registerOwner(env.app, { tenantName: 'Elsewhere' });
      const refused = await stranger.agent.get(`/api/me/digest/preview?tenantId=${owner.tenantId}`);
      expect(refused.statusCode).toBe(404);
      expect((await new Agent(env.app).get('/api/me/digest/preview')).statusCode).toBe(401);
      // A plain member gets no Reports link (only owners and admins see reports).
      const member = await addMember(env.deps, env.app, owner.tenantId, 'user');
      await env.deps.db.deleteFrom('tenant_members').where('user_id', '=', member.userId).where('tenant_id', '!=', owner.tenantId).execute();
      const theirs = await member.agent.get(`/api/me/digest/preview`);
      expect(theirs.body).toContain('Preview MSP');
      expect(theirs.body).not.toContain('/app/reports');
    });
  });
}
