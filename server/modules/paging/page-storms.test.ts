import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/test-app.ts';
import { insertClient } from '../../test/factories.ts';
import { createIntegration } from '../../test/alerts.ts';
import { pagingHarness, MINUTE } from '../../test/paging.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';
import type { JobsTable } from '../../db/schema.ts';
import type { BatchJobHandler } from '../../jobs/job-worker.ts';
import { packPages, PAGES_JOB, type Page } from './page-delivery.ts';

// A storm: more than PAGE_STORM_LIMIT (5) pages for one person on one channel within a minute. The first five go out
// one by one; the rest wait for one summary page a minute, per client, with a link to the dashboard's new alerts.

for (const db of testDatabases()) {
  describe(`paging storms [${db.name}]`, () => {
    const h = pagingHarness(db);

    it('pages five alerts one by one, sums up the rest in one page a minute, and pages one by one again once it is calm', async () => {
      const { owner } = await h.setup();
      const [globex, initech] = await Promise.all(['Globex', 'Initech'].map((name) => insertClient(h.env.deps.db, owner.tenantId, name)));
      const keys = { globex: (await createIntegration(owner.agent, owner.tenantId, { clientId: globex })).key, initech: (await createIntegration(owner.agent, owner.tenantId, { clientId: initech })).key };
      const ownerEmail = await h.emailOf(owner.userId);
      const ids: string[] = [];
      for (const key of [...Array(5).fill(keys.globex), ...Array(4).fill(keys.initech), ...Array(3).fill(keys.globex)]) ids.push(await h.trigger(key));
      await h.advance(0);
      const mails = () => h.mailsTo(ownerEmail);
      expect(mails()).toHaveLength(5);
      expect(mails().every((m) => m.subject.startsWith('[CRIT] Globex: '))).toBe(true);
      const outcomes = async (id: string) => (await listAttempts(h.env.deps.db, owner.tenantId, id)).filter((a) => a.user_id === owner.userId).map((a) => [a.outcome, a.reason]);
      for (const id of ids.slice(5)) expect(await outcomes(id)).toEqual([['held', 'More than 5 pages within a minute: kept for a summary page']]);

      // One of the held alerts is acknowledged before the summary goes out: it is left out of it.
      const acked = ids[11];
      expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/alerts/${acked}/acknowledge`, {})).statusCode).toBe(200);
      await h.advance(MINUTE);
      expect(mails()).toHaveLength(6);
      const summary = mails()[5];
      expect(summary.subject).toBe('6 new alerts for you: 4 Initech, 2 Globex');
      expect(summary.text).toContain('Open them to acknowledge all: http://localhost:3000/app/dashboard?status=new');
      for (const id of ids.slice(5, 11)) expect(await outcomes(id)).toEqual([['summarized', 'Sent in a summary page of 6 alerts']]);
      expect(await outcomes(acked)).toEqual([['skipped', 'The alert was no longer new when the summary page went out']]);
      const timeline = (await h.detail(owner.agent, owner.tenantId, ids[6])).timeline.filter((e: { kind: string }) => e.kind === 'paged');
      expect(timeline.map((e: { detail: Record<string, unknown> }) => [e.detail.channel, e.detail.outcome])).toEqual([['email', 'summarized']]);

      // Nothing more to sum up: no more summaries.
      await h.advance(MINUTE);
      expect(mails()).toHaveLength(6);
      // Calm again: a new alert is paged on its own, at once.
      const later = await h.trigger(keys.initech, { title: 'Printer offline' });
      await h.advance(0);
      expect(mails()).toHaveLength(7);
      expect(mails()[6].subject).toBe('[CRIT] Initech: Printer offline');
      expect(await outcomes(later)).toEqual([['sent', null]]);
    });

    it('keeps the summary to one a minute while the storm lasts, each alert in exactly one page', async () => {
      const { owner, integration } = await h.setup();
      const ownerEmail = await h.emailOf(owner.userId);
      const ids: string[] = [];
      for (let minute = 0; minute < 3; minute++) {
        for (let i = 0; i < 8; i++) ids.push(await h.trigger(integration.key));
        await h.advance(0);
        await h.advance(MINUTE);
      }
      const mails = h.mailsTo(ownerEmail);
      const summaries = mails.filter((m) => / new alerts? for you/.test(m.subject));
      const single = mails.filter((m) => m.subject.startsWith('[CRIT]'));
      // Five alone at first, then the storm goes on: every later page is in a summary, one a minute.
      expect(single).toHaveLength(5);
      expect(summaries.map((m) => m.subject)).toEqual(['3 new alerts for you: 3 no client', '8 new alerts for you: 8 no client', '8 new alerts for you: 8 no client']);
      const rows = (await Promise.all(ids.map((id) => listAttempts(h.env.deps.db, owner.tenantId, id)))).flat().filter((a) => a.user_id === owner.userId);
      expect(rows.map((r) => r.outcome).sort()).toEqual([...Array(5).fill('sent'), ...Array(19).fill('summarized')].sort());
    });
    it('lets no more than five single pages through when two runs deliver to the same person at once', async () => {
      const { owner, integration } = await h.setup();
      const ownerEmail = await h.emailOf(owner.userId);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await h.trigger(integration.key));
      // Two page jobs of four pages each, run side by side as the worker's lanes run them: both would count the same
      // empty last minute and find room for all four, were the decision not taken one run at a time.
      const handler = (h.env.app.jobs.worker as unknown as { opts: { batchHandlers: Record<string, BatchJobHandler> } }).opts.batchHandlers[PAGES_JOB];
      const job = (alertIds: string[]) => {
        const pages: Page[] = alertIds.map((alertId) => ({ tenantId: owner.tenantId, alertId, userId: owner.userId, channel: 'email', step: 'L1', level: 1 }));
        return [{ job: { id: `storm-${alertIds[0]}`, attempts: 1 } as unknown as JobsTable, ctx: { now: h.clock(), finalAttempt: false, payload: packPages(pages) } }];
      };
      await Promise.all([handler(job(ids.slice(0, 4))), handler(job(ids.slice(4)))]);
      expect(h.mailsTo(ownerEmail)).toHaveLength(5);
      const rows = (await Promise.all(ids.map((id) => listAttempts(h.env.deps.db, owner.tenantId, id)))).flat().filter((a) => a.user_id === owner.userId);
      expect(rows.map((r) => r.outcome).sort()).toEqual([...Array(3).fill('held'), ...Array(5).fill('sent')]);
    });
  });
}
