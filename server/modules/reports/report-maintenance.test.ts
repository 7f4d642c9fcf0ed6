import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';

/**
 * Issue 31: the client report's "maintenance done": each occurrence of a window that took in the client (its own or
 * the whole tenant's) within the period and before now, oldest first.
 */
describeEachDatabase('the maintenance a report lists', (t) => {
  it('lists the occurrences of the client’s and the tenant’s windows in the period, not another client’s or what is still to come', async () => {
    const owner = await registerOwner(t().app, { name: 'Olivia Owner' });
    const base = `/api/tenants/${owner.tenantId}`;
    const client = async (name: string) => (await owner.agent.post(`${base}/clients`, { name, status: 'active' })).data.id as string;
    const [acme, globex] = [await client('Acme'), await client('Globex')];
    const window = async (body: Record<string, unknown>) => expect((await owner.agent.post(`${base}/maintenanceWindows`, body)).statusCode).toBe(201);
    // Two Sundays (March 2 and 9, 2025) in Berlin, 01:00–03:00 (CET, UTC+1): only the 9th is in the week of the 3rd.
    await window({ name: 'Sunday backups', recurrence: { days: [0], from: '01:00', to: '03:00', timeZone: 'Europe/Berlin' }, scope: { clientIds: [acme] } });
    await window({ name: 'Firewall upgrade', start: '2025-03-05T20:00:00.000Z', end: '2025-03-05T22:00:00.000Z' });
    await window({ name: 'Globex patch night', start: '2025-03-06T20:00:00.000Z', end: '2025-03-06T23:00:00.000Z', scope: { clientIds: [globex] } });
    // Straddling the period's start: it was on during the period, so it is listed with its own times.
    await window({ name: 'Storage migration', start: '2025-03-02T22:00:00.000Z', end: '2025-03-03T02:00:00.000Z', scope: { clientIds: [acme] } });
    // Still to come: not done.
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await window({ name: 'Next week', start: later, end: new Date(Date.now() + 2 * 86_400_000).toISOString() });

    const report = async (params: Record<string, string>) => {
      const res = await owner.agent.get(`${base}/reports/summary?${new URLSearchParams(params)}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.data.maintenanceDone as Array<{ name: string; start: string; end: string }>;
    };
    const period = { from: '2025-03-03T00:00:00.000Z', to: '2025-03-10T00:00:00.000Z' };
    expect((await report({ ...period, clientId: acme })).map((m) => [m.name, m.start, m.end])).toEqual([
      ['Storage migration', '2025-03-02T22:00:00.000Z', '2025-03-03T02:00:00.000Z'],
      ['Firewall upgrade', '2025-03-05T20:00:00.000Z', '2025-03-05T22:00:00.000Z'],
      ['Sunday backups', '2025-03-09T00:00:00.000Z', '2025-03-09T02:00:00.000Z'],
    ]);
    expect((await report({ ...period, clientId: globex })).map((m) => m.name)).toEqual(['Firewall upgrade', 'Globex patch night']);
    // The tenant's report names every window's occurrences.
    expect((await report(period)).map((m) => m.name)).toEqual(['Storage migration', 'Firewall upgrade', 'Globex patch night', 'Sunday backups']);
    // A period reaching into the future lists nothing that has not happened yet.
    const now = Date.now();
    const upcoming = await report({ from: new Date(now - 3 * 86_400_000).toISOString(), to: new Date(now + 5 * 86_400_000).toISOString() });
    expect(upcoming.map((m) => m.name)).not.toContain('Next week');
    for (const m of upcoming) expect(Date.parse(m.start)).toBeLessThan(now);
  });
});
