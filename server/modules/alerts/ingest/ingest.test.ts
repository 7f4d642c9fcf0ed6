import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.ts';
import { describeEachDatabase } from '../../../test/test-app.ts';
import { insertClient, registerOwner } from '../../../test/factories.ts';
import { createIntegration, ingest, pdTrigger } from '../../../test/alerts.ts';
import { alertmanagerPriority, pagerDutyPriority } from './ingest.mappers.ts';
import { timeOrderedUuid } from './ingest.service.ts';

/** An Alertmanager webhook as Alertmanager 0.27 sends it (payload version 4). */
function alertmanagerPayload(status: 'firing' | 'resolved', alerts: Array<{ name: string; instance: string; severity?: string; fingerprint: string; status?: 'firing' | 'resolved' }>) {
  return {
    version: '4',
    groupKey: '{}/{severity=~"critical|warning"}:{alertname="HighCPU"}',
    truncatedAlerts: 0,
    status,
    receiver: 'alertdesk',
    groupLabels: { alertname: 'HighCPU' },
    commonLabels: { alertname: 'HighCPU', job: 'node' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example.com:9093',
    alerts: alerts.map((a) => ({
      status: a.status ?? status,
      labels: { alertname: a.name, instance: a.instance, job: 'node', ...(a.severity ? { severity: a.severity } : {}) },
      annotations: { summary: `CPU above 95% on ${a.instance}`, description: 'CPU has been above 95% for 10 minutes.', runbook_url: 'https://runbooks.example.com/cpu' },
      startsAt: '2025-05-01T10:00:00.000Z',
      endsAt: status === 'resolved' ? '2025-05-01T10:30:00.000Z' : '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.example.com:9090/graph?g0.expr=cpu%3E0.95',
      fingerprint: a.fingerprint,
    })),
  };
}

describe('severity mapping', () => {
  it('maps PagerDuty severities', () => {
    expect(['critical', 'error', 'warning', 'info'].map((s) => pagerDutyPriority(s as 'critical'))).toEqual(['critical', 'high', 'medium', 'info']);
  });
  it("maps Alertmanager's severity label, missing or unknown to medium", () => {
    const cases: Array<[string | undefined, string]> = [
      ['critical', 'critical'],
      ['error', 'high'],
      ['high', 'high'],
      ['major', 'high'],
      ['warning', 'medium'],
      ['low', 'low'],
      ['info', 'info'],
      ['none', 'info'],
      ['CRITICAL', 'critical'],
      [undefined, 'medium'],
      ['page', 'medium'],
    ];
    for (const [label, priority] of cases) expect(alertmanagerPriority(label)).toBe(priority);
  });
});

describe('alert ids', () => {
  it('are version-7 UUIDs that sort by creation time, within one millisecond too', () => {
    const before = Date.now();
    const a = timeOrderedUuid();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const stamped = parseInt(a.replace(/-/g, '').slice(0, 12), 16);
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now());
    // Thousands in a few milliseconds: still strictly increasing.
    const many = Array.from({ length: 5000 }, () => timeOrderedUuid());
    expect([...many].sort()).toEqual(many);
    expect(new Set(many).size).toBe(5000);
    expect(a < many[0]).toBe(true);
  });
});

