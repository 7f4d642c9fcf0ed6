import { afterEach, describe, expect, it } from 'vitest';
import { PSA_MSG } from '../../../contract/psa.ts';
import { buildApp } from '../../app.ts';
import type { Config } from '../../config.ts';
import { forkWorker } from '../../test/fork-worker.ts';
import { startTestApp, testDatabases } from '../../test/test-app.ts';
import { connectPsa, noteTexts, psaActions, psaTenant, settle, ticketTexts, until } from './psa-test-harness.ts';
import { connectWiseStandIn } from './psa-test-standins.ts';

// A server killed (SIGKILL) while its calls to a PSA are on their way: the PSA acted on them, the server never heard.
// Another instance takes the calls over when their lease ends and finds what was done instead of doing it again.

const creds = { companyId: 'msp', publicKey: 'pub-kill', privateKey: 'priv-kill', clientId: 'client-kill' };
const LEASE_PASSED_MS = 5 * 60_000;
const API = '/v4_6_release/apis/3.0';

for (const db of testDatabases()) {
  describe(`PSA calls of a server killed mid-call [${db.name}]`, () => {
    const closers: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close().catch(() => {});
    });

    it('a worker killed while a ticket and a note are on their way: another instance makes neither again', { timeout: 60_000 }, async () => {
      const cw = await connectWiseStandIn(creds);
      closers.push(cw.close);
      const overrides: Partial<Config> = { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } };
      const env = await startTestApp(db, overrides);
      closers.push(env.close);
      const tenant = await psaTenant(env);
      const settings = { siteUrl: cw.siteUrl, ...creds, board: 'Alerts', newStatus: 'New', closedStatus: 'Closed' };
      await connectPsa(tenant, { type: 'connectwise', name: 'CW', settings }, 'AcmeCorp');
      const { owner, raise } = tenant;

      // One alert has its ticket already; its recurrence's note and another alert's ticket are planned, not yet sent.
      const noted = await raise('kill-note');
      await settle(env, owner.tenantId, 1);
      const noteTicket = [...cw.tickets.values()].find((x) => x.externalXRef === `alertdesk:${noted}`)!;
      await raise('kill-note');
      const created = await raise('kill-create');
      await until(async () => (await psaActions(env, owner.tenantId)).length >= 3);

      // A worker process takes both; ConnectWise stores the ticket and the note and never answers; the worker is killed.
      cw.mishaps.push('hang');
      cw.noteMishaps.push('hang');
      const worker = forkWorker(env.config, { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32' });
      closers.push(worker.kill);
      const ticketsOf = (alertId: string) => [...cw.tickets.values()].filter((x) => x.externalXRef === `alertdesk:${alertId}`);
      await until(() => Promise.resolve(ticketsOf(created).length === 1 && noteTicket.notes.length === 1), 30_000);
      await worker.kill();
      expect(ticketsOf(created)).toHaveLength(1);
      expect(noteTicket.notes).toHaveLength(1);
      expect((await psaActions(env, owner.tenantId)).filter((a) => a.status === 'sending').map((a) => a.action).sort()).toEqual(['create', 'note']);

      // Another instance, its clock past the dead worker's lease, takes the calls over.
      const seenBefore = cw.seen.length;
      const other = await buildApp({ ...env.config, jobWorker: false }, { logger: false, clock: () => new Date(Date.now() + LEASE_PASSED_MS) });
      closers.push(() => other.app.close());
      for (let i = 0; i < 10 && (await other.app.jobs.worker.runDue()) > 0; i++);

      const [ticket] = ticketsOf(created);
      expect(ticketsOf(created)).toHaveLength(1);
      expect(noteTexts(noteTicket.notes)).toEqual([PSA_MSG.noteRecurrence(2)]);
      // It looked for them (our reference on the ticket, on the notes) and created nothing.
      const calls = cw.seen.slice(seenBefore).map((x) => `${x.method} ${x.path.split('?')[0]}`);
      expect(calls.sort()).toEqual([`GET ${API}/service/tickets`, `GET ${API}/service/tickets/${noteTicket.id}/notes`]);
      expect((await psaActions(env, owner.tenantId)).map((a) => a.status)).toEqual(['done', 'done', 'done']);
      const row = await env.deps.db.selectFrom('psa_tickets').selectAll().where('alert_id', '=', created).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'open', ticket_id: String(ticket.id), ticket_number: String(ticket.id) });
      expect(await ticketTexts(owner.agent, tenant.t, created)).toEqual([PSA_MSG.ticketOpened('ConnectWise PSA', String(ticket.id))]);
    });
  });
}
