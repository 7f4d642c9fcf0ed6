import { describe, expect, it } from 'vitest';
import type { RoutingRule } from '../../../../contract/ingest-formats.ts';
import { describeEachDatabase, type TestEnv } from '../../../test/test-app.ts';
import { addMember, registerOwner } from '../../../test/factories.ts';
import { createIntegration, ingest } from '../../../test/alerts.ts';
import type { NormalizedEvent } from './ingest.mappers.ts';
import { applyRules } from './routing-rules.ts';

const event = (over: Partial<NormalizedEvent> = {}): NormalizedEvent => ({
  action: 'trigger',
  dedupKey: 'fp-1',
  title: 'Disk full on ACME-FS01',
  description: '',
  priority: 'medium',
  source: 'acme-fs01.acme.local',
  clientRef: null,
  tags: ['alertname:DiskFull', 'instance:acme-fs01:9100', 'customer:acme'],
  metadata: { org: { id: 7 } },
  ...over,
});

const rule = (when: RoutingRule['when'], then: RoutingRule['then']): RoutingRule => ({ when, then });

describe('routing rules (pure)', () => {
  const cases: Array<[string, RoutingRule[], Partial<NormalizedEvent> | 'dropped' | 'unchanged']> = [
    ['no rules: as it came', [], 'unchanged'],
    ['equals on a tag ignores case → client from a field', [rule([{ field: 'tags.customer', op: 'equals', value: 'ACME' }], { clientFrom: 'tags.customer' })], { clientRef: 'acme' }],
    ['contains on the title → priority', [rule([{ field: 'title', op: 'contains', value: 'disk full' }], { priority: 'critical' })], { priority: 'critical' }],
    ['matches on the source → client id', [rule([{ field: 'source', op: 'matches', value: '^acme-' }], { clientId: 'c-1' })], { clientRef: 'c-1' }],
    ['exists on metadata → dedup key template', [rule([{ field: 'metadata.org.id', op: 'exists' }], { dedupKey: 'org-{{metadata.org.id}}-{{tags.alertname}}' })], { dedupKey: 'org-7-DiskFull' }],
    ['drop', [rule([{ field: 'tags.alertname', op: 'equals', value: 'DiskFull' }], { drop: true })], 'dropped'],
    ['a condition that fails: the next rule decides', [rule([{ field: 'title', op: 'contains', value: 'cpu' }], { drop: true }), rule([], { priority: 'low' })], { priority: 'low' }],
    ['the first match wins', [rule([], { priority: 'high' }), rule([], { drop: true })], { priority: 'high' }],
    ['a missing field never matches', [rule([{ field: 'tags.site', op: 'equals', value: 'x' }], { drop: true })], 'unchanged'],
  ];
  it.each(cases)('%s', (_name, rules, expected) => {
    const ev = event();
    const out = applyRules(rules, ev);
    if (expected === 'dropped') return expect(out.dropped).toBe(true);
    expect(out.dropped).toBe(false);
    expect(out.event).toEqual(expected === 'unchanged' ? ev : { ...ev, ...expected });
  });
});

async function setup(t: () => TestEnv) {
  const owner = await registerOwner(t().app);
  const clients = `/api/tenants/${owner.tenantId}/clients`;
  const acme = (await owner.agent.post(clients, { name: 'Acme Corp', status: 'active', aliases: ['acme'] })).data.id as string;
  const globex = (await owner.agent.post(clients, { name: 'Globex', status: 'active' })).data.id as string;
  const integration = await createIntegration(owner.agent, owner.tenantId, { name: 'Shared Prometheus' });
  const rulesUrl = `/api/tenants/${owner.tenantId}/integrations/${integration.id}/rules`;
  const send = (alerts: Array<{ fingerprint: string; labels: Record<string, string> }>) =>
    ingest(t().app, '/api/ingest/alertmanager', { version: '4', status: 'firing', alerts: alerts.map((a) => ({ status: 'firing', ...a })) }, { authorization: `Bearer ${integration.key}` });
  const row = (dedupKey: string) =>
    t().deps.db.selectFrom('alerts').select(['client_id', 'priority', 'dedup_key']).where('tenant_id', '=', owner.tenantId).where('dedup_key', '=', dedupKey).executeTakeFirst();
  return { owner, acme, globex, integration, rulesUrl, send, row };
}

