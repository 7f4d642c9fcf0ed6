import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDatabases } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { createIntegration, ingest } from '../../test/alerts.ts';
import { enqueueJobs } from '../../jobs/jobs.repository.ts';
import { up } from './0015_retire_escalation_jobs.ts';

for (const db of testDatabases()) {
  describe(`migration 0015: older escalation jobs move to the one code path [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    beforeAll(async () => {
      env = await startTestApp(db);
    });
    afterAll(async () => env?.close());

    it('turns step and overdue jobs into alert columns, single pages into page batches, and drops unused stored tokens', async () => {
      const owner = await registerOwner(env.app);
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const open = async (title: string) => (await ingest(env.app, '/api/ingest/events', { title, priority: 'critical' }, { authorization: `Bearer ${integration.key}` })).json().alertId as string;
      const [stepped, overdue, acked] = [await open('Stepped'), await open('Overdue'), await open('Acknowledged')];
      const d = env.deps.db;
      await d.updateTable('alerts').set({ escalation_state: 'running', escalation_level: 1, next_step_at: null, overdue_check_at: null }).where('id', 'in', [stepped, overdue, acked]).execute();
      await d.updateTable('alerts').set({ status: 'acknowledged' }).where('id', '=', acked).execute();
      const due = new Date(Date.now() + 600_000);
      const t = owner.tenantId;
      const page = (alertId: string, userId: string) => ({ tenantId: t, alertId, userId, channel: 'email', step: 'L1', level: 1 });
      await enqueueJobs(
        d,
        [
          { kind: 'escalation.step', uniqueKey: `s:${stepped}`, dueAt: due, tenantId: t, alertId: stepped, payload: { tenantId: t, alertId: stepped, level: 3, repeat: false } },
          { kind: 'escalation.overdue', uniqueKey: `o:${overdue}`, dueAt: due, tenantId: t, alertId: overdue, payload: { tenantId: t, alertId: overdue } },
          { kind: 'escalation.step', uniqueKey: `s:${acked}`, dueAt: due, tenantId: t, alertId: acked, payload: { tenantId: t, alertId: acked, level: 2, repeat: false } },
          { kind: 'page.deliver', uniqueKey: `p:1`, dueAt: due, tenantId: t, alertId: stepped, payload: page(stepped, owner.userId) },
          { kind: 'page.deliver', uniqueKey: `p:2`, dueAt: due, tenantId: t, alertId: overdue, payload: page(overdue, owner.userId) },
        ],
        new Date(),
      );
      const at = new Date().toISOString();
      await d.insertInto('ack_tokens').values([
        { token_hash: 'unused', tenant_id: t, alert_id: stepped, user_id: owner.userId, created_at: at, expires_at: at, used_at: null },
        { token_hash: 'used', tenant_id: t, alert_id: stepped, user_id: owner.userId, created_at: at, expires_at: at, used_at: at },
      ]).execute();

      await up(d);

      const alerts = await d.selectFrom('alerts').select(['id', 'escalation_level', 'next_step_at', 'overdue_check_at']).where('id', 'in', [stepped, overdue, acked]).execute();
      const byId = Object.fromEntries(alerts.map((a) => [a.id, a]));
      expect(byId[stepped]).toMatchObject({ escalation_level: 2, next_step_at: due.toISOString(), overdue_check_at: null });
      expect(byId[overdue]).toMatchObject({ escalation_level: 1, next_step_at: null, overdue_check_at: due.toISOString() });
      // An alert no longer new is not escalated again.
      expect(byId[acked]).toMatchObject({ next_step_at: null, overdue_check_at: null });
      const jobs = await d.selectFrom('jobs').select(['kind', 'payload', 'due_at']).where('kind', 'in', ['escalation.step', 'escalation.overdue', 'page.deliver', 'escalation.pages']).execute();
      expect(jobs.map((j) => j.kind)).toEqual(['escalation.pages']);
      expect(jobs[0].due_at).toBe(due.toISOString());
      // The jobs are read in the table's own order (no order by): the batch's alerts may come either way.
      const batch = JSON.parse(jobs[0].payload) as { groups: Array<{ alertIds: string[] }> };
      for (const g of batch.groups) g.alertIds.sort();
      expect(batch).toEqual({ groups: [{ tenantId: t, step: 'L1', level: 1, userId: owner.userId, channel: 'email', alertIds: [stepped, overdue].sort() }] });
      expect((await d.selectFrom('ack_tokens').select('token_hash').where('alert_id', '=', stepped).execute()).map((r) => r.token_hash)).toEqual(['used']);
    });
  });
}
