import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, insertClient, registerOwner } from '../../test/factories.ts';
import { ingest, pdTrigger } from '../../test/alerts.ts';
import { expectTimeSince, ISO_TIME } from '../../test/expect.ts';

describeEachDatabase('integrations', (t) => {
  it('creates a key shown once (32 characters), stores only its hash, and lists it without the key', async () => {
    const owner = await registerOwner(t().app, { name: 'Olivia Owner' });
    const clientId = await insertClient(t().deps.db, owner.tenantId, 'Initech');
    const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/integrations`, { name: '  Prometheus prod  ', clientId });
    expect(res.statusCode).toBe(201);
    const { key, integration } = res.data;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(integration).toMatchObject({
      name: 'Prometheus prod',
      clientId,
      clientName: 'Initech',
      keyPrefix: key.slice(0, 6),
      status: 'active',
      createdByName: 'Olivia Owner',
      revokedAt: null,
      lastUsedAt: null,
      endpoints: { pagerduty: 'http://localhost:3000/v2/enqueue', alertmanager: 'http://localhost:3000/api/ingest/alertmanager', events: 'http://localhost:3000/api/ingest/events' },
    });
    const row = await t().deps.db.selectFrom('integrations').selectAll().where('id', '=', integration.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);

    const list = await owner.agent.get(`/api/tenants/${owner.tenantId}/integrations`);
    expect(list.statusCode).toBe(200);
    expect(list.data.items).toHaveLength(1);
    expect(JSON.stringify(list.data)).not.toContain(key);

    // Alerts through a client-bound integration belong to that client.
    const sentAt = Date.now();
    await ingest(t().app, '/v2/enqueue', pdTrigger(key));
    const alerts = await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`);
    expect(alerts.data.items[0]).toMatchObject({ clientId, clientName: 'Initech' });
    // Recorded off the ingestion path, so it may land a moment after the answer.
    const lastUsedAt = async () => (await owner.agent.get(`/api/tenants/${owner.tenantId}/integrations`)).data.items[0].lastUsedAt;
    await expect.poll(lastUsedAt).toMatch(ISO_TIME);
    expectTimeSince(await lastUsedAt(), sentAt);
  });

  it('lets owners and admins manage integrations; users get 403, strangers 404, anonymous 401', async () => {
    const owner = await registerOwner(t().app);
    const admin = await addMember(t().deps, t().app, owner.tenantId, 'admin');
    const user = await addMember(t().deps, t().app, owner.tenantId, 'user');
    const stranger = await registerOwner(t().app);
    const base = `/api/tenants/${owner.tenantId}/integrations`;
    const created = await admin.agent.post(base, { name: 'Zabbix' });
    expect(created.statusCode).toBe(201);
    const id = created.data.integration.id;
    const calls: Array<[string, string, unknown]> = [
      ['GET', base, undefined],
      ['POST', base, { name: 'x' }],
      ['PATCH', `${base}/${id}`, { name: 'y' }],
      ['POST', `${base}/${id}/rotate`, {}],
      ['POST', `${base}/${id}/renew-email`, {}],
      ['POST', `${base}/${id}/revoke`, {}],
      ['POST', `${base}/${id}/test`, {}],
    ];
    for (const [method, path, body] of calls) {
      const forbidden = await user.agent.request(method as 'GET', path, body);
      expect(forbidden.statusCode, `${method} ${path} as user`).toBe(403);
      expect(forbidden.data.error.message).toBe('You do not have permission to do this');
      expect((await stranger.agent.request(method as 'GET', path, body)).statusCode, `${method} ${path} stranger`).toBe(404);
      expect((await new Agent(t().app).request(method as 'GET', path, body)).statusCode, `${method} ${path} anonymous`).toBe(401);
    }
    // An integration of another tenant, under the stranger's own tenant, is missing too.
    expect((await stranger.agent.post(`/api/tenants/${stranger.tenantId}/integrations/${id}/revoke`)).statusCode).toBe(404);
    expect((await owner.agent.get(base)).data.items[0].status).toBe('active');
  });

  it('validates the name and the client', async () => {
    const owner = await registerOwner(t().app);
    const other = await registerOwner(t().app);
    const foreignClient = await insertClient(t().deps.db, other.tenantId, 'Not yours');
    const base = `/api/tenants/${owner.tenantId}/integrations`;
    const noName = await owner.agent.post(base, { name: '   ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.data.error).toMatchObject({ message: 'Integration name is required', fields: { name: 'Integration name is required' } });
    expect((await owner.agent.post(base, {})).data.error.fields.name).toBe('Integration name is required');
    expect((await owner.agent.post(base, { name: 'n'.repeat(121) })).data.error).toEqual({
      code: 'validation_failed',
      message: 'Must be at most 120 characters',
      fields: { name: 'Must be at most 120 characters' },
    });
    const badClient = await owner.agent.post(base, { name: 'x', clientId: foreignClient });
    expect(badClient.statusCode).toBe(400);
    expect(badClient.data.error.fields).toEqual({ clientId: 'Client not found' });
  });

  it('renames and re-binds; rotation replaces the key; revocation stops it for good', async () => {
    const owner = await registerOwner(t().app);
    const base = `/api/tenants/${owner.tenantId}/integrations`;
    const clientId = await insertClient(t().deps.db, owner.tenantId, 'Umbrella');
    const { integration, key } = (await owner.agent.post(base, { name: 'Nagios' })).data;
    expect((await ingest(t().app, '/v2/enqueue', pdTrigger(key))).statusCode).toBe(202);

    const edited = await owner.agent.patch(`${base}/${integration.id}`, { name: 'Nagios EU', clientId });
    expect(edited.statusCode).toBe(200);
    expect(edited.data).toMatchObject({ name: 'Nagios EU', clientId, clientName: 'Umbrella' });
    // The cached integration picked up the new client at once.
    const after = await ingest(t().app, '/api/ingest/events', { title: 'bound now' }, { authorization: `Bearer ${key}` });
    const alert = (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/${after.data.alertId}`)).data.alert;
    expect(alert).toMatchObject({ clientId, integrationName: 'Nagios EU', source: 'Nagios EU' });
    expect((await owner.agent.patch(`${base}/${integration.id}`, { clientId: null })).data.clientId).toBeNull();

    const rotated = await owner.agent.post(`${base}/${integration.id}/rotate`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.data.key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(rotated.data.key).not.toBe(key);
    expect(rotated.data.integration.keyPrefix).toBe(rotated.data.key.slice(0, 6));
    expect((await ingest(t().app, '/v2/enqueue', pdTrigger(key))).statusCode).toBe(401);
    expect((await ingest(t().app, '/v2/enqueue', pdTrigger(rotated.data.key))).statusCode).toBe(202);

    const revoked = await owner.agent.post(`${base}/${integration.id}/revoke`);
    expect(revoked.data).toMatchObject({ status: 'revoked' });
    expect(revoked.data.revokedAt).toMatch(ISO_TIME);
    expect(revoked.data.revokedAt).toBe(revoked.data.updatedAt);
    expect((await ingest(t().app, '/v2/enqueue', pdTrigger(rotated.data.key))).statusCode).toBe(401);
    const rotateRevoked = await owner.agent.post(`${base}/${integration.id}/rotate`);
    expect(rotateRevoked.statusCode).toBe(409);
    expect(rotateRevoked.data.error.message).toBe('This integration has been revoked');
    expect((await owner.agent.post(`${base}/${integration.id}/test`)).statusCode).toBe(409);
    // Alerts it sent stay.
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`)).data.total).toBe(3);
  });

  it('sends a test alert through the integration', async () => {
    const owner = await registerOwner(t().app, { name: 'Olivia Owner' });
    const base = `/api/tenants/${owner.tenantId}/integrations`;
    const { integration } = (await owner.agent.post(base, { name: 'Datadog' })).data;
    const res = await owner.agent.post(`${base}/${integration.id}/test`);
    expect(res.statusCode).toBe(201);
    const detail = (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/${res.data.alertId}`)).data;
    expect(detail.alert).toMatchObject({ title: 'Test alert from Alertdesk', priority: 'info', status: 'new', integrationName: 'Datadog', dedupKey: res.data.dedupKey, tags: ['test'] });
    expect(detail.alert.metadata).toMatchObject({ sentBy: 'Olivia Owner' });
  });
});
