import { beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../../app.ts';
import { describeEachDatabase } from '../../test/test-app.ts';
import { addMember } from '../../test/factories.ts';
import { alertTenant, createIntegration, ingest, openEventStream, pdTrigger, sleep } from '../../test/alerts.ts';
import { MAX_LOADED_CHANGES } from './alert-stream.ts';

describeEachDatabase('alerts: live updates to viewers', (t) => {
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const tenant = () => alertTenant(t().app);

  it('streams new and changed alerts to the viewers of that tenant only', async () => {
    const a = await tenant();
    const b = await tenant();
    const member = await addMember(t().deps, t().app, a.owner.tenantId, 'user');
    const streamA = await openEventStream(t().app, `/api/tenants/${a.owner.tenantId}/events`, a.owner.agent.cookie);
    const streamMember = await openEventStream(t().app, `/api/tenants/${a.owner.tenantId}/events`, member.agent.cookie);
    const streamB = await openEventStream(t().app, `/api/tenants/${b.owner.tenantId}/events`, b.owner.agent.cookie);
    try {
      expect(streamA.status()).toBe(200);
      const id = await a.raise('live-1', 'high');
      const created = await streamA.waitFor((e) => e.event === 'alert' && e.data.id === id);
      expect(created.data).toMatchObject({ kind: 'created', status: 'new', priority: 'high', dedupKey: 'live-1' });
      // The alert itself comes along, exactly as the list shows it, so a dashboard shows it without asking again.
      const listed = (await a.owner.agent.get(a.base)).data.items.find((x: any) => x.id === id);
      expect(created.data.alert).toEqual(listed);
      await streamMember.waitFor((e) => e.event === 'alert' && e.data.id === id);

      await a.owner.agent.post(`${a.base}/${id}/acknowledge`);
      const updated = await streamMember.waitFor((e) => e.event === 'alert' && e.data.id === id && e.data.kind === 'updated');
      expect(updated.data.status).toBe('acknowledged');
      expect(updated.data.alert).toMatchObject({ id, status: 'acknowledged', acknowledgedBy: a.owner.userId });

      const bId = await b.raise('b-secret');
      await streamB.waitFor((e) => e.event === 'alert' && e.data.id === bId);
      await sleep(100);
      expect(streamA.alerts().map((c) => c.id)).not.toContain(bId);
      expect(streamB.alerts().map((c) => c.id)).not.toContain(id);
    } finally {
      streamA.close();
      streamMember.close();
      streamB.close();
    }
  });

  it('sends a burst of changes without the alerts (viewers reload once) and every change in order', async () => {
    const a = await tenant();
    const stream = await openEventStream(t().app, `/api/tenants/${a.owner.tenantId}/events`, a.owner.agent.cookie);
    try {
      // One Alertmanager notification of 120 alerts: one transaction, one moment of changes.
      const events = Array.from({ length: MAX_LOADED_CHANGES + 20 }, (_, i) => ({
        status: 'firing',
        labels: { alertname: `Burst${i}`, severity: 'warning' },
        annotations: { summary: `Burst ${i}` },
        fingerprint: `burst${String(i).padStart(12, '0')}`,
      }));
      const res = await ingest(t().app, '/api/ingest/alertmanager', { version: '4', status: 'firing', receiver: 'x', groupKey: '{}', alerts: events }, { authorization: `Bearer ${a.integration.key}` });
      expect(res.statusCode).toBe(202);
      await stream.waitFor(() => stream.alerts().length >= events.length, 5000);
      const burst = stream.alerts();
      expect(burst).toHaveLength(events.length);
      expect(burst.every((e) => e.alert === undefined)).toBe(true);
      // A lone change afterwards carries its alert again.
      const id = await a.raise('after-burst');
      const single = await stream.waitFor((e) => e.event === 'alert' && e.data.id === id);
      expect(single.data.alert?.id).toBe(id);
    } finally {
      stream.close();
    }
  });

  it('refuses the event stream without a session (401) and to non-members (404)', async () => {
    const a = await tenant();
    const b = await tenant();
    const anonymous = await openEventStream(t().app, `/api/tenants/${a.owner.tenantId}/events`, null);
    expect(anonymous.status()).toBe(401);
    const foreign = await openEventStream(t().app, `/api/tenants/${a.owner.tenantId}/events`, b.owner.agent.cookie);
    expect(foreign.status()).toBe(404);
    anonymous.close();
    foreign.close();
  });

  it('reaches the viewers connected to another server instance, and revocation reaches its key cache', async () => {
    const { owner, integration, raise } = await tenant();
    // Only PostgreSQL is shared by several instances (LISTEN/NOTIFY); SQLite runs as one process.
    if (t().db.name !== 'postgres') return;
    const second = await buildApp({ ...t().config }, { logger: false });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const stream = await openEventStream(second.app, `/api/tenants/${owner.tenantId}/events`, owner.agent.cookie);
      await sleep(300); // the second instance's LISTEN connection settles
      const id = await raise('cross-instance');
      const seen = await stream.waitFor((e) => e.event === 'alert' && e.data.id === id);
      expect(seen.data.kind).toBe('created');
      // The second instance caches the key, then the first revokes it: the second must refuse it at once.
      expect((await ingest(second.app, '/v2/enqueue', pdTrigger(integration.key))).statusCode).toBe(202);
      await owner.agent.post(`/api/tenants/${owner.tenantId}/integrations/${integration.id}/revoke`);
      await sleep(300);
      expect((await ingest(second.app, '/v2/enqueue', pdTrigger(integration.key))).statusCode).toBe(401);
      stream.close();
    } finally {
      await second.app.close();
    }
  });

  it('tells viewers to reload when the event listener lost its database connection, and keeps delivering after', async () => {
    const { owner } = await tenant();
    if (t().db.name !== 'postgres') return;
    const stream = await openEventStream(t().app, `/api/tenants/${owner.tenantId}/events`, owner.agent.cookie);
    const second = await buildApp({ ...t().config }, { logger: false });
    await second.app.ready();
    try {
      // Cut this schema's LISTEN connections, as a database restart or a network blip would.
      const channel = `alertdesk_${t().config.databaseSchema}`;
      await expect
        .poll(async () => {
          const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where query = ${`LISTEN "${channel}"`}`.execute(t().deps.db);
          return r.rows[0].n;
        })
        .toBe(2);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where query = ${`LISTEN "${channel}"`}`.execute(t().deps.db);
      await stream.waitFor((e) => e.event === 'resync', 5000);
      // Once reconnected, an alert raised through the other instance still arrives.
      await sleep(300);
      const res = await ingest(second.app, '/api/ingest/events', { title: 'after the blip', dedupKey: 'blip' }, { authorization: `Bearer ${(await createIntegration(owner.agent, owner.tenantId, { name: 'second' })).key}` });
      await stream.waitFor((e) => e.event === 'alert' && e.data.id === res.data.alertId, 5000);
    } finally {
      stream.close();
      await second.app.close();
    }
  });

});
