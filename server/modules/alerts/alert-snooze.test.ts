import { describe, expect, it } from 'vitest';
import { SNOOZE_MSG } from '../../../contract/alerts.ts';
import { testDatabases } from '../../test/test-app.ts';
import { MINUTE, pagingHarness } from '../../test/paging.ts';

// Issue 31: a snoozed alert stops paging, says until when, and escalates again from level 1 when the snooze ends,
// unless someone acknowledged it meanwhile.
for (const db of testDatabases()) {
  describe(`snooze [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, detail, mailsTo, emailOf, advance } = h;
    const row = (id: string) =>
      h.env.deps.db.selectFrom('alerts').select(['snoozed_until', 'escalation_level', 'next_step_at', 'overdue_check_at']).where('id', '=', id).executeTakeFirstOrThrow();

    it('stops paging until the snooze ends, then pages level 1 again; the timeline says who and until when', async () => {
      const { owner, second, integration } = await setup();
      const alertId = await trigger(integration.key);
      await advance(0);
      const ownerMail = await emailOf(owner.userId);
      const secondMail = await emailOf(second.userId);
      expect(mailsTo(ownerMail)).toHaveLength(1);
      // A member snoozes it for 30 minutes: no level 2 at +5 minutes, no overdue re-page at +15.
      const res = await second.agent.post(`/api/tenants/${owner.tenantId}/alerts/${alertId}/snooze`, { minutes: 30 });
      expect(res.statusCode).toBe(200);
      const until = res.data.alert.snoozedUntil as string;
      expect(Date.parse(until) - Date.now()).toBeGreaterThan(29 * MINUTE);
      expect(await row(alertId)).toEqual({ snoozed_until: until, escalation_level: 0, next_step_at: until, overdue_check_at: null });
      expect(res.data.timeline.at(-1)).toMatchObject({ kind: 'snoozed', actorType: 'user', actorId: second.userId, detail: { until } });
      await advance(20 * MINUTE);
      expect(mailsTo(ownerMail)).toHaveLength(1);
      expect(mailsTo(secondMail)).toHaveLength(0);
      // Over: level 1 again, the overdue check from now, level 2 five minutes later.
      await advance(11 * MINUTE);
      expect(mailsTo(ownerMail)).toHaveLength(2);
      expect(await row(alertId)).toMatchObject({ escalation_level: 1, overdue_check_at: new Date(h.nowMs + 15 * MINUTE).toISOString() });
      await advance(5 * MINUTE);
      expect(mailsTo(secondMail)).toHaveLength(1);
      const released = (await detail(owner.agent, owner.tenantId, alertId)).timeline.find((e: { kind: string }) => e.kind === 'released');
      expect(released.detail).toEqual({ reason: 'snooze' });
    });

    it('unsnooze pages level 1 at once; an alert acknowledged meanwhile stays quiet', async () => {
      const { owner, integration } = await setup();
      const base = `/api/tenants/${owner.tenantId}/alerts`;
      const ownerMail = await emailOf(owner.userId);
      const a = await trigger(integration.key);
      const b = await trigger(integration.key);
      // Snoozed before the worker saw them: level 1 never went out.
      const until = new Date(Date.now() + 2 * 3_600_000).toISOString();
      expect((await owner.agent.post(`${base}/${a}/snooze`, { until })).data.alert.snoozedUntil).toBe(until);
      expect((await owner.agent.post(`${base}/${b}/snooze`, { minutes: 60 })).statusCode).toBe(200);
      await advance(0);
      expect(mailsTo(ownerMail)).toHaveLength(0);
      const unsnoozed = await owner.agent.post(`${base}/${a}/unsnooze`);
      expect(unsnoozed.statusCode).toBe(200);
      expect(Date.parse(unsnoozed.data.alert.snoozedUntil)).toBeLessThanOrEqual(Date.now());
      expect(unsnoozed.data.timeline.at(-1)).toMatchObject({ kind: 'unsnoozed' });
      // Level 1 is due when it was unsnoozed (real time): the test's clock catches up.
      h.nowMs = Math.max(h.nowMs, Date.now());
      await advance(0);
      expect(mailsTo(ownerMail)).toHaveLength(1);
      // Unsnoozing what is not snoozed says so.
      const again = await owner.agent.post(`${base}/${a}/unsnooze`);
      expect(again.statusCode).toBe(409);
      expect(again.data.error.message).toBe(SNOOZE_MSG.notSnoozed);
      // b is acknowledged while snoozed: its snooze ends with nothing to fire, and its card no longer says snoozed.
      const acked = await owner.agent.post(`${base}/${b}/acknowledge`);
      expect(acked.data.alert.snoozedUntil).toBeNull();
      await advance(61 * MINUTE);
      expect(mailsTo(ownerMail)).toHaveLength(1);
      // An acknowledged alert cannot be snoozed.
      const refused = await owner.agent.post(`${base}/${b}/snooze`, { minutes: 30 });
      expect(refused.statusCode).toBe(409);
      expect(refused.data.error.message).toBe(SNOOZE_MSG.notSnoozable);
    });

    it('checks the duration, answers 404 for another tenant’s alert, and snoozes a selection', async () => {
      const { owner, integration } = await setup();
      const other = await setup();
      const base = `/api/tenants/${owner.tenantId}/alerts`;
      const a = await trigger(integration.key);
      const bad = async (body: unknown, field: string, message: string) => {
        const res = await owner.agent.post(`${base}/${a}/snooze`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.data.error.fields[field]).toBe(message);
      };
      await bad({ minutes: 45 }, 'minutes', SNOOZE_MSG.minutesInvalid);
      await bad({}, 'minutes', SNOOZE_MSG.durationRequired);
      await bad({ minutes: 30, until: new Date(Date.now() + MINUTE).toISOString() }, 'minutes', SNOOZE_MSG.durationRequired);
      await bad({ until: new Date(Date.now() - MINUTE).toISOString() }, 'until', SNOOZE_MSG.untilPast);
      await bad({ until: new Date(Date.now() + 31 * 86_400_000).toISOString() }, 'until', SNOOZE_MSG.untilTooFar);
      expect((await other.owner.agent.post(`/api/tenants/${other.owner.tenantId}/alerts/${a}/snooze`, { minutes: 30 })).statusCode).toBe(404);

      const b = await trigger(integration.key);
      const theirs = await trigger(other.integration.key);
      const bulk = await owner.agent.post(`${base}/bulk`, { action: 'snooze', alertIds: [a, b, theirs], minutes: 240 });
      expect(bulk.statusCode).toBe(200);
      expect(bulk.data).toMatchObject({ succeeded: 2, failed: 1 });
      expect(bulk.data.results[2]).toMatchObject({ ok: false, error: { status: 404 } });
      expect(bulk.data.results[0].alert.snoozedUntil).not.toBeNull();
      const missing = await owner.agent.post(`${base}/bulk`, { action: 'snooze', alertIds: [a] });
      expect(missing.statusCode).toBe(400);
      expect(missing.data.error.fields.minutes).toBe(SNOOZE_MSG.durationRequired);
      const un = await owner.agent.post(`${base}/bulk`, { action: 'unsnooze', alertIds: [a, b] });
      expect(un.data).toMatchObject({ succeeded: 2, failed: 0 });
    });
  });
}
