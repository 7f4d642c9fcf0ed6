import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PSA_MSG } from '../../../contract/psa.ts';
import type { Config } from '../../config.ts';
import { createIntegration, ingest } from '../../test/alerts.ts';
import { registerOwner, registerTeam } from '../../test/factories.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { PSA_HTTP } from './psa-http.ts';
import { noteTexts, psaActions, psaTenant, settle as settleAll, ticketTexts } from './psa-test-harness.ts';
import { connectWiseStandIn } from './psa-test-standins.ts';

const creds = { companyId: 'msp', publicKey: 'pubKEY123', privateKey: 'privSECRET456', clientId: 'cw-client-id-789' };

for (const db of testDatabases()) {
  describe(`PSA tickets: ConnectWise [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let nowMs = Date.now();
    let cw: Awaited<ReturnType<typeof connectWiseStandIn>>;
    const overrides: Partial<Config> = { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } };
    beforeAll(async () => {
      cw = await connectWiseStandIn(creds);
      env = await startTestApp(db, overrides, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await cw.close();
    });
    const settings = () => ({ siteUrl: cw.siteUrl, ...creds, board: 'Alerts', newStatus: 'New', closedStatus: 'Closed' });
    const ticketPosts = () => cw.seen.filter((s) => s.method === 'POST' && s.path === '/v4_6_release/apis/3.0/service/tickets');
    const settle = (tenantId: string, count: number) => settleAll(env, tenantId, count);

    /** A tenant whose client is mapped (by the suggestion from its alias) to a company, and a connection. */
    async function setup(rules: Record<string, unknown> = {}) {
      const tenant = await psaTenant(env);
      const { owner, t, clientId } = tenant;
      const conn = await owner.agent.post(`${t}/psaConnections`, { type: 'connectwise', name: 'CW', settings: settings(), rules });
      expect(conn.statusCode).toBe(201);
      const connBase = `${t}/psaConnections/${conn.data.id}`;
      const suggested = await owner.agent.get(`${connBase}/companyMap`);
      expect(suggested.data.items).toEqual([{ clientId, clientName: 'Acme HQ', companyId: null, companyName: null, suggested: { companyId: 'AcmeCorp', companyName: 'Acme Corporation', matchedOn: 'Acme Corporation' } }]);
      const map = await owner.agent.put(`${connBase}/companyMap`, { items: [{ clientId, companyId: 'AcmeCorp', companyName: 'Acme Corporation' }] });
      expect(map.statusCode).toBe(200);
      expect(map.data.items[0]).toMatchObject({ clientId, companyId: 'AcmeCorp' });
      return { ...tenant, conn: conn.data, connBase };
    }

    it('manages connections: secrets encrypted and never answered, validation, roles, other tenants, test connection', async () => {
      const team = await registerTeam(env);
      const base = `/api/tenants/${team.tenantId}/psaConnections`;
      const created = await team.admin.agent.post(base, { type: 'connectwise', name: 'Main PSA', settings: settings() });
      expect(created.statusCode).toBe(201);
      expect(created.data).toMatchObject({
        type: 'connectwise',
        name: 'Main PSA',
        enabled: true,
        settings: { siteUrl: cw.siteUrl, companyId: 'msp', publicKey: 'pubKEY123', board: 'Alerts', newStatus: 'New', closedStatus: 'Closed' },
        secretsSet: { privateKey: true, clientId: true },
        rules: { priorities: ['critical', 'high'], triggerMode: 'on_trigger', unacknowledgedMinutes: null, catchAllCompanyId: null, recurrence: 'reopen', inboundClose: 'resolve' },
        lastError: null,
        queueLength: 0,
      });
      expect(created.data.inboundUrl).toMatch(new RegExp(`^http://localhost:3000/api/ingest/psa/${created.data.id}\\.[A-Za-z0-9_-]{43}$`));
      const one = `${base}/${created.data.id}`;
      const row = await env.deps.db.selectFrom('psa_connections').selectAll().where('id', '=', created.data.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(creds.privateKey);
      expect(JSON.stringify(row)).not.toContain(creds.clientId);
      // An update without the secrets keeps them.
      const put = await team.owner.agent.put(one, { type: 'connectwise', name: 'Renamed', settings: { ...settings(), privateKey: undefined, clientId: undefined }, rules: { priorities: ['critical'], triggerMode: 'unacknowledged_after', unacknowledgedMinutes: 15 } });
      expect(put.statusCode).toBe(200);
      expect(put.data).toMatchObject({ name: 'Renamed', secretsSet: { privateKey: true, clientId: true }, rules: { priorities: ['critical'], triggerMode: 'unacknowledged_after', unacknowledgedMinutes: 15 } });
      expect((await team.owner.agent.post(`${one}/test`)).data).toEqual({ ok: true, message: PSA_MSG.testOk });
      for (const res of [created, put, await team.owner.agent.get(base), await team.owner.agent.get(one), await team.owner.agent.post(`${one}/test`)]) {
        expect(res.body).not.toContain(creds.privateKey);
        expect(res.body).not.toContain(creds.clientId);
      }
      // A wrong private key: the test says the PSA refused, in its words, without the key.
      await team.owner.agent.put(one, { type: 'connectwise', name: 'Renamed', settings: { ...settings(), privateKey: 'wrong-key' } });
      const failed = await team.owner.agent.post(`${one}/test`);
      expect(failed.data.ok).toBe(false);
      expect(failed.data.message).toContain('401');
      expect(failed.body).not.toContain('wrong-key');
      expect(failed.body).not.toContain(creds.clientId);
      expect(failed.data.message).toContain('Authentication failed for clientId [redacted]');

      const bad = await team.owner.agent.post(base, { type: 'connectwise', name: '', settings: { siteUrl: 'ftp://x', companyId: 'a' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.data.error.fields).toMatchObject({ name: PSA_MSG.nameRequired, 'settings.siteUrl': PSA_MSG.urlInvalid, 'settings.publicKey': PSA_MSG.required });
      const noSecret = await team.owner.agent.post(base, { type: 'connectwise', name: 'X', settings: { ...settings(), privateKey: undefined } });
      expect(noSecret.statusCode).toBe(400);
      expect(noSecret.data.error.fields).toEqual({ 'settings.privateKey': PSA_MSG.secretRequired });
      const badRules = await team.owner.agent.post(base, { type: 'connectwise', name: 'X', settings: settings(), rules: { priorities: [], triggerMode: 'unacknowledged_after' } });
      expect(badRules.data.error.fields).toMatchObject({ 'rules.priorities': PSA_MSG.prioritiesRequired });
      const badType = await team.owner.agent.post(base, { type: 'jira', name: 'X', settings: {} });
      expect(badType.statusCode).toBe(400);
      const typeChange = await team.owner.agent.put(one, { type: 'halopsa', name: 'X', settings: { baseUrl: cw.siteUrl, clientId: 'a', ticketTypeId: 1, newStatusId: 1, closedStatusId: 9 } });
      expect(typeChange.data.error.fields).toEqual({ type: PSA_MSG.typeFixed });

      expect((await team.user.agent.get(base)).statusCode).toBe(403);
      expect((await team.user.agent.post(`${one}/test`)).statusCode).toBe(403);
      const other = await registerOwner(env.app);
      const otherOne = `/api/tenants/${other.tenantId}/psaConnections/${created.data.id}`;
      expect((await other.agent.get(base)).statusCode).toBe(404);
      for (const res of [await other.agent.get(otherOne), await other.agent.put(otherOne, { type: 'connectwise', name: 'X', settings: settings() }), await other.agent.post(`${otherOne}/test`), await other.agent.get(`${otherOne}/companies`), await other.agent.get(`${otherOne}/companyMap`), await other.agent.put(`${otherOne}/companyMap`, { items: [] }), await other.agent.delete(otherOne)])
        expect(res.statusCode).toBe(404);
      const endpoints: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string]> = [['GET', base], ['POST', base], ['GET', one], ['PUT', one], ['DELETE', one], ['POST', `${one}/test`], ['GET', `${one}/companies`], ['GET', `${one}/companyMap`], ['PUT', `${one}/companyMap`]];
      for (const [method, url] of endpoints) expect((await env.app.inject({ method, url, payload: method === 'GET' || method === 'DELETE' ? undefined : { bad: true } })).statusCode, `${method} ${url}`).toBe(401);
      const doc = await env.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(doc.statusCode).toBe(200);
      const paths = Object.keys(doc.json().paths);
      for (const p of ['/api/tenants/{tenantId}/psaConnections', '/api/tenants/{tenantId}/psaConnections/{connectionId}/test', '/api/tenants/{tenantId}/psaConnections/{connectionId}/companyMap', '/api/ingest/psa/{token}']) expect(paths).toContain(p);
      expect((await team.owner.agent.delete(one)).statusCode).toBe(200);
      expect((await team.owner.agent.get(base)).data.items).toEqual([]);
    });

    it('lists companies, maps clients (suggested by name and alias), refuses unknown clients; registers the callback', async () => {
      const { connBase, owner, conn } = await setup();
      const companies = await owner.agent.get(`${connBase}/companies?search=acme`);
      expect(companies.data.items).toContainEqual({ id: 'AcmeCorp', name: 'Acme Corporation', identifier: 'AcmeCorp' });
      expect(cw.seen.at(-1)!.path).toContain(`conditions=${encodeURIComponent('name like "%acme%" and deletedFlag=false')}`);
      const bad = await owner.agent.put(`${connBase}/companyMap`, { items: [{ clientId: 'nope', companyId: 'X' }] });
      expect(bad.statusCode).toBe(400);
      expect(bad.data.error.fields).toEqual({ 'items.0.clientId': PSA_MSG.unknownClient });
      await env.app.jobs.worker.runDue();
      expect(cw.callbacks).toContainEqual(expect.objectContaining({ url: conn.inboundUrl, type: 'ticket', level: 'owner', objectId: 0 }));
    });

    it('opens one ticket per alert, notes recurrences and actions, closes on resolve, says it in the timeline', async () => {
      const { owner, t, raise, connBase } = await setup();
      cw.seen.length = 0;
      const alertId = await raise('db-down', 'critical', 'Database down on db-1');
      await raise('minor', 'low');
      await settle(owner.tenantId, 1);
      expect(ticketPosts()).toHaveLength(1);
      const post = ticketPosts()[0];
      expect(post.headers.authorization).toBe(`Basic ${Buffer.from('msp+pubKEY123:privSECRET456').toString('base64')}`);
      expect(post.headers.clientid).toBe(creds.clientId);
      expect(post.body).toMatchObject({ summary: '[CRITICAL] Database down on db-1', recordType: 'ServiceTicket', board: { name: 'Alerts' }, status: { name: 'New' }, company: { identifier: 'AcmeCorp' }, priority: { name: 'Priority 1 - Emergency Response' }, externalXRef: `alertdesk:${alertId}` });
      const ticket = [...cw.tickets.values()].find((x) => x.externalXRef === `alertdesk:${alertId}`)!;
      const shown = (await owner.agent.get(`${t}/alerts/${alertId}`)).data.alert.ticket;
      expect(shown).toEqual({ number: String(ticket.id), url: `${cw.siteUrl}/v4_6_release/services/system_io/Service/fv_sr100_request.rails?service_recid=${ticket.id}&companyName=msp` });
      const list = await owner.agent.get(`${t}/alerts`);
      expect(list.data.items.find((a: { id: string }) => a.id === alertId).ticket).toEqual(shown);
      expect(list.data.items.find((a: { id: string }) => a.id !== alertId).ticket).toBeNull();

      // Two recurrences of the same dedup key: notes with the count, never a second ticket.
      await raise('db-down');
      await settle(owner.tenantId, 2);
      await raise('db-down');
      await settle(owner.tenantId, 3);
      expect(ticketPosts()).toHaveLength(1);
      expect(noteTexts(ticket.notes)).toEqual([PSA_MSG.noteRecurrence(2), PSA_MSG.noteRecurrence(3)]);

      expect((await owner.agent.post(`${t}/alerts/${alertId}/acknowledge`)).statusCode).toBe(200);
      expect((await owner.agent.post(`${t}/alerts/${alertId}/notes`, { text: 'restarting the service' })).statusCode).toBe(200);
      expect((await owner.agent.post(`${t}/alerts/${alertId}/assign`, { userId: owner.userId })).statusCode).toBe(200);
      await settle(owner.tenantId, 6);
      expect(noteTexts(ticket.notes).slice(2)).toEqual([PSA_MSG.noteAcknowledged('Olivia Owner'), PSA_MSG.noteText('Olivia Owner', 'restarting the service'), PSA_MSG.noteAssigned('Olivia Owner', 'Olivia Owner')]);

      expect((await owner.agent.post(`${t}/alerts/${alertId}/resolve`)).statusCode).toBe(200);
      await settle(owner.tenantId, 7);
      expect(noteTexts(ticket.notes).at(-1)).toBe(PSA_MSG.noteResolved('Olivia Owner'));
      expect(ticket.status).toEqual({ name: 'Closed' });
      const patch = cw.seen.find((s) => s.method === 'PATCH')!;
      expect(patch.path).toBe(`/v4_6_release/apis/3.0/service/tickets/${ticket.id}`);
      expect(patch.body).toEqual([{ op: 'replace', path: 'status/name', value: 'Closed' }]);

      const texts = await ticketTexts(owner.agent, t, alertId);
      expect(texts.sort()).toEqual([PSA_MSG.ticketClosed('ConnectWise PSA', String(ticket.id)), PSA_MSG.ticketOpened('ConnectWise PSA', String(ticket.id))].sort());
      expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: null, queueLength: 0 });
    });

    it('opens no ticket for an unmapped client without a catch-all, and says why; the catch-all company otherwise', async () => {
      const { owner, t, connBase } = await setup();
      const other = await createIntegration(owner.agent, owner.tenantId, { name: 'No client' });
      const res = await ingest(env.app, '/api/ingest/events', { title: 'Orphan', dedupKey: 'orphan', priority: 'high' }, { authorization: `Bearer ${other.key}` });
      await settle(owner.tenantId, 1);
      const detail = await owner.agent.get(`${t}/alerts/${res.data.alertId}`);
      expect(detail.data.timeline.find((e: { kind: string }) => e.kind === 'ticket').detail.text).toBe(PSA_MSG.noTicketNoClient('ConnectWise PSA'));

      const conn = (await owner.agent.get(connBase)).data;
      await owner.agent.put(connBase, { type: 'connectwise', name: conn.name, settings: conn.settings, rules: { catchAllCompanyId: 'Catchall' } });
      const before = ticketPosts().length;
      await ingest(env.app, '/api/ingest/events', { title: 'Orphan 2', dedupKey: 'orphan-2', priority: 'critical' }, { authorization: `Bearer ${other.key}` });
      await settle(owner.tenantId, 2);
      expect(ticketPosts()).toHaveLength(before + 1);
      expect(ticketPosts().at(-1)!.body.company).toEqual({ identifier: 'Catchall' });
    });

    it('retries a failing PSA with backoff, shows the error and the queue; after a lost answer finds the ticket instead of opening a second', async () => {
      const { owner, raise, connBase } = await setup();
      cw.mishaps.push('fail', 'drop');
      const alertId = await raise('flaky');
      await settle(owner.tenantId, 1);
      let conn = (await owner.agent.get(connBase)).data;
      expect(conn.lastError).toContain('answered 500');
      expect(conn.queueLength).toBe(1);
      // The retry's create is processed by the PSA, and its answer lost.
      nowMs += 6_000;
      await env.app.jobs.worker.runDue();
      conn = (await owner.agent.get(connBase)).data;
      expect(conn.lastError).toMatch(/ECONNRESET|socket hang up|cut off/);
      expect(conn.queueLength).toBe(1);
      const ref = `alertdesk:${alertId}`;
      expect([...cw.tickets.values()].filter((x) => x.externalXRef === ref)).toHaveLength(1);
      // The next try searches the PSA for our reference, finds the ticket, and does not create again.
      nowMs += 25_000;
      await env.app.jobs.worker.runDue();
      expect([...cw.tickets.values()].filter((x) => x.externalXRef === ref)).toHaveLength(1);
      expect(cw.seen.some((s) => s.method === 'GET' && s.path.includes(encodeURIComponent(`externalXRef="${ref}"`)))).toBe(true);
      conn = (await owner.agent.get(connBase)).data;
      expect(conn).toMatchObject({ lastError: null, queueLength: 0 });
      const texts = await ticketTexts(owner.agent, `/api/tenants/${owner.tenantId}`, alertId);
      expect(texts.filter((x) => x.startsWith('ConnectWise PSA ticket update failed, retrying: POST /v4_6_release/apis/3.0/service/tickets answered 500'))).toHaveLength(1);
      const ticket = await env.deps.db.selectFrom('psa_tickets').selectAll().where('alert_id', '=', alertId).executeTakeFirstOrThrow();
      expect(ticket).toMatchObject({ status: 'open', ticket_number: String([...cw.tickets.values()].find((x) => x.externalXRef === ref)!.id) });
    });

    it('a create that timed out after the PSA acted is found on the next try, never made twice', async () => {
      const { owner, raise, connBase } = await setup();
      cw.mishaps.push('hang');
      PSA_HTTP.timeoutMs = 300;
      let alertId = '';
      try {
        alertId = await raise('slow-psa');
        await settle(owner.tenantId, 1);
        expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: 'POST /v4_6_release/apis/3.0/service/tickets: no answer within 0.3 s', queueLength: 1 });
        nowMs += 6_000;
        await env.app.jobs.worker.runDue();
      } finally {
        PSA_HTTP.timeoutMs = 10_000;
      }
      expect([...cw.tickets.values()].filter((x) => x.externalXRef === `alertdesk:${alertId}`)).toHaveLength(1);
      expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: null, queueLength: 0 });
    });

    it('a note whose answer was lost is found by its reference on the retry, never posted twice; a lost close re-reads the status', async () => {
      const { owner, t, raise, connBase, resolveByKey } = await setup();
      const alertId = await raise('lost-note');
      await settle(owner.tenantId, 1);
      const ticket = [...cw.tickets.values()].find((x) => x.externalXRef === `alertdesk:${alertId}`)!;
      // The recurrence's note is stored by ConnectWise and its answer lost.
      cw.noteMishaps.push('drop');
      await raise('lost-note');
      await settle(owner.tenantId, 2);
      expect(ticket.notes).toHaveLength(1);
      expect((await owner.agent.get(connBase)).data.queueLength).toBe(1);
      nowMs += 6_000;
      await env.app.jobs.worker.runDue();
      expect(noteTexts(ticket.notes)).toEqual([PSA_MSG.noteRecurrence(2)]);
      const noteAction = (await psaActions(env, owner.tenantId)).find((a) => a.action === 'note')!;
      expect(ticket.notes[0].endsWith(`\n\nAlertdesk ref ${noteAction.id}`)).toBe(true);
      const listed = cw.seen.filter((x) => x.method === 'GET' && x.path.startsWith(`/v4_6_release/apis/3.0/service/tickets/${ticket.id}/notes`));
      expect(listed.map((x) => x.path)).toEqual([`/v4_6_release/apis/3.0/service/tickets/${ticket.id}/notes?orderBy=id%20desc&pageSize=1000&fields=id,text`]);
      expect(listed[0].headers).toMatchObject({ authorization: `Basic ${Buffer.from('msp+pubKEY123:privSECRET456').toString('base64')}`, clientid: creds.clientId });
      expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: null, queueLength: 0 });

      // Resolved: the resolution note goes, the status change is made and its answer lost. A status change is the same
      // whenever made: the retry re-reads the ticket, finds it closed and its note there, and sends neither again.
      cw.statusMishaps.push('drop');
      await resolveByKey('lost-note');
      await settle(owner.tenantId, 3);
      expect(ticket.status).toEqual({ name: 'Closed' });
      expect((await owner.agent.get(connBase)).data.queueLength).toBe(1);
      const reads = cw.seen.length;
      nowMs += 6_000;
      await env.app.jobs.worker.runDue();
      expect(cw.seen.slice(reads).map((x) => `${x.method} ${x.path.split('?')[0]}`)).toEqual([`GET /v4_6_release/apis/3.0/service/tickets/${ticket.id}/notes`, `GET /v4_6_release/apis/3.0/service/tickets/${ticket.id}`]);
      expect(cw.statusChanges.filter((c) => c.id === ticket.id)).toEqual([{ id: ticket.id, status: 'Closed' }]);
      expect(noteTexts(ticket.notes)).toEqual([PSA_MSG.noteRecurrence(2), PSA_MSG.noteResolved('Prometheus')]);
      expect((await owner.agent.get(connBase)).data).toMatchObject({ lastError: null, queueLength: 0 });
      expect((await ticketTexts(owner.agent, t, alertId)).filter((x) => x === PSA_MSG.ticketClosed('ConnectWise PSA', String(ticket.id)))).toHaveLength(1);
    });

    it('resolves the alert when its ticket is closed in ConnectWise (callback re-read); a bad signature is 404', async () => {
      const { owner, t, raise, conn } = await setup();
      const alertId = await raise('closing-in-psa');
      await settle(owner.tenantId, 1);
      const ticket = [...cw.tickets.values()].find((x) => x.externalXRef === `alertdesk:${alertId}`)!;
      const inbound = new URL(conn.inboundUrl).pathname;
      // A notice before the ticket is closed changes nothing (the ticket is read back, not the notice trusted).
      expect((await ingest(env.app, inbound, { Type: 'ticket', Action: 'updated', ID: ticket.id })).statusCode).toBe(200);
      expect((await owner.agent.get(`${t}/alerts/${alertId}`)).data.alert.status).toBe('new');
      ticket.status = { name: 'Closed' };
      expect((await ingest(env.app, `${inbound.slice(0, -4)}AAAA`, { ID: ticket.id })).statusCode).toBe(404);
      nowMs += 1000;
      expect((await ingest(env.app, inbound, { Type: 'ticket', Action: 'updated', ID: ticket.id })).statusCode).toBe(200);
      const detail = (await owner.agent.get(`${t}/alerts/${alertId}`)).data;
      expect(detail.alert.status).toBe('resolved');
      expect(detail.resolvedByName).toBe('ConnectWise PSA');
      expect(detail.timeline.filter((e: { kind: string }) => e.kind === 'ticket').at(-1).detail.text).toBe(PSA_MSG.closedInPsaResolved('ConnectWise PSA', String(ticket.id)));
      // The resolution does not close the ticket a second time.
      await new Promise((r) => setTimeout(r, 50));
      await env.app.jobs.worker.runDue();
      expect(ticket.notes).toEqual([]);
    });
  });
}
