import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/test-app.ts';
import { registerOwner } from '../../../test/factories.ts';
import { createIntegration, ingest, pdTrigger } from '../../../test/alerts.ts';

describeEachDatabase(
  'ingestion limits',
  (t) => {
    it('answers 429 with Retry-After once a key exceeds its budget, per key', async () => {
      const owner = await registerOwner(t().app);
      const one = await createIntegration(owner.agent, owner.tenantId, { name: 'one' });
      const two = await createIntegration(owner.agent, owner.tenantId, { name: 'two' });
      for (let i = 0; i < 5; i++) expect((await ingest(t().app, '/v2/enqueue', pdTrigger(one.key, { dedup_key: `k${i}` }))).statusCode).toBe(202);
      const limited = await ingest(t().app, '/v2/enqueue', pdTrigger(one.key));
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.data).toMatchObject({ status: 'throttle event', message: 'Too many events for this integration key. Please retry later.' });
      const generic = await ingest(t().app, '/api/ingest/events', { title: 'x' }, { authorization: `Bearer ${one.key}` });
      expect(generic.statusCode).toBe(429);
      expect(generic.data.error).toMatchObject({ code: 'rate_limited', message: 'Too many events for this integration key. Please retry later.' });
      // The same window: no longer to wait than the first refusal said.
      expect(Number(generic.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(generic.headers['retry-after'])).toBeLessThanOrEqual(Number(limited.headers['retry-after']));
      // Another key of the same tenant has its own budget.
      expect((await ingest(t().app, '/v2/enqueue', pdTrigger(two.key))).statusCode).toBe(202);
    });

    it('answers 413 for a generic event above the configured size', async () => {
      const owner = await registerOwner(t().app);
      const { key } = await createIntegration(owner.agent, owner.tenantId);
      const res = await ingest(t().app, '/api/ingest/events', { title: 'big', description: 'x'.repeat(4096) }, { authorization: `Bearer ${key}` });
      expect(res.statusCode).toBe(413);
      expect(res.data.error.code).toBe('payload_too_large');
    });
  },
  { ingest: { rateLimit: 5, rateWindowMs: 60_000, maxEventBytes: 2048 } },
);

describeEachDatabase('ingestion default budget', (t) => {
  it('accepts a burst of 1,000 events in one second from one key by default', async () => {
    const owner = await registerOwner(t().app);
    const { key } = await createIntegration(owner.agent, owner.tenantId);
    const answers = await Promise.all(Array.from({ length: 1000 }, (_, i) => ingest(t().app, '/v2/enqueue', pdTrigger(key, { dedup_key: `burst-${i}` }))));
    expect(answers.filter((r) => r.statusCode === 202)).toHaveLength(1000);
    const stored = await t().deps.db.selectFrom('alerts').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', owner.tenantId).executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(1000);
  });
});
