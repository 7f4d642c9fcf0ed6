import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { insertClient } from '../../test/factories.ts';
import { createIntegration } from '../../test/alerts.ts';
import { MINUTE, pagingHarness } from '../../test/paging.ts';

const iso = (ms: number) => new Date(ms).toISOString();

// Issue 31: an alert opened inside a maintenance window of its scope is stored and shown, pages nobody, and starts its
// escalation from level 1 when the window ends (or is ended now), unless acknowledged meanwhile.
for (const db of testDatabases()) {
  describe(`maintenance windows hold escalation [${db.name}]`, () => {
    const h = pagingHarness(db);
    const { setup, trigger, detail, mailsTo, emailOf, advance } = h;
    const row = (id: string) =>
      h.env.deps.db
        .selectFrom('alerts')
        .select(['maintenance_window_id', 'escalation_state', 'escalation_level', 'next_step_at', 'overdue_check_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const kinds = async (agent: Parameters<typeof detail>[0], tenantId: string, id: string) => (await detail(agent, tenantId, id)).timeline.map((e: { kind: string }) => e.kind);

    async function windowFor(agent: Parameters<typeof detail>[0], tenantId: string, over: Record<string, unknown> = {}) {
      const res = await agent.post(`/api/tenants/${tenantId}/maintenanceWindows`, { name: 'Patch night', start: iso(Date.now() - MINUTE), end: iso(Date.now() + 10 * MINUTE), ...over });
      expect(res.statusCode).toBe(201);
      return res.data as { id: string; end: string };
    }

    it('holds an alert opened inside a whole-tenant window and pages level 1 when the window ends', async () => {
      const { owner, integration } = await setup();
      const win = await windowFor(owner.agent, owner.tenantId);
      const alertId = await trigger(integration.key);
      expect(await row(alertId)).toEqual({ maintenance_window_id: win.id, escalation_state: 'running', escalation_level: 0, next_step_at: win.end, overdue_check_at: null });
      const shown = await detail(owner.agent, owner.tenantId, alertId);
      expect(shown.alert.maintenanceWindowId).toBe(win.id);
      expect(shown.timeline.find((e: { kind: string }) => e.kind === 'maintenance').detail).toMatchObject({ windowName: 'Patch night' });
      // Nothing is paged while the window lasts, not even when the next levels would have been due.
      await advance(0);
      await advance(9 * MINUTE);
      const ownerMail = await emailOf(owner.userId);
      expect(mailsTo(ownerMail)).toHaveLength(0);
      // The window ends: level 1 now, the overdue check from now, a timeline entry saying why.
      await advance(2 * MINUTE);
      expect(mailsTo(ownerMail)).toHaveLength(1);
      expect(await row(alertId)).toMatchObject({ escalation_level: 1, overdue_check_at: iso(h.nowMs + 15 * MINUTE) });
      const k = await kinds(owner.agent, owner.tenantId, alertId);
      expect(k.indexOf('released')).toBeGreaterThan(k.indexOf('maintenance'));
      expect(k.indexOf('escalated')).toBeGreaterThan(k.indexOf('released'));
    });

    it('covers only its scope: a client’s window, an integration’s window', async () => {
      const { owner } = await setup();
      const acme = await insertClient(h.env.deps.db, owner.tenantId, 'Acme');
      const globex = await insertClient(h.env.deps.db, owner.tenantId, 'Globex');
      const acmeTool = await createIntegration(owner.agent, owner.tenantId, { name: 'Acme tool', clientId: acme });
      const globexTool = await createIntegration(owner.agent, owner.tenantId, { name: 'Globex tool', clientId: globex });
      const plainTool = await createIntegration(owner.agent, owner.tenantId, { name: 'Plain' });
      const byClient = await windowFor(owner.agent, owner.tenantId, { scope: { clientIds: [acme] } });
      const byIntegration = await windowFor(owner.agent, owner.tenantId, { name: 'Plain maintenance', scope: { integrationIds: [plainTool.id] } });
      expect((await row(await trigger(acmeTool.key))).maintenance_window_id).toBe(byClient.id);
      expect((await row(await trigger(globexTool.key))).maintenance_window_id).toBeNull();
      expect((await row(await trigger(plainTool.key))).maintenance_window_id).toBe(byIntegration.id);
    });

    it('"end now" releases what the window holds at once; an alert acknowledged meanwhile stays quiet', async () => {
      const { owner, integration } = await setup();
      const win = await windowFor(owner.agent, owner.tenantId, { end: iso(Date.now() + 60 * MINUTE) });
      const held = await trigger(integration.key);
      const acked = await trigger(integration.key);
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${acked}/acknowledge`)).statusCode).toBe(200);
      await advance(0);
      const ownerMail = await emailOf(owner.userId);
      expect(mailsTo(ownerMail)).toHaveLength(0);
      const ended = await owner.agent.post(`/api/tenants/${owner.tenantId}/maintenanceWindows/${win.id}/end`);
      expect(ended.statusCode).toBe(200);
      expect(ended.data.state).toBe('ended');
      expect((await row(held)).next_step_at).toBe(iso(h.nowMs));
      await advance(0);
      expect(mailsTo(ownerMail)).toHaveLength(1);
      expect(await row(held)).toMatchObject({ escalation_level: 1 });
      expect(await row(acked)).toMatchObject({ next_step_at: null, escalation_level: 0 });
      // The next alert is not held: every instance forgot the window's old state with the write.
      expect((await row(await trigger(integration.key))).maintenance_window_id).toBeNull();
    });

    it('a longer window keeps holding; deleting it releases', async () => {
      const { owner, integration } = await setup();
      const win = await windowFor(owner.agent, owner.tenantId);
      const held = await trigger(integration.key);
      const later = iso(Date.now() + 30 * MINUTE);
      expect((await owner.agent.put(`/api/tenants/${owner.tenantId}/maintenanceWindows/${win.id}`, { name: 'Patch night', start: iso(Date.now() - MINUTE), end: later })).statusCode).toBe(200);
      expect((await row(held)).next_step_at).toBe(later);
      expect((await owner.agent.delete(`/api/tenants/${owner.tenantId}/maintenanceWindows/${win.id}`)).statusCode).toBe(200);
      expect((await row(held)).next_step_at).toBe(iso(h.nowMs));
      await advance(0);
      expect(mailsTo(await emailOf(owner.userId))).toHaveLength(1);
    });

    it('holds by a weekly window on now in its zone', async () => {
      const { owner, integration } = await setup();
      // In Tokyo, from an hour ago to an hour ahead there, on the weekday it started (past midnight: an overnight window).
      const tokyo = new Date(Date.now() + 9 * 3_600_000);
      const hh = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
      const from = new Date(tokyo.getTime() - 60 * MINUTE);
      const to = new Date(tokyo.getTime() + 60 * MINUTE);
      const days = [...new Set([from.getUTCDay(), tokyo.getUTCDay()])];
      const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/maintenanceWindows`, { name: 'Weekly', recurrence: { days, from: hh(from), to: hh(to), timeZone: 'Asia/Tokyo' } });
      expect(res.statusCode).toBe(201);
      expect(res.data.state).toBe('active');
      const held = await trigger(integration.key);
      expect(await row(held)).toMatchObject({ maintenance_window_id: res.data.id, escalation_level: 0, next_step_at: res.data.activeUntil });
    });
  });
}
