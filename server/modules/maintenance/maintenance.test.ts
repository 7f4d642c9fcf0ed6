import { expect, it } from 'vitest';
import { MAINTENANCE_MSG } from '../../../contract/maintenance.ts';
import { describeEachDatabase } from '../../test/test-app.ts';
import { insertClient, registerOwner, registerTeam } from '../../test/factories.ts';
import { createIntegration } from '../../test/alerts.ts';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const oneOff = (over: Record<string, unknown> = {}) => ({ name: 'Patch night', start: iso(Date.now() - HOUR), end: iso(Date.now() + HOUR), ...over });
const weekly = (over: Record<string, unknown> = {}) => ({ name: 'Sunday backups', recurrence: { days: [0], from: '01:00', to: '03:00', timeZone: 'Europe/Berlin' }, ...over });

describeEachDatabase('maintenance windows', (t) => {
  it('creates, lists, gets, updates, ends and deletes a window; members read, owners and admins write', async () => {
    const team = await registerTeam(t());
    const base = `/api/tenants/${team.tenantId}/maintenanceWindows`;
    const created = await team.admin.agent.post(base, oneOff({ name: '  Patch night  ' }));
    expect(created.statusCode).toBe(201);
    expect(created.data).toMatchObject({ name: 'Patch night', kind: 'one_off', state: 'active', recurrence: null, scope: { clientIds: [], integrationIds: [] }, endedAt: null, activeUntil: created.data.end });
    const id = created.data.id;

    const scheduled = await team.owner.agent.post(base, oneOff({ name: 'Later', start: iso(Date.now() + 2 * HOUR), end: iso(Date.now() + 3 * HOUR) }));
    expect(scheduled.data).toMatchObject({ state: 'scheduled', activeUntil: null, nextStart: scheduled.data.start });
    const week = await team.owner.agent.post(base, weekly());
    expect(week.statusCode).toBe(201);
    expect(week.data).toMatchObject({ kind: 'weekly', start: null, end: null, recurrence: { days: [0], from: '01:00', to: '03:00', timeZone: 'Europe/Berlin' }, until: null });
    expect(['active', 'scheduled']).toContain(week.data.state);

    // Every member reads; a member may not write.
    const list = await team.user.agent.get(base);
    expect(list.statusCode).toBe(200);
    expect(list.data.total).toBe(3);
    expect((await team.user.agent.get(`${base}/${id}`)).data.name).toBe('Patch night');
    expect((await team.user.agent.post(base, oneOff())).statusCode).toBe(403);
    expect((await team.user.agent.put(`${base}/${id}`, oneOff())).statusCode).toBe(403);
    expect((await team.user.agent.post(`${base}/${id}/end`)).statusCode).toBe(403);
    expect((await team.user.agent.delete(`${base}/${id}`)).statusCode).toBe(403);

    const updated = await team.owner.agent.put(`${base}/${id}`, oneOff({ name: 'Patch night (long)', end: iso(Date.now() + 5 * HOUR) }));
    expect(updated.statusCode).toBe(200);
    expect(updated.data.name).toBe('Patch night (long)');

    const ended = await team.owner.agent.post(`${base}/${id}/end`);
    expect(ended.statusCode).toBe(200);
    expect(ended.data).toMatchObject({ state: 'ended', activeUntil: null });
    expect(ended.data.endedAt).not.toBeNull();
    // Ending what is not on any more says so.
    const again = await team.owner.agent.post(`${base}/${id}/end`);
    expect(again.statusCode).toBe(409);
    expect(again.data.error.message).toBe(MAINTENANCE_MSG.alreadyEnded);
    expect((await team.owner.agent.get(`${base}?current=true`)).data.items.map((w: { name: string }) => w.name).sort()).toEqual(['Later', 'Sunday backups']);

    expect((await team.owner.agent.delete(`${base}/${id}`)).statusCode).toBe(200);
    expect((await team.owner.agent.get(`${base}/${id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with the field and its message', async () => {
    const owner = await registerOwner(t().app);
    const base = `/api/tenants/${owner.tenantId}/maintenanceWindows`;
    const refused = async (body: unknown, field: string, message: string) => {
      const res = await owner.agent.post(base, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data.error.fields[field], JSON.stringify(res.data.error)).toBe(message);
    };
    await refused(oneOff({ name: '' }), 'name', MAINTENANCE_MSG.nameRequired);
    await refused(oneOff({ end: iso(Date.now() - 2 * HOUR) }), 'end', MAINTENANCE_MSG.endBeforeStart);
    await refused({ name: 'x', start: iso(Date.now()) }, 'end', MAINTENANCE_MSG.endRequired);
    await refused(oneOff({ start: 'tomorrow' }), 'start', MAINTENANCE_MSG.timeInvalid);
    await refused(weekly({ recurrence: { days: [7], from: '01:00', to: '02:00', timeZone: 'UTC' } }), 'recurrence.days.0', MAINTENANCE_MSG.dayInvalid);
    await refused(weekly({ recurrence: { days: [], from: '01:00', to: '02:00', timeZone: 'UTC' } }), 'recurrence.days', MAINTENANCE_MSG.daysRequired);
    await refused(weekly({ recurrence: { days: [1], from: '1:00', to: '02:00', timeZone: 'UTC' } }), 'recurrence.from', MAINTENANCE_MSG.hhmmInvalid);
    await refused(weekly({ recurrence: { days: [1], from: '01:00', to: '24:00', timeZone: 'UTC' } }), 'recurrence.to', MAINTENANCE_MSG.hhmmInvalid);
    await refused(weekly({ recurrence: { days: [1], from: '01:00', to: '02:00', timeZone: 'Mars/Olympus' } }), 'recurrence.timeZone', MAINTENANCE_MSG.timeZoneInvalid);
    await refused(weekly({ start: iso(Date.now()) }), 'recurrence', MAINTENANCE_MSG.oneOffOrWeekly);
  });

  it('takes only the tenant’s own clients and integrations in a scope; another tenant’s window is 404', async () => {
    const owner = await registerOwner(t().app);
    const other = await registerOwner(t().app);
    const base = `/api/tenants/${owner.tenantId}/maintenanceWindows`;
    const theirClient = await insertClient(t().deps.db, other.tenantId, 'Theirs');
    const theirIntegration = await createIntegration(other.agent, other.tenantId);
    const mine = await insertClient(t().deps.db, owner.tenantId, 'Mine');
    const myIntegration = await createIntegration(owner.agent, owner.tenantId);

    const badClient = await owner.agent.post(base, oneOff({ scope: { clientIds: [theirClient] } }));
    expect(badClient.statusCode).toBe(400);
    expect(badClient.data.error.fields['scope.clientIds']).toBe(MAINTENANCE_MSG.unknownClient);
    const badIntegration = await owner.agent.post(base, oneOff({ scope: { integrationIds: [theirIntegration.id] } }));
    expect(badIntegration.statusCode).toBe(400);
    expect(badIntegration.data.error.fields['scope.integrationIds']).toBe(MAINTENANCE_MSG.unknownIntegration);

    const ok = await owner.agent.post(base, oneOff({ scope: { clientIds: [mine], integrationIds: [myIntegration.id] } }));
    expect(ok.statusCode).toBe(201);
    expect(ok.data.scope).toEqual({ clientIds: [mine], integrationIds: [myIntegration.id] });
    // The client details ask for the windows covering one client: its own and the whole tenant's.
    await owner.agent.post(base, oneOff({ name: 'Everything' }));
    const otherClient = await insertClient(t().deps.db, owner.tenantId, 'Other');
    expect((await owner.agent.get(`${base}?clientId=${mine}`)).data.items.map((w: { name: string }) => w.name).sort()).toEqual(['Everything', 'Patch night']);
    expect((await owner.agent.get(`${base}?clientId=${otherClient}`)).data.items.map((w: { name: string }) => w.name)).toEqual(['Everything']);

    // Another tenant's window is answered exactly like a missing one, whatever the verb.
    const theirs = `/api/tenants/${owner.tenantId}/maintenanceWindows/${ok.data.id}`;
    const foreign = theirs.replace(owner.tenantId, other.tenantId);
    expect((await other.agent.get(foreign)).statusCode).toBe(404);
    expect((await other.agent.put(foreign, oneOff())).statusCode).toBe(404);
    expect((await other.agent.post(`${foreign}/end`)).statusCode).toBe(404);
    expect((await other.agent.delete(foreign)).statusCode).toBe(404);
    expect((await other.agent.get(theirs)).statusCode).toBe(404);
    expect((await owner.agent.get(theirs)).statusCode).toBe(200);
  });
});
