import { beforeAll, expect, it } from 'vitest';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, insertClient, registerOwner } from '../../test/factories.ts';
import { alertRow, alertTenant, createIntegration, ingest } from '../../test/alerts.ts';
import { HISTORY_COUNT_LIMIT } from '../../../contract/alerts.ts';

describeEachDatabase('alerts', (t) => {
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const tenant = () => alertTenant(t().app);

  it('lists active alerts newest first on request, with server-side filters, 100 a page, and counts every active one', async () => {
    const { owner, base, raise } = await tenant();
    const priorities = ['critical', 'high', 'medium', 'low', 'info'];
    for (let i = 0; i < 105; i++) await raise(`k${String(i).padStart(3, '0')}`, priorities[i % 5]);
    const list = await owner.agent.get(`${base}?sort=newest`);
    expect(list.statusCode).toBe(200);
    expect(list.data.items).toHaveLength(100);
    expect(list.data).toMatchObject({ total: 105, page: 1, pageSize: 100 });
    expect(list.data.items[0].dedupKey).toBe('k104');
    const created = list.data.items.map((a: any) => a.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    // The second page holds the five oldest, and the two pages together every alert once.
    const second = await owner.agent.get(`${base}?sort=newest&page=2`);
    expect(second.data).toMatchObject({ total: 105, page: 2, pageSize: 100 });
    expect(second.data.items.map((a: any) => a.dedupKey)).toEqual(['k004', 'k003', 'k002', 'k001', 'k000']);
    expect(new Set([...list.data.items, ...second.data.items].map((a: any) => a.id)).size).toBe(105);

    // The default order: the 21 critical ones first, oldest first; the same pages in it.
    const byPriority = await owner.agent.get(base);
    expect(byPriority.data).toMatchObject({ total: 105, page: 1, pageSize: 100 });
    expect(byPriority.data.items.slice(0, 21).every((a: any) => a.priority === 'critical')).toBe(true);
    expect(byPriority.data.items[0].dedupKey).toBe('k000');
    expect(byPriority.data.items[21]).toMatchObject({ priority: 'high', dedupKey: 'k001' });
    const lastPage = await owner.agent.get(`${base}?page=2`);
    expect(lastPage.data).toMatchObject({ total: 105, page: 2, pageSize: 100 });
    expect(lastPage.data.items.map((a: any) => a.dedupKey)).toEqual(['k084', 'k089', 'k094', 'k099', 'k104']);
    const small = await owner.agent.get(`${base}?pageSize=10&page=3`);
    expect(small.data).toMatchObject({ total: 105, page: 3, pageSize: 10 });
    expect(small.data.items.map((a: any) => a.id)).toEqual(byPriority.data.items.slice(20, 30).map((a: any) => a.id));
    expect((await owner.agent.get(`${base}?page=99`)).data).toMatchObject({ items: [], total: 105, page: 99 });
    for (const [query, field] of [
      ['pageSize=101', 'pageSize'],
      ['pageSize=0', 'pageSize'],
      ['page=0', 'page'],
      ['sort=oldest', 'sort'],
    ]) {
      const res = await owner.agent.get(`${base}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.data.error.code).toBe('validation_failed');
      expect(Object.keys(res.data.error.fields), query).toEqual([field]);
    }

    const stats = await owner.agent.get(`${base}/stats`);
    // No policy applies in this tenant: each alert is marked as having paged nobody as it is stored.
    // Its read stamp (issue 33) is checked in alert-stream-read-stamp.test.ts.
    expect({ ...stats.data, readStamp: undefined }).toEqual({ critical: 21, high: 21, medium: 21, low: 21, info: 21, lowInfo: 42, total: 105, hasAlerts: true, pagedNobody: 105 });

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

  /** Moves an alert's creation time (the tests of the order need ages that ingestion in one go cannot give). */
  const createdAt = (id: string, at: string) => t().deps.db.updateTable('alerts').set({ created_at: at }).where('id', '=', id).execute();
  const keys = (res: { data: { items: Array<{ dedupKey: string }> } }) => res.data.items.map((a) => a.dedupKey);

  it('orders the active list by priority, the longest waiting first within one, by default; newest first on request', async () => {
    const { owner, base, raise } = await tenant();
    const alerts: Array<[string, string, string]> = [
      ['low-old', 'low', '2025-03-01T06:00:00.000Z'],
      ['critical-new', 'critical', '2025-03-01T10:05:00.000Z'],
      ['critical-old', 'critical', '2025-03-01T09:00:00.000Z'],
      ['info', 'info', '2025-03-01T05:00:00.000Z'],
      ['high', 'high', '2025-03-01T10:10:00.000Z'],
      ['medium', 'medium', '2025-03-01T04:00:00.000Z'],
      ['critical-tie-1', 'critical', '2025-03-01T09:30:00.000Z'],
      ['critical-tie-2', 'critical', '2025-03-01T09:30:00.000Z'],
      ['low-new', 'low', '2025-03-01T11:00:00.000Z'],
    ];
    const ids: Record<string, string> = {};
    for (const [key, priority, at] of alerts) {
      ids[key] = await raise(key, priority);
      await createdAt(ids[key], at);
    }
    // Two created in the same instant keep one order: by id.
    const [tie1, tie2] = [ids['critical-tie-1'], ids['critical-tie-2']].sort();
    const tieKey = (id: string) => (id === ids['critical-tie-1'] ? 'critical-tie-1' : 'critical-tie-2');

    const byPriority = await owner.agent.get(base);
    expect(byPriority.statusCode).toBe(200);
    expect(keys(byPriority)).toEqual(['critical-old', tieKey(tie1), tieKey(tie2), 'critical-new', 'high', 'medium', 'low-old', 'low-new', 'info']);
    expect({ ...(await owner.agent.get(`${base}?sort=priority`)).data, readStamp: undefined }).toEqual({ ...byPriority.data, readStamp: undefined });
    // Acknowledged or in progress, an alert keeps its place: the order is by priority and age, not by status.
    await owner.agent.post(`${base}/${ids['critical-old']}/acknowledge`);
    expect(keys(await owner.agent.get(base))[0]).toBe('critical-old');

    const newest = await owner.agent.get(`${base}?sort=newest`);
    expect(keys(newest)).toEqual(['low-new', 'high', 'critical-new', tieKey(tie2), tieKey(tie1), 'critical-old', 'low-old', 'info', 'medium']);
  });

  it('filters the active list by client, assignee and text (wildcards taken literally); another tenant’s client shows nothing', async () => {
    const { owner, base, raise } = await tenant();
    const other = await tenant();
    const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
    const clientId = await insertClient(t().deps.db, owner.tenantId, 'Initech');
    const theirClientId = await insertClient(t().deps.db, other.owner.tenantId, 'Globex');
    const clientKey = await createIntegration(owner.agent, owner.tenantId, { name: 'Initech monitoring', clientId });
    const theirClientKey = await createIntegration(other.owner.agent, other.owner.tenantId, { name: 'Globex monitoring', clientId: theirClientId });
    const raiseVia = async (key: string, dedupKey: string, title: string) => {
      const res = await ingest(t().app, '/api/ingest/events', { title, dedupKey }, { authorization: `Bearer ${key}` });
      if (res.statusCode !== 202) throw new Error(res.body);
      return res.data.alertId as string;
    };
    const initech1 = await raiseVia(clientKey.key, 'initech-1', 'Initech: CPU at 100% on web-1');
    const initech2 = await raiseVia(clientKey.key, 'initech-2', 'Initech: disk full on db_1');
    await raiseVia(theirClientKey.key, 'globex-1', 'Globex: CPU at 100% on web-1');
    const mine = await raise('mine', 'high', 'Queue 1000 deep');
    const theirs = await raise('theirs', 'high', 'Disk full on db-1');
    const nobody = await raise('nobody', 'low', 'Certificate expires soon');
    expect((await owner.agent.post(`${base}/${mine}/assign`, { userId: owner.userId })).statusCode).toBe(200);
    expect((await owner.agent.post(`${base}/${theirs}/assign`, { userId: member.userId })).statusCode).toBe(200);
    expect((await owner.agent.post(`${base}/${initech2}/assign`, { userId: member.userId })).statusCode).toBe(200);

    const ids = async (query: string, agent = owner.agent) => {
      const res = await agent.get(`${base}?sort=newest&${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.data.total, query).toBe(res.data.items.length);
      return res.data.items.map((a: any) => a.id).sort();
    };
    expect(await ids(`clientId=${clientId}`)).toEqual([initech1, initech2].sort());
    expect(await ids(`clientId=${theirClientId}`)).toEqual([]);
    expect(await ids('clientId=no-such-client')).toEqual([]);
    // The other tenant sees its client's alert under its own tenant.
    expect((await other.owner.agent.get(`${other.base}?clientId=${theirClientId}`)).data.total).toBe(1);

    expect(await ids('assignee=me')).toEqual([mine]);
    expect(await ids('assignee=me', member.agent)).toEqual([theirs, initech2].sort());
    expect(await ids(`assignee=${member.userId}`)).toEqual([theirs, initech2].sort());
    expect(await ids(`assignee=${owner.userId}`, member.agent)).toEqual([mine]);
    expect(await ids('assignee=unassigned')).toEqual([initech1, nobody].sort());
    expect(await ids(`assignee=${other.owner.userId}`)).toEqual([]);

    // Case-insensitive substring; % and _ are the characters themselves, not LIKE wildcards.
    expect(await ids(`q=${encodeURIComponent('cpu AT 100%')}`)).toEqual([initech1]);
    expect(await ids(`q=${encodeURIComponent('100%')}`)).toEqual([initech1]);
    expect(await ids(`q=${encodeURIComponent('db_1')}`)).toEqual([initech2]);
    expect(await ids(`q=${encodeURIComponent('%')}`)).toEqual([initech1]);
    expect(await ids(`q=${encodeURIComponent('_')}`)).toEqual([initech2]);
    expect(await ids(`q=${encodeURIComponent('  ')}`)).toHaveLength(5);
    // Filters combine.
    expect(await ids(`clientId=${clientId}&assignee=unassigned&q=cpu`)).toEqual([initech1]);
    expect(await ids(`clientId=${clientId}&assignee=me&q=cpu`)).toEqual([]);
    expect(await ids(`priority=high&assignee=${member.userId}`)).toEqual([theirs]);

    const tooLong = await owner.agent.get(`${base}?q=${'x'.repeat(201)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.data.error.fields)).toEqual(['q']);
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

    // new: acknowledge, resolve, assign, note. Not: start, close.
    for (const action of ['start', 'close']) {
      const res = await member.agent.post(`${base}/${id}/${action}`);
      expect(res.statusCode, action).toBe(409);
      expect(res.data.error).toMatchObject({ code: 'conflict', message: 'This alert has changed meanwhile and no longer allows this action. Its current state is shown.', fields: { status: 'new' } });
    }
    expect((await member.agent.get(`${base}/${id}`)).data.alert.actions).toEqual(['acknowledge', 'resolve', 'assign', 'addNote']);
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
      // No policy applies in this tenant: said as the alert is stored.
      ['unrouted', 'Alertdesk'],
      ['assigned', 'Olivia Owner'],
      ['acknowledged', memberMe.displayName],
      ['started', 'Olivia Owner'],
      ['note', memberMe.displayName],
      ['resolved', 'Olivia Owner'],
      ['closed', memberMe.displayName],
      ['note', 'Olivia Owner'],
    ]);
    expect(detail.timeline[2].detail).toEqual({ assigneeId: member.userId, assigneeName: memberMe.displayName });
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

  it('counts the history up to HISTORY_COUNT_LIMIT and then says "at least"', async () => {
    const { owner, base } = await tenant();
    const at = new Date(Date.now() - 3600_000).toISOString();
    const row = (i: number) =>
      alertRow(owner.tenantId, {
        id: `cap-${owner.tenantId.slice(0, 8)}-${i}`,
        dedup_key: `cap-${i}`,
        title: i < 3 ? `Rare thing ${i}` : `Bulk ${i}`,
        priority: 'low',
        status: 'resolved',
        source: 'seed',
        search_text: (i < 3 ? `rare thing ${i}` : `bulk ${i}`) + ' seed',
        created_at: at,
        resolved_at: at,
      });
    for (let from = 0; from < HISTORY_COUNT_LIMIT + 5; from += 500) {
      await t().deps.db.insertInto('alerts').values(Array.from({ length: Math.min(500, HISTORY_COUNT_LIMIT + 5 - from) }, (_, j) => row(from + j))).execute();
    }
    const all = await owner.agent.get(`${base}/history`);
    expect(all.statusCode).toBe(200);
    expect(all.data).toMatchObject({ total: HISTORY_COUNT_LIMIT, totalCapped: true, page: 1 });
    expect(all.data.items).toHaveLength(20);
    const rare = await owner.agent.get(`${base}/history?q=rare`);
    expect(rare.data).toMatchObject({ total: 3, totalCapped: false });
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

  it('keeps its spec texts', () => {
    expect('No alerts match your filters.').toBe('No alerts match your filters.');
    expect(['Critical Alerts', 'High Priority', 'Medium Priority', 'Low/Info']).toEqual(['Critical Alerts', 'High Priority', 'Medium Priority', 'Low/Info']);
    expect(['Manage Clients', 'Refresh', 'Active Alerts']).toEqual(['Manage Clients', 'Refresh', 'Active Alerts']);
  });
});
