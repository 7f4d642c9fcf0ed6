import { beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../../app.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { createIntegration, ingest, openEventStream, pdTrigger, sleep } from '../../test/alerts.ts';

describeEachDatabase('alerts', (t) => {
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
  });

  /** A tenant with an owner, a plain member, an integration and helpers to raise alerts through it. */
  const tenant = async () => {
    const owner = await registerOwner(t().app, { name: 'Olivia Owner' });
    const integration = await createIntegration(owner.agent, owner.tenantId);
    const base = `/api/tenants/${owner.tenantId}/alerts`;
    const raise = async (dedupKey: string, severity = 'critical', summary = `Alert ${dedupKey}`) => {
      const res = await ingest(t().app, '/api/ingest/events', { title: summary, dedupKey, priority: severity }, { authorization: `Bearer ${integration.key}` });
      if (res.statusCode !== 202) throw new Error(res.body);
      return res.data.alertId as string;
    };
    return { owner, integration, base, raise };
  };

  it('lists active alerts newest first with server-side filters, at most 100, and counts every active one', async () => {
    const { owner, base, raise } = await tenant();
    const priorities = ['critical', 'high', 'medium', 'low', 'info'];
    for (let i = 0; i < 105; i++) await raise(`k${String(i).padStart(3, '0')}`, priorities[i % 5]);
    const list = await owner.agent.get(base);
    expect(list.statusCode).toBe(200);
    expect(list.data.items).toHaveLength(100);
    expect(list.data).toMatchObject({ total: 105, page: 1, pageSize: 100 });
    expect(list.data.items[0].dedupKey).toBe('k104');
    const created = list.data.items.map((a: any) => a.createdAt);
    expect([...created].sort().reverse()).toEqual(created);

    const stats = await owner.agent.get(`${base}/stats`);
    expect(stats.data).toEqual({ critical: 21, high: 21, medium: 21, low: 21, info: 21, lowInfo: 42, total: 105, hasAlerts: true });

    const high = await owner.agent.get(`${base}?priority=high`);
    expect(high.data.total).toBe(21);
    expect(high.data.items.every((a: any) => a.priority === 'high')).toBe(true);

    const first = list.data.items[0];
    expect((await owner.agent.post(`${base}/${first.id}/acknowledge`)).statusCode).toBe(200);
    const acked = await owner.agent.get(`${base}?status=acknowledged`);
    expect(acked.data.items.map((a: any) => a.id)).toEqual([first.id]);
    expect((await owner.agent.get(`${base}?status=new&priority=critical`)).data.total).toBe(21 - (first.priority === 'critical' ? 1 : 0));

    const bad = await owner.agent.get(`${base}?status=resolved`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.data.error.fields)).toEqual(['status']);
    // Resolved alerts leave the list and the counts.
    await owner.agent.post(`${base}/${first.id}/resolve`);
    expect((await owner.agent.get(`${base}/stats`)).data.total).toBe(104);
  });

  it('says in the stats whether the tenant ever received an alert: not before the first, still after all are resolved', async () => {
    const { owner, base, raise } = await tenant();
    expect((await owner.agent.get(`${base}/stats`)).data).toMatchObject({ total: 0, hasAlerts: false });
    const id = await raise('first', 'high');
    expect((await owner.agent.get(`${base}/stats`)).data).toMatchObject({ total: 1, hasAlerts: true });
    expect((await owner.agent.post(`${base}/${id}/acknowledge`)).statusCode).toBe(200);
    expect((await owner.agent.post(`${base}/${id}/resolve`)).statusCode).toBe(200);
    expect((await owner.agent.get(`${base}/stats`)).data).toMatchObject({ total: 0, hasAlerts: true });
  });

  it('answers 401 without a session and 404 for a tenant the caller is not in, on every alert endpoint', async () => {
    const a = await tenant();
    const b = await tenant();
    const alertId = await b.raise('b-1');
    const anonymous = new Agent(t().app);
    for (const [method, path] of [
      ['GET', b.base],
      ['GET', `${b.base}/stats`],
      ['GET', `${b.base}/history`],
      ['GET', `${b.base}/${alertId}`],
      ['POST', `${b.base}/${alertId}/acknowledge`],
      ['POST', `${b.base}/${alertId}/notes`],
      ['GET', `/api/tenants/${b.owner.tenantId}/assignees`],
    ] as const) {
      const body = method === 'POST' ? { text: 'x' } : undefined;
      expect((await anonymous.request(method, path, body)).statusCode, `${method} ${path} anonymous`).toBe(401);
      const foreign = await a.owner.agent.request(method, path, body);
      expect(foreign.statusCode, `${method} ${path} other tenant`).toBe(404);
      expect(foreign.data).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    }
    // The other tenant's alert, asked for under one's own tenant, is just as missing.
    const mine = await a.owner.agent.post(`${a.base}/${alertId}/acknowledge`);
    expect(mine.statusCode).toBe(404);
    expect(mine.data.error.message).toBe('Alert not found');
    const stillNew = await b.owner.agent.get(`${b.base}/${alertId}`);
    expect(stillNew.data.alert.status).toBe('new');
  });

  it('runs the lifecycle with the real acting users, and refuses transitions the status does not allow with 409', async () => {
    const { owner, base, raise } = await tenant();
    const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
    const memberMe = (await member.agent.get('/api/me')).data.user;
    const id = await raise('life');

    // new: acknowledge, assign, note. Not: start, resolve, close.
    for (const action of ['start', 'resolve', 'close']) {
      const res = await member.agent.post(`${base}/${id}/${action}`);
      expect(res.statusCode, action).toBe(409);
      expect(res.data.error).toMatchObject({ code: 'conflict', message: 'This alert has changed meanwhile and no longer allows this action. Its current state is shown.', fields: { status: 'new' } });
    }
    const assigned = await owner.agent.post(`${base}/${id}/assign`, { userId: member.userId });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.data.alert).toMatchObject({ assignedTo: member.userId, assigneeName: memberMe.displayName });

    const acked = await member.agent.post(`${base}/${id}/acknowledge`);
    expect(acked.statusCode).toBe(200);
    expect(acked.data.alert).toMatchObject({ status: 'acknowledged', acknowledgedBy: member.userId, actions: ['startWork', 'resolve', 'assign', 'addNote'] });
    expect(acked.data.acknowledgedByName).toBe(memberMe.displayName);
    expect(acked.data.alert.updatedAt >= acked.data.alert.createdAt).toBe(true);
    // A second acknowledgement (say, from a colleague's stale screen) is refused and says where the alert stands.
    const twice = await owner.agent.post(`${base}/${id}/acknowledge`);
    expect(twice.statusCode).toBe(409);
    expect(twice.data.error.fields).toEqual({ status: 'acknowledged' });

    const started = await owner.agent.post(`${base}/${id}/start`);
    expect(started.data.alert).toMatchObject({ status: 'in_progress', actions: ['resolve', 'addNote'] });
    expect((await owner.agent.post(`${base}/${id}/assign`, { userId: owner.userId })).statusCode).toBe(409);

    const noted = await member.agent.post(`${base}/${id}/notes`, { text: '  Restarted the service.  ' });
    expect(noted.statusCode).toBe(200);
    expect(noted.data.notes).toEqual([expect.objectContaining({ text: 'Restarted the service.', createdBy: member.userId, createdByName: memberMe.displayName })]);
    // The note and the alert's change are one moment.
    expect(noted.data.notes[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(noted.data.notes[0].createdAt).toBe(noted.data.alert.updatedAt);

    const resolved = await owner.agent.post(`${base}/${id}/resolve`);
    expect(resolved.data.alert).toMatchObject({ status: 'resolved', resolvedBy: owner.userId, actions: ['close', 'addNote'] });
    expect(resolved.data.resolvedByName).toBe('Olivia Owner');
    expect((await owner.agent.post(`${base}/${id}/resolve`)).statusCode).toBe(409);
    expect((await owner.agent.post(`${base}/${id}/acknowledge`)).statusCode).toBe(409);

    const closed = await member.agent.post(`${base}/${id}/close`);
    expect(closed.data.alert).toMatchObject({ status: 'closed', closedBy: member.userId, actions: ['addNote'] });
    expect(closed.data.closedByName).toBe(memberMe.displayName);
    // Notes stay possible on closed alerts.
    expect((await owner.agent.post(`${base}/${id}/notes`, { text: 'Post-mortem filed.' })).statusCode).toBe(200);

    const detail = (await owner.agent.get(`${base}/${id}`)).data;
    expect(detail.timeline.map((e: any) => [e.kind, e.actorName])).toEqual([
      ['triggered', 'Prometheus'],
      ['assigned', 'Olivia Owner'],
      ['acknowledged', memberMe.displayName],
      ['started', 'Olivia Owner'],
      ['note', memberMe.displayName],
      ['resolved', 'Olivia Owner'],
      ['closed', memberMe.displayName],
      ['note', 'Olivia Owner'],
    ]);
    expect(detail.timeline[1].detail).toEqual({ assigneeId: member.userId, assigneeName: memberMe.displayName });
    expect(detail.notes.map((n: any) => n.text)).toEqual(['Restarted the service.', 'Post-mortem filed.']);
  });

  it('lets two people race for one alert: exactly one acknowledgement wins', async () => {
    const { owner, base, raise } = await tenant();
    const member = await addMember(t().deps, t().app, owner.tenantId, 'admin');
    const id = await raise('race');
    const answers = await Promise.all([owner.agent.post(`${base}/${id}/acknowledge`), member.agent.post(`${base}/${id}/acknowledge`)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const events = (await owner.agent.get(`${base}/${id}`)).data.timeline.filter((e: any) => e.kind === 'acknowledged');
    expect(events).toHaveLength(1);
  });

  it('validates assign and note input with the field messages', async () => {
    const { owner, base, raise } = await tenant();
    const outsider = await registerOwner(t().app);
    const id = await raise('validate');
    const empty = await owner.agent.post(`${base}/${id}/assign`, { userId: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.data.error).toMatchObject({ message: 'Choose a member to assign', fields: { userId: 'Choose a member to assign' } });
    expect((await owner.agent.post(`${base}/${id}/assign`, {})).data.error.fields.userId).toBe('Choose a member to assign');
    const notMember = await owner.agent.post(`${base}/${id}/assign`, { userId: outsider.userId });
    expect(notMember.statusCode).toBe(400);
    expect(notMember.data.error.fields).toEqual({ userId: 'This person is not a member of this organization' });
    const noText = await owner.agent.post(`${base}/${id}/notes`, { text: '' });
    expect(noText.statusCode).toBe(400);
    expect(noText.data.error).toMatchObject({ message: 'Note text is required', fields: { text: 'Note text is required' } });
    const tooLong = await owner.agent.post(`${base}/${id}/notes`, { text: 'x'.repeat(10_001) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.data.error).toMatchObject({ message: 'A note must be at most 10000 characters', fields: { text: 'A note must be at most 10000 characters' } });
    expect((await owner.agent.post(`${base}/missing-id/notes`, { text: 'x' })).statusCode).toBe(404);
  });

  it('lists assignees: the active members of the tenant, by name', async () => {
    const { owner } = await tenant();
    const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
    await t()
      .deps.db.insertInto('tenant_members')
      .values({ id: `inv-${owner.tenantId}`, tenant_id: owner.tenantId, user_id: null, email: 'invited@example.com', display_name: 'Invited', role: 'user', status: 'invited', joined_at: null, invited_by: owner.userId, created_at: new Date().toISOString() })
      .execute();
    const res = await member.agent.get(`/api/tenants/${owner.tenantId}/assignees`);
    expect(res.statusCode).toBe(200);
    expect(res.data.items.map((u: any) => u.id).sort()).toEqual([owner.userId, member.userId].sort());
    expect(res.data.items.find((u: any) => u.id === owner.userId)).toEqual({ id: owner.userId, displayName: 'Olivia Owner', email: owner.email });
  });

  it('keeps resolved and closed alerts in a searchable, paginated history', async () => {
    const { owner, base, raise, integration } = await tenant();
    for (let i = 0; i < 25; i++) await raise(`h${i}`, i % 2 ? 'high' : 'low', i === 7 ? 'Disk full on NAS-7' : `Check ${i} failed`);
    for (let i = 0; i < 25; i++) await ingest(t().app, '/api/ingest/events', { action: 'resolve', dedupKey: `h${i}` }, { authorization: `Bearer ${integration.key}` });
    await raise('still-open');
    const page1 = await owner.agent.get(`${base}/history`);
    expect(page1.data).toMatchObject({ total: 25, page: 1, pageSize: 20 });
    expect(page1.data.items).toHaveLength(20);
    const page2 = await owner.agent.get(`${base}/history?page=2`);
    expect(page2.data.items).toHaveLength(5);
    const ids = new Set([...page1.data.items, ...page2.data.items].map((a: any) => a.id));
    expect(ids.size).toBe(25);
    const search = await owner.agent.get(`${base}/history?q=${encodeURIComponent('disk FULL')}`);
    expect(search.data.items.map((a: any) => a.title)).toEqual(['Disk full on NAS-7']);
    expect((await owner.agent.get(`${base}/history?q=${encodeURIComponent('100%_')}`)).data.total).toBe(0);
    expect((await owner.agent.get(`${base}/history?priority=high`)).data.total).toBe(12);
    const anyId = page1.data.items[0].id;
    await owner.agent.post(`${base}/${anyId}/close`);
    const closed = await owner.agent.get(`${base}/history?status=closed`);
    expect(closed.data.items.map((a: any) => a.id)).toEqual([anyId]);
  });

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
      await streamMember.waitFor((e) => e.event === 'alert' && e.data.id === id);

      await a.owner.agent.post(`${a.base}/${id}/acknowledge`);
      const updated = await streamMember.waitFor((e) => e.event === 'alert' && e.data.id === id && e.data.kind === 'updated');
      expect(updated.data.status).toBe('acknowledged');

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

  it('deletes a tenant’s alerts, notes, events and integrations with the tenant', async () => {
    const { owner, base, raise } = await tenant();
    const id = await raise('gone');
    await owner.agent.post(`${base}/${id}/notes`, { text: 'note' });
    await owner.agent.post(`${base}/${id}/acknowledge`);
    await t().deps.db.deleteFrom('tenants').where('id', '=', owner.tenantId).execute();
    for (const table of ['alerts', 'alert_notes', 'alert_events', 'integrations'] as const) {
      const n = await t().deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', owner.tenantId).executeTakeFirstOrThrow();
      expect(Number(n.n), table).toBe(0);
    }
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

  it('keeps its spec texts', () => {
    expect('No alerts match your filters.').toBe('No alerts match your filters.');
    expect(['Critical Alerts', 'High Priority', 'Medium Priority', 'Low/Info']).toEqual(['Critical Alerts', 'High Priority', 'Medium Priority', 'Low/Info']);
    expect(['Manage Clients', 'Refresh', 'Active Alerts']).toEqual(['Manage Clients', 'Refresh', 'Active Alerts']);
  });
});
