import { expect, it } from 'vitest';
import { describeEachDatabase, type TestEnv } from '../../../test/test-app.ts';
import { registerOwner } from '../../../test/factories.ts';
import { createIntegration, ingest, pdTrigger } from '../../../test/alerts.ts';

const clientBody = (name: string, aliases: string[] = []) => ({ name, status: 'active', aliases });

async function setup(t: () => TestEnv) {
  const owner = await registerOwner(t().app);
  const base = `/api/tenants/${owner.tenantId}/clients`;
  const acme = await owner.agent.post(base, clientBody('Acme Corp', ['acme.example', 'org-4711']));
  const globex = await owner.agent.post(base, clientBody('Globex'));
  const integration = await createIntegration(owner.agent, owner.tenantId, { name: 'Shared Prometheus' });
  const auth = { authorization: `Bearer ${integration.key}` };
  const clientOf = async (dedupKey: string) =>
    (await t().deps.db.selectFrom('alerts').select(['client_id', 'metadata']).where('tenant_id', '=', owner.tenantId).where('dedup_key', '=', dedupKey).executeTakeFirstOrThrow());
  const amAlert = (fingerprint: string, labels: Record<string, string>) => ({
    version: '4',
    status: 'firing',
    alerts: [{ status: 'firing', labels: { alertname: 'HighCPU', ...labels }, fingerprint }],
  });
  return { owner, base, acmeId: acme.data.id as string, globexId: globex.data.id as string, integration, auth, clientOf, amAlert };
}

describeEachDatabase('routing an event to the client it names', (t) => {
  it('matches an Alertmanager client label, a PagerDuty custom detail and a client: tag against names and aliases, ignoring case', async () => {
    const { auth, clientOf, amAlert, acmeId, globexId, integration } = await setup(t);
    expect((await ingest(t().app, '/api/ingest/alertmanager', amAlert('am-1', { client: 'GLOBEX' }), auth)).statusCode).toBe(202);
    expect((await clientOf('am-1')).client_id).toBe(globexId);
    expect((await ingest(t().app, '/api/ingest/alertmanager', amAlert('am-2', { client: 'Acme.Example' }), auth)).statusCode).toBe(202);
    expect((await clientOf('am-2')).client_id).toBe(acmeId);

    const pd = await ingest(t().app, '/v2/enqueue', pdTrigger(integration.key, { dedup_key: 'pd-1' }, { custom_details: { client: 'org-4711', disk: '95%' } }));
    expect(pd.statusCode).toBe(202);
    expect((await clientOf('pd-1')).client_id).toBe(acmeId);

    const tagged = await ingest(t().app, '/api/ingest/events', { title: 'Backup failed', dedupKey: 'gen-1', tags: ['env:prod', 'client:globex'] }, auth);
    expect(tagged.statusCode).toBe(202);
    expect((await clientOf('gen-1')).client_id).toBe(globexId);
  });

  it('leaves an event naming an unknown client with the integration’s client, keeping the name it gave', async () => {
    const { auth, clientOf, amAlert } = await setup(t);
    await ingest(t().app, '/api/ingest/alertmanager', amAlert('am-unknown', { client: 'Initech' }), auth);
    const row = await clientOf('am-unknown');
    expect(row.client_id).toBeNull();
    expect(JSON.parse(row.metadata).client).toBe('Initech');
  });

  it('follows a client rename and a change of aliases at once (the cached names are forgotten on every client write)', async () => {
    const { owner, base, auth, clientOf, amAlert, acmeId } = await setup(t);
    await ingest(t().app, '/api/ingest/alertmanager', amAlert('before', { client: 'Acme Corp' }), auth);
    expect((await clientOf('before')).client_id).toBe(acmeId);

    const renamed = await owner.agent.put(`${base}/${acmeId}`, clientBody('Acme Industries', ['ACME-RMM']));
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data.aliases).toEqual(['ACME-RMM']);
    await ingest(t().app, '/api/ingest/alertmanager', amAlert('new-name', { client: 'acme industries' }), auth);
    await ingest(t().app, '/api/ingest/alertmanager', amAlert('new-alias', { client: 'acme-rmm' }), auth);
    await ingest(t().app, '/api/ingest/alertmanager', amAlert('old-name', { client: 'Acme Corp' }), auth);
    await ingest(t().app, '/api/ingest/alertmanager', amAlert('old-alias', { client: 'org-4711' }), auth);
    expect((await clientOf('new-name')).client_id).toBe(acmeId);
    expect((await clientOf('new-alias')).client_id).toBe(acmeId);
    expect((await clientOf('old-name')).client_id).toBeNull();
    expect((await clientOf('old-alias')).client_id).toBeNull();
  });

  it('reads a tenant’s client names once, not once per alert', async () => {
    const { auth } = await setup(t);
    // The names are cold (the clients were just written): a group of 20 alerts naming clients reads them once.
    const queries: string[] = [];
    const original = t().deps.db.getExecutor().executeQuery.bind(t().deps.db.getExecutor());
    const spy = async (...args: Parameters<typeof original>) => {
      queries.push(args[0].sql);
      return original(...args);
    };
    (t().deps.db.getExecutor() as unknown as { executeQuery: typeof spy }).executeQuery = spy;
    try {
      const alerts = Array.from({ length: 20 }, (_, i) => ({ status: 'firing', labels: { alertname: `A${i}`, client: i % 2 ? 'Globex' : 'acme corp' }, fingerprint: `many-${i}` }));
      expect((await ingest(t().app, '/api/ingest/alertmanager', { version: '4', status: 'firing', alerts }, auth)).statusCode).toBe(202);
    } finally {
      (t().deps.db.getExecutor() as unknown as { executeQuery: typeof original }).executeQuery = original;
    }
    expect(queries.filter((q) => /from "clients"/i.test(q))).toHaveLength(1);
  });

  it('validates aliases: at most 200 characters each, a list of names', async () => {
    const { base, owner } = await setup(t);
    const long = await owner.agent.post(base, clientBody('Too long', ['x'.repeat(201)]));
    expect(long.statusCode).toBe(400);
    expect(Object.keys(long.data.error.fields).some((f) => f.startsWith('aliases'))).toBe(true);
    const notList = await owner.agent.post(base, { name: 'Not a list', status: 'active', aliases: 'acme' });
    expect(notList.statusCode).toBe(400);
    const dupes = await owner.agent.post(base, clientBody('Dupes', [' acme ', 'ACME', '']));
    expect(dupes.data.aliases).toEqual(['acme']);
  });
});
