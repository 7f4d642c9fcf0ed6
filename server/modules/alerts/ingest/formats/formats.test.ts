import { expect, it } from 'vitest';
import { describeEachDatabase, type TestEnv } from '../../../../test/test-app.ts';
import { registerOwner } from '../../../../test/factories.ts';
import { createIntegration, ingest } from '../../../../test/alerts.ts';
import * as fx from './fixtures.ts';

/** One tenant with the client "Acme Corp" (aliases as an MSP sets them) and an integration with no client. */
async function setup(t: () => TestEnv) {
  const owner = await registerOwner(t().app);
  const aliases = ['7', 'Acme Corp HQ', '11111111-2222-3333-4444-555555555555', '123456789012'];
  const created = await owner.agent.post(`/api/tenants/${owner.tenantId}/clients`, { name: 'Acme Corp', status: 'active', aliases });
  expect(created.statusCode).toBe(201);
  expect(created.data.aliases).toEqual(aliases);
  const integration = await createIntegration(owner.agent, owner.tenantId, { name: 'Monitoring' });
  const send = (format: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${integration.key}` }) =>
    ingest(t().app, `/api/ingest/${format}`, body, headers);
  const alert = (dedupKey: string) =>
    t()
      .deps.db.selectFrom('alerts')
      .select(['title', 'priority', 'source', 'dedup_key', 'client_id', 'status', 'occurrences', 'metadata', 'description'])
      .where('tenant_id', '=', owner.tenantId)
      .where('dedup_key', '=', dedupKey)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  return { owner, integration, clientId: created.data.id as string, send, alert };
}

interface Case {
  format: string;
  trigger: unknown;
  resolve: unknown;
  /** How many alerts the trigger holds (a Grafana group holds two). */
  alerts: number;
  expected: { title: string; priority: string; source: string; dedup_key: string };
  malformed: { body: unknown; field: string };
}

const cases: Case[] = [
  {
    format: 'grafana',
    trigger: fx.grafanaFiring,
    resolve: fx.grafanaResolved,
    alerts: 2,
    expected: { title: 'This alert was triggered for zone us-1', priority: 'critical', source: 'play.grafana.org', dedup_key: 'grafana:c6eadffa33fcdf37' },
    malformed: { body: { ...fx.grafanaFiring, alerts: [] }, field: 'alerts' },
  },
  {
    format: 'zabbix',
    trigger: fx.zabbixProblem,
    resolve: fx.zabbixRecovery,
    alerts: 1,
    expected: { title: 'High CPU utilization (over 90% for 5m)', priority: 'high', source: 'web-01.acme.local', dedup_key: 'zabbix:4512' },
    malformed: { body: { ...fx.zabbixProblem, event_value: 'PROBLEM' }, field: 'event_value' },
  },
  {
    format: 'uptime-kuma',
    trigger: fx.uptimeKumaDown,
    resolve: fx.uptimeKumaUp,
    alerts: 1,
    expected: { title: 'Acme website is down', priority: 'high', source: 'https://acme.example', dedup_key: 'uptime-kuma:29' },
    malformed: { body: { ...fx.uptimeKumaDown, heartbeat: { ...fx.uptimeKumaDown.heartbeat, status: 'down' } }, field: 'heartbeat.status' },
  },
  {
    format: 'ninjaone',
    trigger: fx.ninjaTriggered,
    resolve: fx.ninjaReset,
    alerts: 1,
    expected: { title: 'Disk Free Space < 10%', priority: 'high', source: 'ACME-FS01', dedup_key: 'ninjaone:4c1ed2f0-8d3a-4b4a-9a53-0d8e2f0b7d11' },
    malformed: { body: { ...fx.ninjaTriggered, statusCode: undefined }, field: 'statusCode' },
  },
  {
    format: 'datto-rmm',
    trigger: fx.dattoAlert,
    resolve: fx.dattoResolved,
    alerts: 1,
    expected: { title: 'Disk usage on C: is 95% (threshold 90%)', priority: 'critical', source: 'ACME-DC01', dedup_key: 'datto-rmm:a1f2c3d4-5b6a-4c7d-8e9f-0a1b2c3d4e5f' },
    malformed: { body: { ...fx.dattoAlert, alertUid: '' }, field: 'alertUid' },
  },
  {
    format: 'azure-monitor',
    trigger: fx.azureFired,
    resolve: fx.azureResolved,
    alerts: 1,
    expected: { title: 'WCUS-R2-Gen2', priority: 'low', source: 'wcus-r2-gen2', dedup_key: `azure-monitor:${fx.azureFired.data.essentials.alertId}` },
    malformed: { body: { ...fx.azureFired, data: { essentials: { ...fx.azureFired.data.essentials, monitorCondition: 'Maybe' } } }, field: 'data.essentials.monitorCondition' },
  },
  {
    format: 'datadog',
    trigger: fx.datadogTriggered,
    resolve: fx.datadogRecovered,
    alerts: 1,
    expected: { title: '[Triggered on {host:web-1}] CPU load is high', priority: 'high', source: 'web-1', dedup_key: 'datadog:8283626383920172' },
    malformed: { body: { ...fx.datadogTriggered, alert_cycle_key: undefined }, field: 'alert_cycle_key' },
  },
];

describeEachDatabase('vendor ingestion formats', (t) => {
  for (const c of cases) {
    it(`${c.format}: the vendor's payload opens the expected alert for the client it names, a repeat updates it, the resolution resolves it`, async () => {
      const { send, alert, clientId } = await setup(t);
      const first = await send(c.format, c.trigger);
      expect(first.statusCode, first.body).toBe(202);
      expect(first.data.alerts).toHaveLength(c.alerts);
      expect(first.data.alerts.every((a: { result: string }) => a.result === 'created')).toBe(true);
      expect(await alert(c.expected.dedup_key)).toMatchObject({ ...c.expected, client_id: clientId, status: 'new', occurrences: 1 });

      const again = await send(c.format, c.trigger);
      expect(again.statusCode).toBe(202);
      expect(again.data.alerts[0].result).toBe('deduplicated');
      expect((await alert(c.expected.dedup_key))?.occurrences).toBe(2);

      const resolved = await send(c.format, c.resolve);
      expect(resolved.statusCode, resolved.body).toBe(202);
      expect(resolved.data.alerts[0]).toMatchObject({ dedupKey: c.expected.dedup_key, result: 'resolved' });
      expect((await alert(c.expected.dedup_key))?.status).toBe('resolved');
    });

    it(`${c.format}: a malformed body answers 400 naming the field, and stores nothing`, async () => {
      const { send, owner } = await setup(t);
      const res = await send(c.format, c.malformed.body);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.data.error.fields)).toContain(c.malformed.field);
      const rows = await t().deps.db.selectFrom('alerts').select('id').where('tenant_id', '=', owner.tenantId).execute();
      expect(rows).toEqual([]);
    });
  }

  it('takes the key as the last path segment too, and refuses a wrong key with 401 before reading the body', async () => {
    const { integration, send } = await setup(t);
    expect((await ingest(t().app, `/api/ingest/datadog/${integration.key}`, fx.datadogTriggered)).statusCode).toBe(202);
    expect((await send('datadog', { not: 'even close' }, { authorization: 'Bearer wrong-key' })).statusCode).toBe(401);
    expect((await ingest(t().app, '/api/ingest/zabbix/wrong-key', fx.zabbixProblem)).statusCode).toBe(401);
  });

  it('strips NUL characters; refuses nesting deeper than the bound and a body that is not JSON with 400, an oversized event with 413; never 5xx', async () => {
    const { send, alert, integration } = await setup(t);
    const nul = await send('zabbix', { ...fx.zabbixProblem, event_id: '777', event_name: 'Disk\u0000 full' });
    expect(nul.statusCode).toBe(202);
    expect((await alert('zabbix:777'))?.title).toBe('Disk full');

    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i++) deep = { deep };
    const nested = await send('azure-monitor', { ...fx.azureFired, data: { ...fx.azureFired.data, alertContext: deep } });
    expect(nested.statusCode).toBe(400);

    const text = await t().app.inject({ method: 'POST', url: '/api/ingest/grafana', headers: { authorization: `Bearer ${integration.key}`, 'content-type': 'text/plain' }, payload: 'not json' });
    expect(text.statusCode).toBe(400);
    expect((await send('ninjaone', { ...fx.ninjaTriggered, message: 'x'.repeat(600 * 1024) })).statusCode).toBe(413);
    const empty = await send('ninjaone', null);
    expect(empty.statusCode).toBeLessThan(500);
    expect(empty.statusCode).toBe(400);
  });

  it('Uptime Kuma: pending and maintenance are accepted without an alert; the Test button makes an information alert', async () => {
    const { send, alert } = await setup(t);
    const pending = await send('uptime-kuma', { ...fx.uptimeKumaDown, heartbeat: { ...fx.uptimeKumaDown.heartbeat, status: 2 } });
    expect(pending.statusCode).toBe(202);
    expect(pending.data.alerts).toEqual([]);
    expect(await alert('uptime-kuma:29')).toBeUndefined();
    const test = await send('uptime-kuma', { heartbeat: null, monitor: null, msg: 'Uptime Kuma Webhook Testing' });
    expect(test.statusCode).toBe(202);
    expect(await alert('uptime-kuma:test')).toMatchObject({ title: 'Uptime Kuma Webhook Testing', priority: 'info' });
  });

  it('a Grafana group resolves per alert: the other alert of the group stays open', async () => {
    const { send, alert } = await setup(t);
    await send('grafana', fx.grafanaFiring);
    await send('grafana', fx.grafanaResolved);
    expect((await alert('grafana:c6eadffa33fcdf37'))?.status).toBe('resolved');
    expect((await alert('grafana:bc97ff14869b13e3'))?.status).toBe('new');
  });
});

describeEachDatabase(
  'vendor formats and the per-key rate limit',
  (t) => {
    it('counts every alert of a Grafana group: a group that does not fit is refused whole with 429', async () => {
      const owner = await registerOwner(t().app);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const auth = { authorization: `Bearer ${integration.key}` };
      expect((await ingest(t().app, '/api/ingest/grafana', fx.grafanaFiring, auth)).statusCode).toBe(202);
      const refused = await ingest(t().app, '/api/ingest/grafana', fx.grafanaFiring, auth);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      // One alert still fits in the window's budget of three.
      expect((await ingest(t().app, '/api/ingest/datadog', fx.datadogTriggered, auth)).statusCode).toBe(202);
      expect((await ingest(t().app, '/api/ingest/datadog', fx.datadogTriggered, auth)).statusCode).toBe(429);
    });
  },
  { ingest: { rateLimit: 3, rateWindowMs: 60_000, maxEventBytes: 512 * 1024 } },
);