describeEachDatabase('routing rules per integration', (t) => {
  it('stores the ordered rules, and the next event is routed by them: client from a label, a fixed client, priority, drop, dedup template', async () => {
    const { owner, acme, globex, rulesUrl, send, row } = await setup(t);
    expect((await owner.agent.get(rulesUrl)).data).toEqual({ rules: [] });
    const rules = [
      { when: [{ field: 'tags.alertname', op: 'equals', value: 'Watchdog' }], then: { drop: true } },
      { when: [{ field: 'tags.instance', op: 'matches', value: '^globex-' }], then: { clientId: globex, priority: 'critical' } },
      { when: [{ field: 'tags.customer', op: 'exists' }], then: { clientFrom: 'tags.customer', dedupKey: '{{tags.customer}}-{{tags.alertname}}' } },
    ];
    const saved = await owner.agent.put(rulesUrl, { rules });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await owner.agent.get(rulesUrl)).data.rules).toHaveLength(3);

    const res = await send([
      { fingerprint: 'w1', labels: { alertname: 'Watchdog' } },
      { fingerprint: 'g1', labels: { alertname: 'HighCPU', instance: 'globex-web-1' } },
      { fingerprint: 'a1', labels: { alertname: 'DiskFull', customer: 'ACME' } },
      { fingerprint: 'n1', labels: { alertname: 'Other' } },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.data.alerts.map((a: { result: string }) => a.result)).toEqual(['ignored', 'created', 'created', 'created']);
    expect(await row('w1')).toBeUndefined();
    expect(await row('g1')).toMatchObject({ client_id: globex, priority: 'critical' });
    expect(await row('ACME-DiskFull')).toMatchObject({ client_id: acme });
    expect(await row('n1')).toMatchObject({ client_id: null });

    // Rules changed: the cached integration is forgotten, the next event follows the new ones.
    expect((await owner.agent.put(rulesUrl, { rules: [] })).statusCode).toBe(200);
    await send([{ fingerprint: 'w2', labels: { alertname: 'Watchdog' } }]);
    expect(await row('w2')).toBeDefined();
  });

  it('answers 400 naming the field for a bad rule, 403 to a member who may not manage integrations, 404 for another tenant', async () => {
    const { owner, rulesUrl, integration } = await setup(t);
    const bad = async (rule: unknown, field: string) => {
      const res = await owner.agent.put(rulesUrl, { rules: [rule] });
      expect(res.statusCode, JSON.stringify(rule)).toBe(400);
      expect(Object.keys(res.data.error.fields)).toContain(field);
    };
    await bad({ when: [{ field: 'title', op: 'matches', value: '(a+)+$' }], then: { drop: true } }, 'rules.0.when.0.value');
    await bad({ when: [{ field: 'title', op: 'equals' }], then: { drop: true } }, 'rules.0.when.0.value');
    await bad({ when: [{ field: 'password', op: 'exists' }], then: { drop: true } }, 'rules.0.when.0.field');
    await bad({ when: [], then: {} }, 'rules.0.then');
    await bad({ when: [], then: { clientId: 'no-such-client' } }, 'rules.0.then.clientId');

    const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
    expect((await member.agent.get(rulesUrl)).statusCode).toBe(403);
    const stranger = await registerOwner(t().app);
    expect((await stranger.agent.get(`/api/tenants/${stranger.tenantId}/integrations/${integration.id}/rules`)).statusCode).toBe(404);
    expect((await stranger.agent.put(`/api/tenants/${stranger.tenantId}/integrations/${integration.id}/rules`, { rules: [] })).statusCode).toBe(404);
  });

  it('keeps the last raw events with secrets redacted, and previews saved or unsaved rules over them', async () => {
    const { owner, globex, integration, rulesUrl, send } = await setup(t);
    // Raw events are kept at most one a second per integration: two events a little more than a second apart.
    await send([{ fingerprint: 'p1', labels: { alertname: 'HighCPU', instance: 'globex-web-1', api_key: 's3cr3t' } }]);
    await new Promise((r) => setTimeout(r, 1100));
    const pd = { routing_key: integration.key, event_action: 'trigger', dedup_key: 'pd-1', payload: { summary: 'Backup failed', source: 'nas-1', severity: 'error', custom_details: { client: 'acme' } } };
    expect((await ingest(t().app, '/v2/enqueue', pd)).statusCode).toBe(202);
    await new Promise((r) => setTimeout(r, 200));

    const preview = await owner.agent.post(`${rulesUrl}/preview`, {});
    expect(preview.statusCode, preview.body).toBe(200);
    const [latest, earlier] = preview.data.events;
    expect(preview.data.events).toHaveLength(2);
    expect(latest.format).toBe('pagerduty');
    expect(latest.body).not.toContain(integration.key);
    expect(JSON.parse(latest.body).routing_key).toBe('[redacted]');
    expect(earlier.body).not.toContain('s3cr3t');
    expect(latest.alerts).toEqual([expect.objectContaining({ title: 'Backup failed', priority: 'high', dedupKey: 'pd-1', clientName: 'Acme Corp', rule: null, dropped: false })]);

    // Unsaved rules: what they would do, nothing saved.
    const tryRules = { rules: [{ when: [{ field: 'tags.instance', op: 'matches', value: '^globex-' }], then: { clientId: globex, priority: 'critical' } }, { when: [], then: { drop: true } }] };
    const tried = await owner.agent.post(`${rulesUrl}/preview`, tryRules);
    expect(tried.statusCode, tried.body).toBe(200);
    expect(tried.data.events[1].alerts[0]).toMatchObject({ clientId: globex, clientName: 'Globex', priority: 'critical', rule: 0, dropped: false });
    expect(tried.data.events[0].alerts[0]).toMatchObject({ rule: 1, dropped: true });
    expect((await owner.agent.get(rulesUrl)).data.rules).toEqual([]);

    const stranger = await registerOwner(t().app);
    expect((await stranger.agent.post(`/api/tenants/${stranger.tenantId}/integrations/${integration.id}/rules/preview`, {})).statusCode).toBe(404);
  });
});
