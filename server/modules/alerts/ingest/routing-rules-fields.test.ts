import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/test-app.ts';
import { registerOwner } from '../../../test/factories.ts';
import { createIntegration, ingest } from '../../../test/alerts.ts';
import type { NormalizedEvent } from './ingest.mappers.ts';
import { eventFields, fieldValue } from './routing-rules.ts';

const event: NormalizedEvent = {
  action: 'trigger',
  dedupKey: 'fp-1',
  title: 'Disk full on ACME-FS01',
  description: '',
  priority: 'medium',
  source: 'acme-fs01',
  clientRef: null,
  tags: ['alertname:DiskFull', 'instance:acme-fs01:9100', 'prod'],
  metadata: { org: { id: 7, site: { name: 'HQ', deep: { x: 1 } } }, links: ['a', 'b'], 'with space': 'x', empty: '' },
};

describe('the fields a rule can read (the editor’s suggestions)', () => {
  it('lists the set normalized fields, name:value tags and metadata leaves, each read back by the rules as listed', () => {
    const fields = Object.fromEntries(eventFields(event).map((f) => [f.field, f.value]));
    expect(fields).toEqual({
      title: 'Disk full on ACME-FS01',
      priority: 'medium',
      source: 'acme-fs01',
      dedupKey: 'fp-1',
      'tags.alertname': 'DiskFull',
      'tags.instance': 'acme-fs01:9100',
      'metadata.org.id': '7',
      'metadata.org.site.name': 'HQ',
      'metadata.org.site.deep': '{"x":1}',
      'metadata.links': '["a","b"]',
    });
    for (const [field, value] of Object.entries(fields)) expect(fieldValue(event, field)).toBe(value);
  });
});

describeEachDatabase('rules preview: fields', (t) => {
  it('gives each previewed alert the fields of the event as it came', async () => {
    const owner = await registerOwner(t().app);
    const integration = await createIntegration(owner.agent, owner.tenantId, { name: 'Shared Prometheus' });
    const body = { version: '4', status: 'firing', alerts: [{ status: 'firing', fingerprint: 'f1', labels: { alertname: 'HighCPU', client: 'acme' }, annotations: { runbook: 'https://x/r' } }] };
    expect((await ingest(t().app, '/api/ingest/alertmanager', body, { authorization: `Bearer ${integration.key}` })).statusCode).toBe(202);
    const url = `/api/tenants/${owner.tenantId}/integrations/${integration.id}/rules/preview`;
    let events: Array<{ alerts: Array<{ fields?: Array<{ field: string; value: string }> }> }> = [];
    for (let i = 0; i < 50 && !events.length; i++) {
      events = (await owner.agent.post(url, { rules: [{ when: [], then: { priority: 'low' } }] })).data.events;
      if (!events.length) await new Promise((r) => setTimeout(r, 20));
    }
    expect(Object.fromEntries(events[0].alerts[0].fields!.map((f) => [f.field, f.value]))).toMatchObject({ 'tags.client': 'acme', 'tags.alertname': 'HighCPU', 'metadata.runbook': 'https://x/r', client: 'acme', priority: 'medium' });
  });
});