describeEachDatabase('ingestion', (t) => {
  const setup = async () => {
    const owner = await registerOwner(t().app);
    const integration = await createIntegration(owner.agent, owner.tenantId);
    const active = async () => (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`)).data;
    const detail = async (id: string) => (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/${id}`)).data;
    return { owner, integration, active, detail };
  };

  describe('PagerDuty Events API v2', () => {
    it('stores a trigger with its fields mapped and answers exactly like PagerDuty', async () => {
      const { integration, active } = await setup();
      const res = await ingest(
        t().app,
        '/v2/enqueue',
        pdTrigger(
          integration.key,
          {
            dedup_key: 'disk-db-1',
            client: 'Sample Monitoring Service',
            client_url: 'https://monitoring.example.com',
            links: [{ href: 'https://dash.example.com/db-1', text: 'Dashboard' }],
          },
          { severity: 'error', component: 'postgres', group: 'prod-datapipe', class: 'disk', timestamp: '2025-07-17T08:42:58.315+0000', custom_details: { 'free space': '1%', ping_time: '1500ms' } },
        ),
      );
      expect(res.statusCode).toBe(202);
      expect(res.data).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'disk-db-1' });
      const list = await active();
      expect(list.items).toHaveLength(1);
      expect(list.items[0]).toMatchObject({
        title: 'Disk almost full on db-1',
        source: 'db-1.prod',
        priority: 'high',
        status: 'new',
        dedupKey: 'disk-db-1',
        integrationName: 'Prometheus',
        occurrences: 1,
        tags: ['component:postgres', 'group:prod-datapipe', 'class:disk'],
        metadata: expect.objectContaining({ 'free space': '1%', ping_time: '1500ms', client: 'Sample Monitoring Service', timestamp: '2025-07-17T08:42:58.315+0000' }),
        actions: ['acknowledge', 'resolve', 'assign', 'addNote'],
      });
      expect(list.items[0].metadata.links).toEqual([{ href: 'https://dash.example.com/db-1', text: 'Dashboard' }]);
    });

    it('maps every PagerDuty severity to its priority', async () => {
      const { integration, active } = await setup();
      for (const severity of ['critical', 'error', 'warning', 'info']) {
        expect((await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key, { dedup_key: `sev-${severity}` }, { severity }))).statusCode).toBe(202);
      }
      const byKey = Object.fromEntries((await active()).items.map((a: any) => [a.dedupKey, a.priority]));
      expect(byKey).toEqual({ 'sev-critical': 'critical', 'sev-error': 'high', 'sev-warning': 'medium', 'sev-info': 'info' });
    });

    it('generates and returns a dedup key when a trigger has none', async () => {
      const { integration, active } = await setup();
      const res = await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key));
      expect(res.statusCode).toBe(202);
      expect(res.data.dedup_key).toMatch(/^[0-9a-f]{32}$/);
      expect((await active()).items[0].dedupKey).toBe(res.data.dedup_key);
    });

    it('deduplicates a repeated trigger, acknowledges, resolves, and opens a new alert after resolution', async () => {
      const { integration, active, detail } = await setup();
      const send = (over: Record<string, unknown>) => ingest(t().app, '/v2/enqueue', { routing_key: integration.key, dedup_key: 'cpu-web-1', ...over });
      const trigger = { event_action: 'trigger', payload: { summary: 'CPU high on web-1', source: 'web-1', severity: 'warning' } };
      expect((await send(trigger)).statusCode).toBe(202);
      expect((await send(trigger)).statusCode).toBe(202);
      let list = await active();
      expect(list.items).toHaveLength(1);
      const first = list.items[0];
      expect(first.occurrences).toBe(2);
      expect(first.lastSeenAt >= first.createdAt).toBe(true);

      expect((await send({ event_action: 'acknowledge' })).statusCode).toBe(202);
      let d = await detail(first.id);
      expect(d.alert).toMatchObject({ status: 'acknowledged', acknowledgedBy: null });
      expect(d.alert.acknowledgedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(d.alert.acknowledgedAt).toBe(d.alert.updatedAt);
      expect(d.acknowledgedByName).toBe('Prometheus');
      expect(d.timeline.map((e: any) => [e.kind, e.actorType])).toEqual([
        ['triggered', 'integration'],
        ['unrouted', 'system'],
        ['repeated', 'integration'],
        ['acknowledged', 'integration'],
      ]);
      // Acknowledging again changes nothing and is still accepted.
      expect((await send({ event_action: 'acknowledge' })).statusCode).toBe(202);
      expect((await send(trigger)).statusCode).toBe(202);
      expect((await detail(first.id)).alert).toMatchObject({ status: 'acknowledged', occurrences: 3 });

      expect((await send({ event_action: 'resolve' })).statusCode).toBe(202);
      d = await detail(first.id);
      expect(d.alert.status).toBe('resolved');
      expect(d.resolvedByName).toBe('Prometheus');
      expect((await active()).items).toHaveLength(0);
      // Resolving what is already resolved, or a key nobody knows, is accepted and ignored.
      expect((await send({ event_action: 'resolve' })).statusCode).toBe(202);
      expect((await ingest(t().app, '/v2/enqueue', { routing_key: integration.key, event_action: 'acknowledge', dedup_key: 'never-seen' })).statusCode).toBe(202);
      expect((await ingest(t().app, '/v2/enqueue', { routing_key: integration.key, event_action: 'resolve', dedup_key: 'never-seen' })).statusCode).toBe(202);

      expect((await send(trigger)).statusCode).toBe(202);
      list = await active();
      expect(list.items).toHaveLength(1);
      expect(list.items[0].id).not.toBe(first.id);
      expect(list.items[0].occurrences).toBe(1);
      expect((await detail(first.id)).alert.status).toBe('resolved');
    });

    it('refuses malformed events with 400 in PagerDuty shape, naming the fields', async () => {
      const { integration } = await setup();
      const noSummary = await ingest(t().app, '/v2/enqueue', { routing_key: integration.key, event_action: 'trigger', payload: { source: 'x', severity: 'critical' } });
      expect(noSummary.statusCode).toBe(400);
      expect(noSummary.data).toMatchObject({ status: 'invalid event', message: 'Event object is invalid' });
      expect(noSummary.data.errors).toContain('payload.summary: payload.summary is required');
      const noSource = await ingest(t().app, '/v2/enqueue', { routing_key: integration.key, event_action: 'trigger', payload: { summary: 's', severity: 'critical' } });
      expect(noSource.data.errors).toEqual(['payload.source: payload.source is required']);
      const longKey = await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key, { dedup_key: 'd'.repeat(256) }));
      expect(longKey.data.errors).toEqual(['dedup_key: Must be at most 255 characters']);

      const badSeverity = await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key, {}, { severity: 'fatal' }));
      expect(badSeverity.statusCode).toBe(400);
      expect(badSeverity.data.errors).toEqual(["payload.severity: payload.severity must be one of 'critical', 'error', 'warning' or 'info'"]);

      const badAction = await ingest(t().app, '/v2/enqueue', { routing_key: integration.key, event_action: 'explode' });
      expect(badAction.statusCode).toBe(400);
      expect(badAction.data.errors).toEqual(["event_action: event_action must be one of 'trigger', 'acknowledge' or 'resolve'"]);

      const ackWithoutKey = await ingest(t().app, '/v2/enqueue', { routing_key: integration.key, event_action: 'acknowledge' });
      expect(ackWithoutKey.statusCode).toBe(400);
      expect(ackWithoutKey.data.errors).toContain('dedup_key: dedup_key is required for acknowledge events');

      const noPayload = await ingest(t().app, '/v2/enqueue', { routing_key: integration.key, event_action: 'trigger' });
      expect(noPayload.data.errors).toContain('payload: payload is required for trigger events');

      const malformed = await t().app.inject({ method: 'POST', url: '/v2/enqueue', headers: { 'content-type': 'application/json' }, payload: '{"routing_key": ' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ status: 'invalid event', message: 'Malformed JSON body' });
    });

    it('answers 401 for unknown, missing and revoked keys', async () => {
      const { owner, integration } = await setup();
      const unknown = await ingest(t().app, '/v2/enqueue', pdTrigger('x'.repeat(32)));
      expect(unknown.statusCode).toBe(401);
      expect(unknown.data).toMatchObject({ status: 'unauthorized', message: 'Invalid or revoked integration key' });
      expect((await ingest(t().app, '/v2/enqueue', { event_action: 'trigger' })).statusCode).toBe(401);
      // The key works (and is now cached), then revocation stops it at once.
      expect((await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key))).statusCode).toBe(202);
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/integrations/${integration.id}/revoke`)).statusCode).toBe(200);
      expect((await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key))).statusCode).toBe(401);
    });

    it('answers 413 in PagerDuty shape for an oversized event', async () => {
      const { integration } = await setup();
      const res = await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key, {}, { custom_details: { blob: 'x'.repeat(600 * 1024) } }));
      expect(res.statusCode).toBe(413);
      expect(res.data).toMatchObject({ status: 'invalid event', message: 'Request body is too large' });
    });
  });

  describe('Alertmanager webhook', () => {
    it('stores each alert of a group, deduplicated by its fingerprint, and resolves by fingerprint', async () => {
      const { integration, active, detail } = await setup();
      const auth = { authorization: `Bearer ${integration.key}` };
      const firing = alertmanagerPayload('firing', [
        { name: 'HighCPU', instance: 'web-1:9100', severity: 'critical', fingerprint: 'a1b2c3d4e5f60718' },
        { name: 'HighCPU', instance: 'web-2:9100', severity: 'warning', fingerprint: 'b1b2c3d4e5f60718' },
        { name: 'HighCPU', instance: 'web-3:9100', fingerprint: 'c1b2c3d4e5f60718' },
      ]);
      const res = await ingest(t().app, '/api/ingest/alertmanager', firing, auth);
      expect(res.statusCode).toBe(202);
      expect(res.data.alerts.map((a: any) => a.result)).toEqual(['created', 'created', 'created']);
      const list = await active();
      expect(list.items).toHaveLength(3);
      const web1 = list.items.find((a: any) => a.dedupKey === 'a1b2c3d4e5f60718');
      expect(web1).toMatchObject({
        title: 'CPU above 95% on web-1:9100',
        description: 'CPU has been above 95% for 10 minutes.',
        source: 'web-1:9100',
        priority: 'critical',
        tags: ['alertname:HighCPU', 'instance:web-1:9100', 'job:node', 'severity:critical'],
        metadata: expect.objectContaining({
          runbook_url: 'https://runbooks.example.com/cpu',
          generatorURL: 'http://prometheus.example.com:9090/graph?g0.expr=cpu%3E0.95',
          fingerprint: 'a1b2c3d4e5f60718',
          receiver: 'alertdesk',
          startsAt: '2025-05-01T10:00:00.000Z',
        }),
      });
      expect(web1.metadata.endsAt).toBeUndefined();
      expect(Object.fromEntries(list.items.map((a: any) => [a.dedupKey, a.priority]))).toEqual({
        a1b2c3d4e5f60718: 'critical',
        b1b2c3d4e5f60718: 'medium',
        c1b2c3d4e5f60718: 'medium',
      });

      // Alertmanager repeats the group: nothing new is created.
      const again = await ingest(t().app, '/api/ingest/alertmanager', firing, auth);
      expect(again.data.alerts.map((a: any) => a.result)).toEqual(['deduplicated', 'deduplicated', 'deduplicated']);
      expect((await active()).items).toHaveLength(3);

      // web-1 recovers: the group is sent with that alert resolved, the others still firing.
      const partly = alertmanagerPayload('firing', [
        { name: 'HighCPU', instance: 'web-1:9100', severity: 'critical', fingerprint: 'a1b2c3d4e5f60718', status: 'resolved' },
        { name: 'HighCPU', instance: 'web-2:9100', severity: 'warning', fingerprint: 'b1b2c3d4e5f60718' },
      ]);
      const resolved = await ingest(t().app, '/api/ingest/alertmanager', partly, auth);
      expect(resolved.data.alerts.map((a: any) => a.result)).toEqual(['resolved', 'deduplicated']);
      expect((await detail(web1.id)).alert.status).toBe('resolved');
      expect((await active()).items).toHaveLength(2);

      // The whole group resolved, with the key as the last path segment (for tools that cannot set headers).
      const all = alertmanagerPayload('resolved', [
        { name: 'HighCPU', instance: 'web-2:9100', fingerprint: 'b1b2c3d4e5f60718' },
        { name: 'HighCPU', instance: 'web-3:9100', fingerprint: 'c1b2c3d4e5f60718' },
      ]);
      expect((await ingest(t().app, `/api/ingest/alertmanager/${integration.key}`, all)).statusCode).toBe(202);
      expect((await active()).items).toHaveLength(0);
    });

    it('answers 401 without a valid key and 400 with the offending fields', async () => {
      const { integration } = await setup();
      const body = alertmanagerPayload('firing', [{ name: 'X', instance: 'a', fingerprint: 'f1' }]);
      expect((await ingest(t().app, '/api/ingest/alertmanager', body)).statusCode).toBe(401);
      const wrong = await ingest(t().app, '/api/ingest/alertmanager', body, { authorization: 'Bearer not-a-key' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.data.error).toMatchObject({ code: 'invalid_key', message: 'Invalid or revoked integration key' });
      expect((await ingest(t().app, '/api/ingest/alertmanager/not-a-key', body)).statusCode).toBe(401);

      const empty = await ingest(t().app, '/api/ingest/alertmanager', { ...body, alerts: [] }, { authorization: `Bearer ${integration.key}` });
      expect(empty.statusCode).toBe(400);
      expect(empty.data.error.fields).toEqual({ alerts: 'alerts must not be empty' });
      const noLabels = await ingest(t().app, '/api/ingest/alertmanager', { ...body, alerts: [{ status: 'firing' }] }, { authorization: `Bearer ${integration.key}` });
      expect(noLabels.statusCode).toBe(400);
      expect(noLabels.data.error.fields).toEqual({ 'alerts.0.labels': 'Invalid input: expected record, received undefined' });
      const auth = { authorization: `Bearer ${integration.key}` };
      expect((await ingest(t().app, '/api/ingest/alertmanager', { ...body, status: 'pending' }, auth)).data.error.fields).toEqual({ status: "status must be 'firing' or 'resolved'" });
      expect((await ingest(t().app, '/api/ingest/alertmanager', { ...body, alerts: 'nope' }, auth)).data.error.fields).toEqual({ alerts: 'alerts must be a list' });
      const tooMany = await ingest(t().app, '/api/ingest/alertmanager', { ...body, alerts: Array.from({ length: 1001 }, (_, i) => ({ labels: { alertname: `a${i}` } })) }, auth);
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.data.error).toEqual({ code: 'bad_request', message: 'At most 1000 alerts per request', fields: { alerts: 'At most 1000 alerts per request' } });
    });
  });

  describe('generic events', () => {
    it('stores a trigger with client, tags and metadata; acknowledges and resolves it', async () => {
      const { owner, integration, active, detail } = await setup();
      const clientId = await insertClient(t().deps.db, owner.tenantId, 'Globex Corporation');
      const auth = { authorization: `Bearer ${integration.key}` };
      const res = await ingest(
        t().app,
        '/api/ingest/events',
        {
          title: 'Backup failed',
          description: 'Nightly backup of fileserver-2 failed with exit code 3.',
          priority: 'high',
          source: 'veeam-01',
          client: 'globex corporation',
          tags: ['backup', ' backup ', 'veeam'],
          metadata: { job: 'nightly', exitCode: 3 },
          dedupKey: 'backup-fs2',
        },
        auth,
      );
      expect(res.statusCode).toBe(202);
      expect(res.data).toMatchObject({ status: 'success', message: 'Event processed', dedupKey: 'backup-fs2', result: 'created' });
      const alert = (await active()).items[0];
      expect(alert).toMatchObject({
        id: res.data.alertId,
        title: 'Backup failed',
        priority: 'high',
        source: 'veeam-01',
        clientId,
        clientName: 'Globex Corporation',
        tags: ['backup', 'veeam'],
        metadata: { job: 'nightly', exitCode: 3 },
      });
      const ack = await ingest(t().app, `/api/ingest/events/${integration.key}`, { action: 'acknowledge', dedupKey: 'backup-fs2' });
      expect(ack.data).toMatchObject({ result: 'acknowledged', alertId: alert.id });
      const resolve = await ingest(t().app, '/api/ingest/events', { action: 'resolve', dedupKey: 'backup-fs2' }, auth);
      expect(resolve.data).toMatchObject({ result: 'resolved', alertId: alert.id });
      expect((await detail(alert.id)).alert.status).toBe('resolved');
      const ignored = await ingest(t().app, '/api/ingest/events', { action: 'resolve', dedupKey: 'backup-fs2' }, auth);
      expect(ignored.statusCode).toBe(202);
      expect(ignored.data).toMatchObject({ result: 'ignored', alertId: null });
    });

    it('defaults priority to medium and source to the integration name; keeps an unknown client in metadata', async () => {
      const { integration, active } = await setup();
      await ingest(t().app, '/api/ingest/events', { title: 'Something odd', client: 'Nobody Inc' }, { authorization: `Bearer ${integration.key}` });
      expect((await active()).items[0]).toMatchObject({ priority: 'medium', source: 'Prometheus', clientId: null, metadata: { client: 'Nobody Inc' } });
    });

    it('answers 400 with the field for a missing title or an unknown priority', async () => {
      const { integration } = await setup();
      const auth = { authorization: `Bearer ${integration.key}` };
      const noTitle = await ingest(t().app, '/api/ingest/events', { priority: 'high' }, auth);
      expect(noTitle.statusCode).toBe(400);
      expect(noTitle.data.error).toMatchObject({ message: 'title is required', fields: { title: 'title is required' } });
      const badPriority = await ingest(t().app, '/api/ingest/events', { title: 'x', priority: 'urgent' }, auth);
      expect(badPriority.statusCode).toBe(400);
      expect(badPriority.data.error.fields).toEqual({ priority: 'Invalid option: expected one of "critical"|"high"|"medium"|"low"|"info"' });
      const badAction = await ingest(t().app, '/api/ingest/events', { title: 'x', action: 'explode' }, auth);
      expect(badAction.data.error.fields).toEqual({ action: "action must be one of 'trigger', 'acknowledge' or 'resolve'" });
      const manyTags = await ingest(t().app, '/api/ingest/events', { title: 'x', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, auth);
      expect(manyTags.data.error.fields).toEqual({ tags: 'At most 50 tags' });
      const bigMetadata = await ingest(t().app, '/api/ingest/events', { title: 'x', metadata: { big: 'x'.repeat(70_000) } }, auth);
      expect(bigMetadata.statusCode).toBe(400);
      expect(bigMetadata.data.error.fields).toEqual({ metadata: 'Must be at most 65536 characters as JSON' });
      const resolveNoKey = await ingest(t().app, '/api/ingest/events', { action: 'resolve' }, auth);
      expect(resolveNoKey.data.error.fields).toEqual({ dedupKey: 'dedupKey is required for resolve events' });
      const notJson = await t().app.inject({ method: 'POST', url: '/api/ingest/events', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' });
      expect(notJson.statusCode).toBe(415);
    });
  });

  it('makes one alert of many concurrent identical triggers, across two server instances', async () => {
    const { owner, integration, active } = await setup();
    // A second server on the same database, as when several instances run behind a load balancer.
    const second = await buildApp({ ...t().config }, { logger: false });
    await second.app.ready();
    try {
      const body = pdTrigger(integration.key, { dedup_key: 'storm' });
      const sends = Array.from({ length: 60 }, (_, i) => ingest(i % 2 ? second.app : t().app, '/v2/enqueue', body));
      const answers = await Promise.all(sends);
      expect(answers.every((r) => r.statusCode === 202)).toBe(true);
      const list = await active();
      expect(list.items).toHaveLength(1);
      expect(list.items[0].occurrences).toBe(60);
      const rows = await t().deps.db.selectFrom('alerts').select(['id']).where('tenant_id', '=', owner.tenantId).where('dedup_key', '=', 'storm').execute();
      expect(rows).toHaveLength(1);
    } finally {
      await second.app.close();
    }
  });

  it('keeps tenants apart: a key writes only into its own tenant', async () => {
    const a = await setup();
    const b = await setup();
    const res = await ingest(t().app, '/v2/enqueue', pdTrigger(b.integration.key, { dedup_key: 'b-only' }));
    expect(res.statusCode).toBe(202);
    expect((await a.active()).items).toHaveLength(0);
    const bList = await b.active();
    expect(bList.items).toHaveLength(1);
    // Same dedup key in another tenant is another alert.
    await ingest(t().app, '/v2/enqueue', pdTrigger(a.integration.key, { dedup_key: 'b-only' }));
    expect((await a.active()).items).toHaveLength(1);
    expect((await a.active()).items[0].id).not.toBe(bList.items[0].id);
    const foreign = await a.owner.agent.get(`/api/tenants/${a.owner.tenantId}/alerts/${bList.items[0].id}`);
    expect(foreign.statusCode).toBe(404);
  });
});
