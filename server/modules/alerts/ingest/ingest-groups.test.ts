import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestEnv } from '../../../test/test-app.ts';
import { registerOwner } from '../../../test/factories.ts';
import { hasBadCharacters } from '../../../http/body-guard.ts';
import { createIntegration, ingest, pdTrigger } from '../../../test/alerts.ts';

const alert = (fingerprint: string, labels: Record<string, string> = {}) => ({
  status: 'firing',
  labels: { alertname: 'HighCPU', instance: `${fingerprint}:9100`, severity: 'warning', ...labels },
  annotations: { summary: `CPU high on ${fingerprint}` },
  startsAt: '2025-05-01T10:00:00.000Z',
  fingerprint,
});
const group = (alerts: unknown[]) => ({ version: '4', status: 'firing', receiver: 'alertdesk', groupKey: '{}:{alertname="HighCPU"}', alerts });

async function setup(t: () => TestEnv) {
  const owner = await registerOwner(t().app);
  const integration = await createIntegration(owner.agent, owner.tenantId);
  const rows = () => t().deps.db.selectFrom('alerts').select(['dedup_key', 'occurrences', 'tags', 'title']).where('tenant_id', '=', owner.tenantId).orderBy('dedup_key').execute();
  const send = (body: unknown) => ingest(t().app, '/api/ingest/alertmanager', body, { authorization: `Bearer ${integration.key}` });
  return { owner, integration, rows, send };
}

/** Makes the database itself refuse to insert an alert with this dedup key, as a failure half-way through a group. */
async function failInsertsOf(env: TestEnv, dedupKey: string) {
  if (env.db.name === 'sqlite') {
    await sql.raw(`create trigger fail_${dedupKey} before insert on alerts when new.dedup_key = '${dedupKey}' begin select raise(abort, 'refused by test'); end`).execute(env.deps.db);
    return () => sql.raw(`drop trigger fail_${dedupKey}`).execute(env.deps.db);
  }
  await sql
    .raw(
      `create function fail_${dedupKey}() returns trigger language plpgsql as $$ begin if new.dedup_key = '${dedupKey}' then raise exception 'refused by test'; end if; return new; end $$`,
    )
    .execute(env.deps.db);
  await sql.raw(`create trigger fail_${dedupKey} before insert on alerts for each row execute function fail_${dedupKey}()`).execute(env.deps.db);
  return async () => {
    await sql.raw(`drop trigger fail_${dedupKey} on alerts`).execute(env.deps.db);
    await sql.raw(`drop function fail_${dedupKey}()`).execute(env.deps.db);
  };
}

describeEachDatabase('Alertmanager groups', (t) => {
  it('refuses a group [ok, bad, ok] whole with 400 naming the bad alert, storing none of it', async () => {
    const { rows, send } = await setup(t);
    const res = await send(group([alert('g1-a'), alert('g1-b', { instance: 'x'.repeat(20_000) }), alert('g1-c')]));
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.data.error.fields)).toEqual(['alerts.1.labels']);
    expect(await rows()).toEqual([]);
  });

  it('stores every alert of a group [ok, NUL in a label, ok] with the NUL stripped, identically on both databases', async () => {
    const { rows, send } = await setup(t);
    const res = await send(group([alert('g2-a'), alert('g2-b', { instance: 'web\u0000-2' }), alert('g2-c')]));
    expect(res.statusCode).toBe(202);
    expect(res.data.alerts.map((a: { result: string }) => a.result)).toEqual(['created', 'created', 'created']);
    const stored = await rows();
    expect(stored.map((r) => r.dedup_key)).toEqual(['g2-a', 'g2-b', 'g2-c']);
    expect(JSON.parse(stored[1].tags)).toContain('instance:web-2');
    for (const r of stored) expect(hasBadCharacters(r.tags)).toBe(false);
  });

  it('commits nothing when the database fails half-way through a group, so the retry stores each alert once', async () => {
    const { rows, send } = await setup(t);
    const body = group([alert('g3-a'), alert('g3boom'), alert('g3-c')]);
    const restore = await failInsertsOf(t(), 'g3boom');
    const failed = await send(body);
    expect(failed.statusCode).toBe(500);
    expect(await rows()).toEqual([]);
    await restore();
    // Alertmanager retries the same group.
    const retried = await send(body);
    expect(retried.statusCode).toBe(202);
    expect(retried.data.alerts.map((a: { result: string }) => a.result)).toEqual(['created', 'created', 'created']);
    expect((await rows()).map((r) => [r.dedup_key, Number(r.occurrences)])).toEqual([
      ['g3-a', 1],
      ['g3-c', 1],
      ['g3boom', 1],
    ]);
  });

  it('answers each alert of a group in the order sent, deduplicating repeats and resolving within the group', async () => {
    const { rows, send } = await setup(t);
    await send(group([alert('g4-open')]));
    const res = await send(
      group([
        alert('g4-z'),
        { ...alert('g4-open'), status: 'resolved' },
        alert('g4-a'),
        alert('g4-z'),
        { ...alert('g4-none'), status: 'resolved' },
      ]),
    );
    expect(res.statusCode).toBe(202);
    expect(res.data.alerts.map((a: { dedupKey: string; result: string }) => `${a.dedupKey}:${a.result}`)).toEqual([
      'g4-z:created',
      'g4-open:resolved',
      'g4-a:created',
      'g4-z:deduplicated',
      'g4-none:ignored',
    ]);
    expect((await rows()).map((r) => [r.dedup_key, Number(r.occurrences)])).toEqual([
      ['g4-a', 1],
      ['g4-open', 1],
      ['g4-z', 2],
    ]);
  });
});

describeEachDatabase(
  'Alertmanager groups against the rate limit',
  (t) => {
    it('counts every alert of a group against the key budget: a group that does not fit answers 429 and stores nothing', async () => {
      const { owner, integration, rows, send } = await setup(t);
      const big = await send(group(Array.from({ length: 1000 }, (_, i) => alert(`big-${i}`))));
      expect(big.statusCode).toBe(429);
      expect(Number(big.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(big.data.error).toMatchObject({ code: 'rate_limited', message: 'Too many events for this integration key. Please retry later.' });
      expect(await rows()).toHaveLength(0);

      // 30 fit; then 21 more do not (51 > 50), and the refused group costs nothing: 20 still fit.
      expect((await send(group(Array.from({ length: 30 }, (_, i) => alert(`a-${i}`))))).statusCode).toBe(202);
      const over = await send(group(Array.from({ length: 21 }, (_, i) => alert(`b-${i}`))));
      expect(over.statusCode).toBe(429);
      // The same window as the first refusal: no longer to wait than it said.
      expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(Number(big.headers['retry-after']));
      expect((await send(group(Array.from({ length: 20 }, (_, i) => alert(`c-${i}`))))).statusCode).toBe(202);
      expect(await rows()).toHaveLength(50);

      // The budget is spent: a single PagerDuty event of the same key waits too, another key does not.
      expect((await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key))).statusCode).toBe(429);
      const other = await createIntegration(owner.agent, owner.tenantId, { name: 'other' });
      expect((await ingest(t().app, '/v2/enqueue', pdTrigger(other.key))).statusCode).toBe(202);
    });
  },
  { ingest: { rateLimit: 50, rateWindowMs: 60_000, maxEventBytes: 512 * 1024 } },
);
