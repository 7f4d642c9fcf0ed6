import { describe, expect, it } from 'vitest';
import { testDatabases, type Agent } from '../../test/test-app.ts';
import { createIntegration, ingest } from '../../test/alerts.ts';
import { registerOwner } from '../../test/factories.ts';
import { useLoggedApp } from '../../test/logs.ts';
import { until } from './psa-test-harness.ts';
import { connectWiseStandIn } from './psa-test-standins.ts';

const creds = { companyId: 'logged', publicKey: 'pub-logged', privateKey: 'PRIVATE-key-never-logged', clientId: 'CLIENTID-never-logged' };

for (const db of testDatabases()) {
  describe(`the log of PSA tickets [${db.name}]`, () => {
    // The most verbose level: whatever any line could carry is in this log.
    const { log, built } = useLoggedApp(db, { logLevel: 'trace', env: { JOB_WORKER: 'false', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32' } });

    it('never holds the PSA credentials or the inbound token, through a failing PSA and an inbound notice', async () => {
      const { app } = built();
      const cw = await connectWiseStandIn(creds);
      try {
        const owner = await registerOwner(app);
        const agent: Agent = owner.agent;
        const t = `/api/tenants/${owner.tenantId}`;
        const conn = await agent.post(`${t}/psaConnections`, {
          type: 'connectwise',
          name: 'CW',
          settings: { siteUrl: cw.siteUrl, ...creds, board: 'Alerts', newStatus: 'New', closedStatus: 'Closed' },
          rules: { catchAllCompanyId: 'Catchall' },
        });
        expect(conn.statusCode).toBe(201);
        const integration = await createIntegration(agent, owner.tenantId);
        cw.mishaps.push('fail');
        await ingest(app, '/api/ingest/events', { title: 'Logged', dedupKey: 'logged', priority: 'critical' }, { authorization: `Bearer ${integration.key}` });
        const actions = () => app.jobs.worker.runDue();
        await until(async () => (await built().deps.db.selectFrom('psa_actions').selectAll().where('tenant_id', '=', owner.tenantId).execute()).length > 0);
        await actions();
        expect(log.text).toContain('job failed; retrying later');
        const token = new URL(conn.data.inboundUrl).pathname.split('/').at(-1)!;
        expect((await ingest(app, `/api/ingest/psa/${token}`, { ID: 1 })).statusCode).toBe(200);
        expect(log.text).toContain('/api/ingest/psa/[redacted]');
        for (const secret of [creds.privateKey, creds.clientId, Buffer.from(`${creds.companyId}+${creds.publicKey}:${creds.privateKey}`).toString('base64'), token.split('.')[1]]) expect(log.text).not.toContain(secret);
      } finally {
        await cw.close();
      }
    });
  });
}
