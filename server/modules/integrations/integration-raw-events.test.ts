import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { createIntegration } from '../../test/alerts.ts';
import { redacted } from './integration-rules.service.ts';
import { insertRawEvent, listRawEvents, RAW_EVENTS_KEPT } from './integrations.repository.ts';

it('redacts keys, tokens, secrets and signatures at any depth, and keeps dedup keys and the rest', () => {
  const body = { routing_key: 'K', dedup_key: 'd', payload: { custom_details: { api_key: 'x', password: 'p', note: 'n' } }, Signature: 's', Token: 't', SubscribeURL: 'u', alerts: [{ labels: { auth_token: 'a' } }] };
  expect(JSON.parse(redacted(body))).toEqual({
    routing_key: '[redacted]',
    dedup_key: 'd',
    payload: { custom_details: { api_key: '[redacted]', password: '[redacted]', note: 'n' } },
    Signature: '[redacted]',
    Token: '[redacted]',
    SubscribeURL: '[redacted]',
    alerts: [{ labels: { auth_token: '[redacted]' } }],
  });
  expect(JSON.parse(redacted({ big: 'x'.repeat(70_000) }))).toMatchObject({ truncated: true });
});

describeEachDatabase('raw events kept per integration', (t) => {
  it(`keeps only the last ${RAW_EVENTS_KEPT} of an integration, newest first`, async () => {
    const owner = await registerOwner(t().app);
    const integration = await createIntegration(owner.agent, owner.tenantId);
    for (let i = 0; i < RAW_EVENTS_KEPT + 5; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      await insertRawEvent(t().deps.db, { id: `e-${integration.id}-${i}`, tenant_id: owner.tenantId, integration_id: integration.id, format: 'generic', body: `{"n":${i}}`, received_at: at });
    }
    const kept = await listRawEvents(t().deps.db, owner.tenantId, integration.id);
    expect(kept).toHaveLength(RAW_EVENTS_KEPT);
    expect(kept[0].body).toBe(`{"n":${RAW_EVENTS_KEPT + 4}}`);
    expect(kept.at(-1)!.body).toBe('{"n":5}');
  });
});
