import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESTINATION_MSG, SLACK_ERRORS } from '../../../contract/destinations.ts';
import { alertTenant } from '../../test/alerts.ts';
import { registerOwner } from '../../test/factories.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { BOT_TOKEN, SIGNING_SECRET, slackStandIn } from '../../test/destination-stand-ins.ts';
import { until } from '../../test/receiver.ts';

for (const db of testDatabases()) {
  describe(`Slack destinations [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let slack: Awaited<ReturnType<typeof slackStandIn>>;
    let nowMs = Date.now();
    beforeAll(async () => {
      slack = await slackStandIn();
      env = await startTestApp(db, { slack: { apiUrl: slack.apiUrl, signingSecret: SIGNING_SECRET } }, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await slack.close();
    });
    const deliveries = (tenantId: string) => env.deps.db.selectFrom('destination_deliveries').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();

    /** Posts an interaction the way Slack does: a form with `payload`, signed with the app's signing secret. */
    const interact = (payload: object, opts: { secret?: string; ts?: number } = {}) => {
      const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
      const ts = String(opts.ts ?? Math.floor(nowMs / 1000));
      const sig = `v0=${createHmac('sha256', opts.secret ?? SIGNING_SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
      return env.app.inject({ method: 'POST', url: '/api/slack/interactions', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': ts, 'x-slack-signature': sig }, payload: body });
    };
    const click = (actionId: string, value: string, user = 'U0JANE') => ({
      type: 'block_actions',
      user: { id: user, username: 'jane', team_id: 'T0ACME' },
      team: { id: 'T0ACME', domain: 'acme' },
      channel: { id: 'C0NOC1234', name: 'noc-globex' },
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0NOC1234' },
      response_url: 'https://hooks.slack.com/actions/T0ACME/1/abc',
      actions: [{ type: 'button', action_id: actionId, block_id: 'alertdesk_actions', value, action_ts: '1700000002.1' }],
    });

    async function setup() {
      const t = await alertTenant(env.app);
      const base = `/api/tenants/${t.owner.tenantId}/destinations`;
      const res = await t.owner.agent.post(base, { type: 'slack', name: '#noc-globex', channel: '#noc-globex', botToken: BOT_TOKEN, events: ['alert.triggered'] });
      expect(res.statusCode).toBe(201);
      return { ...t, dest: res.data, destBase: `${base}/${res.data.id}` };
    }

    it('validates a Slack destination; the bot token is stored encrypted and never answered', async () => {
      const { owner } = await alertTenant(env.app);
      const base = `/api/tenants/${owner.tenantId}/destinations`;
      const bad = await owner.agent.post(base, { type: 'slack', name: 'x', events: ['alert.triggered'] });
      expect([bad.statusCode, bad.data.error.fields]).toEqual([400, { channel: DESTINATION_MSG.channelRequired }]);
      const badToken = await owner.agent.post(base, { type: 'slack', name: 'x', channel: 'C0NOC1234', botToken: 'xoxp-user-token', events: ['alert.triggered'] });
      expect(badToken.data.error.fields).toEqual({ botToken: DESTINATION_MSG.botTokenInvalid });
      const noToken = await owner.agent.post(base, { type: 'slack', name: 'x', channel: 'C0NOC1234', events: ['alert.triggered'] });
      expect(noToken.data.error.fields).toEqual({ botToken: DESTINATION_MSG.botTokenRequired });
      const ok = await owner.agent.post(base, { type: 'slack', name: 'NOC', channel: 'C0NOC1234', botToken: BOT_TOKEN, events: ['alert.triggered'] });
      expect(ok.statusCode).toBe(201);
      expect(ok.data).toMatchObject({ type: 'slack', channel: 'C0NOC1234', url: null, secretPrefix: null });
      expect(JSON.stringify(ok.data)).not.toContain(BOT_TOKEN);
      expect(JSON.stringify((await owner.agent.get(base)).data)).not.toContain('xoxb');
      const row = await env.deps.db.selectFrom('destinations').selectAll().where('id', '=', ok.data.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(BOT_TOKEN);
      // An update without a token keeps it; the type stays.
      const put = await owner.agent.put(`${base}/${ok.data.id}`, { type: 'slack', name: 'NOC 2', channel: '#noc-globex', events: ['alert.triggered'] });
      expect(put.data).toMatchObject({ name: 'NOC 2', channel: '#noc-globex' });
      slack.calls.length = 0;
      expect((await owner.agent.post(`${base}/${ok.data.id}/test`)).data).toMatchObject({ status: 'succeeded', responseStatus: 200 });
      expect(slack.calls[0]).toMatchObject({ method: 'chat.postMessage', auth: `Bearer ${BOT_TOKEN}`, args: { channel: '#noc-globex' } });
      const retype = await owner.agent.put(`${base}/${ok.data.id}`, { type: 'webhook', name: 'x', url: 'https://example.com/h', events: ['alert.triggered'] });
      expect(retype.data.error.fields).toEqual({ type: DESTINATION_MSG.typeFixed });
    });

    it('posts Block Kit with buttons, links a Slack user once, acknowledges from Slack and updates the message on every change', async () => {
      const { owner, raise, base, dest } = await setup();
      slack.calls.length = 0;
      const alertId = await raise('disk-full', 'high', 'Disk 95% full on db-1');
      await until(async () => (await deliveries(owner.tenantId)).length === 1);
      await env.app.jobs.worker.runDue();
      expect((await deliveries(owner.tenantId))[0]).toMatchObject({ status: 'succeeded', response_status: 200 });
      const post = slack.calls.find((c) => c.method === 'chat.postMessage')!;
      expect(post.auth).toBe(`Bearer ${BOT_TOKEN}`);
      expect(post.args.channel).toBe('#noc-globex');
      expect(post.args.text).toBe('[High] Disk 95% full on db-1 (New)');
      const blocks = post.args.attachments[0].blocks;
      expect(post.args.attachments[0].color).toBe('#e8590c');
      const buttons = blocks.find((b: any) => b.type === 'actions').elements;
      expect(buttons.map((b: any) => [b.text.text, b.action_id])).toEqual([['Acknowledge', 'alertdesk_acknowledge'], ['Resolve', 'alertdesk_resolve'], ['Open', 'alertdesk_open']]);
      expect(buttons[0].value).toBe(`${dest.id}:${alertId}`);
      expect(buttons[2].url).toBe(`http://localhost:3000/app/dashboard?alert=${alertId}`);
      // A repeat of the alert changes nothing the message shows: no update.
      expect(await raise('disk-full', 'high', 'Disk 95% full on db-1')).toBe(alertId);
      await new Promise((r) => setTimeout(r, 300));
      expect(await deliveries(owner.tenantId)).toHaveLength(1);

      // A wrong signature, another secret or a stale timestamp: 401, nothing changes.
      const ack = click('alertdesk_acknowledge', `${dest.id}:${alertId}`);
      expect((await interact(ack, { secret: 'not-the-secret' })).statusCode).toBe(401);
      expect((await interact(ack, { ts: Math.floor(nowMs / 1000) - 301 })).statusCode).toBe(401);
      const body = `payload=${encodeURIComponent(JSON.stringify(ack))}`;
      const unsigned = await env.app.inject({ method: 'POST', url: '/api/slack/interactions', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': String(Math.floor(nowMs / 1000)) }, payload: body });
      expect(unsigned.statusCode).toBe(401);
      expect((await owner.agent.get(`${base}/${alertId}`)).data.alert.status).toBe('new');

      // Not linked yet: an ephemeral answer with a one-time link; opening it while signed in links the Slack user.
      slack.calls.length = 0;
      const unlinked = await interact(ack);
      expect(unlinked.statusCode).toBe(200);
      const text = JSON.parse(unlinked.body).text as string;
      const link = /http:\/\/localhost:3000\/app\/chat\/([A-Za-z0-9_-]{43})/.exec(text)![1];
      expect(JSON.parse(unlinked.body)).toEqual({ response_type: 'ephemeral', replace_original: false, text: DESTINATION_MSG.slackLinkPrompt(`http://localhost:3000/app/chat/${link}`) });
      // Posted too, after the click was answered (Slack wants the answer within 3 seconds).
      await expect.poll(() => slack.calls).toEqual([{ method: 'chat.postEphemeral', auth: `Bearer ${BOT_TOKEN}`, args: { channel: 'C0NOC1234', user: 'U0JANE', text } }]);
      expect((await owner.agent.get(`${base}/${alertId}`)).data.alert.status).toBe('new');
      expect((await env.app.inject({ method: 'GET', url: `/api/chat-links/${link}` })).json()).toMatchObject({ kind: 'slack.link', usable: true });
      const stranger = await registerOwner(env.app);
      expect((await stranger.agent.post(`/api/chat-links/${link}`)).statusCode).toBe(404);
      expect((await owner.agent.post(`/api/chat-links/${link}`)).data).toEqual({ message: DESTINATION_MSG.linkedDone, alertId: null });
      expect((await owner.agent.post(`/api/chat-links/${link}`)).statusCode).toBe(409);

      // Linked: the click acknowledges as Olivia, from Slack; the message is updated in place.
      slack.calls.length = 0;
      const acked = await interact(ack);
      expect([acked.statusCode, acked.body]).toEqual([200, '']);
      const detail = (await owner.agent.get(`${base}/${alertId}`)).data;
      expect(detail.alert.status).toBe('acknowledged');
      expect(detail.timeline.find((e: any) => e.kind === 'acknowledged')).toMatchObject({ actorName: 'Olivia Owner', detail: { via: 'Slack' } });
      await until(async () => (await deliveries(owner.tenantId)).length === 2);
      await env.app.jobs.worker.runDue();
      const update = slack.calls.find((c) => c.method === 'chat.update')!;
      expect(update.auth).toBe(`Bearer ${BOT_TOKEN}`);
      const remembered = await env.deps.db.selectFrom('slack_messages').selectAll().where('alert_id', '=', alertId).executeTakeFirstOrThrow();
      // The first post is in the alert's timeline, once: an update is the same message.
      const posts = (await owner.agent.get(`${base}/${alertId}`)).data.timeline.filter((e: any) => e.kind === 'posted');
      expect(posts).toHaveLength(1);
      expect(posts[0]).toMatchObject({ detail: { type: 'slack', event: 'alert.triggered' } });
      expect(remembered).toMatchObject({ tenant_id: owner.tenantId, destination_id: dest.id, channel: 'C0NOC1234' });
      expect(update.args).toMatchObject({ channel: 'C0NOC1234', ts: remembered.ts, text: '[High] Disk 95% full on db-1 (Acknowledged)' });
      expect(slack.messages.get(update.args.ts)).toBe('[High] Disk 95% full on db-1 (Acknowledged)');
      const updatedButtons = update.args.attachments[0].blocks.find((b: any) => b.type === 'actions').elements.map((b: any) => b.text.text);
      expect(updatedButtons).toEqual(['Resolve', 'Open']);
      expect(JSON.stringify(update.args.attachments)).toContain('Acknowledged from Slack by Olivia Owner');
      // A second click on Acknowledge: said to the clicker alone.
      const twice = await interact(ack);
      expect(JSON.parse(twice.body)).toMatchObject({ response_type: 'ephemeral' });

      // Resolved on the dashboard: the Slack message follows.
      slack.calls.length = 0;
      expect((await owner.agent.post(`${base}/${alertId}/resolve`)).statusCode).toBe(200);
      await until(async () => (await deliveries(owner.tenantId)).length === 3);
      await env.app.jobs.worker.runDue();
      expect(slack.calls.map((c) => [c.method, c.args.text])).toEqual([['chat.update', '[High] Disk 95% full on db-1 (Resolved)']]);
      // Written at the same moment of the test's clock: in no particular order.
      expect((await deliveries(owner.tenantId)).map((d) => [d.event_type, d.status]).sort()).toEqual([
        ['alert.acknowledged', 'succeeded'],
        ['alert.resolved', 'succeeded'],
        ['alert.triggered', 'succeeded'],
      ]);
    });

    it('records Slack errors clearly, honours Retry-After on ratelimited, and refuses another tenant', async () => {
      const { owner, destBase, dest, raise } = await setup();
      slack.queued.push({ status: 200, body: { ok: false, error: 'channel_not_found' } });
      let test = await owner.agent.post(`${destBase}/test`);
      expect(test.data).toMatchObject({ status: 'failed', attempts: 1, error: `channel_not_found: ${SLACK_ERRORS.channel_not_found}` });
      expect(test.data.responseExcerpt).toBe('{"ok":false,"error":"channel_not_found"}');
      slack.queued.push({ status: 200, body: { ok: false, error: 'invalid_auth' } });
      test = await owner.agent.post(`${destBase}/test`);
      expect(test.data).toMatchObject({ status: 'failed', error: `invalid_auth: ${SLACK_ERRORS.invalid_auth}` });
      // A token Slack refuses will never work again: the destination is disabled at once and the owners are told.
      const listed = async () => (await owner.agent.get(`/api/tenants/${owner.tenantId}/destinations`)).data.items.find((d: any) => d.id === dest.id);
      expect(await listed()).toMatchObject({ enabled: false, disabledReason: DESTINATION_MSG.disabledSlackToken });
      const told = env.mailer.sent.filter((m) => m.subject === DESTINATION_MSG.disabledMailSubject('#noc-globex') && m.to === owner.email);
      expect(told).toHaveLength(1);
      expect(told[0].text).toContain(DESTINATION_MSG.slackTokenWhy);
      // Turned on again (the token kept: a new one would be pasted here), it is used again.
      const on = await owner.agent.put(destBase, { type: 'slack', name: '#noc-globex', channel: '#noc-globex', events: ['alert.triggered'], enabled: true });
      expect([on.statusCode, on.data.enabled]).toEqual([200, true]);
      slack.queued.push({ status: 429, headers: { 'retry-after': '900' }, body: { ok: false, error: 'ratelimited' } });
      test = await owner.agent.post(`${destBase}/test`);
      expect(test.data).toMatchObject({ status: 'pending', responseStatus: 429, error: SLACK_ERRORS.ratelimited });
      expect(Date.parse(test.data.nextAttemptAt) - nowMs).toBe(900_000);
      nowMs += 900_000;
      await env.app.jobs.worker.runDue();
      const log = (await owner.agent.get(`${destBase}/deliveries`)).data.items;
      expect(log.find((d: any) => d.id === test.data.id)).toMatchObject({ status: 'succeeded', attempts: 2, responseStatus: 200 });

      // Another tenant's alert behind this destination's button, another tenant's routes: 404.
      const other = await alertTenant(env.app);
      const theirAlert = await other.raise('theirs');
      const linkRow = { id: 'l-1', tenant_id: owner.tenantId, slack_team_id: 'T0ACME', slack_user_id: 'U0BOB', user_id: owner.userId, created_at: new Date().toISOString() };
      await env.deps.db.insertInto('slack_user_links').values(linkRow).execute();
      const cross = await interact(click('alertdesk_resolve', `${dest.id}:${theirAlert}`, 'U0BOB'));
      expect(cross.statusCode).toBe(404);
      expect((await other.owner.agent.get(`${other.base}/${theirAlert}`)).data.alert.status).toBe('new');
      expect((await interact(click('alertdesk_resolve', `nope:${theirAlert}`, 'U0BOB'))).statusCode).toBe(404);
      for (const [method, url] of [['PUT', `/api/tenants/${other.owner.tenantId}/destinations/${dest.id}`], ['POST', `${destBase}/test`], ['DELETE', destBase]] as const) {
        const res = await other.owner.agent.request(method, url, method === 'PUT' ? { type: 'slack', name: 'x', channel: 'C0NOC1234', events: ['alert.triggered'] } : undefined);
        expect([method, url, res.statusCode]).toEqual([method, url, 404]);
      }
      // Resolve as a linked member works on its own tenant's alert.
      const mine = await raise('mine');
      expect((await interact(click('alertdesk_resolve', `${dest.id}:${mine}`, 'U0BOB'))).statusCode).toBe(200);
      expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/${mine}`)).data.alert.status).toBe('resolved');
    });
  });
}
