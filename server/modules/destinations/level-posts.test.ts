import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESTINATION_MSG } from '../../../contract/destinations.ts';
import type { Agent } from '../../test/test-app.ts';
import { MINUTE, pagingHarness } from '../../test/paging.ts';
import { registerOwner } from '../../test/factories.ts';
import { BOT_TOKEN, slackStandIn, verifyStandardWebhook, workflowsReceiver } from '../../test/destination-stand-ins.ts';
import { receiver } from '../../test/receiver.ts';
import { testDatabases } from '../../test/test-app.ts';

/**
 * Issue 29: an escalation level posts to the destinations it names ("post to #noc-globex at level 1") through the
 * one delivery path, and destinations subscribed to `alert.escalated` hear each level after the first. Real sweeps on
 * the harness's clock; Slack, Teams Workflows and a webhook receiver stood in for locally.
 */
for (const db of testDatabases()) {
  describe(`escalation levels that post to destinations [${db.name}]`, () => {
    let slack: Awaited<ReturnType<typeof slackStandIn>>;
    let teams: Awaited<ReturnType<typeof workflowsReceiver>>;
    let rx: Awaited<ReturnType<typeof receiver>>;
    // The stand-ins listen before the app starts: this beforeAll runs before the harness's, which reads `config`.
    const config = { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] }, slack: { apiUrl: '', signingSecret: 'x'.repeat(32) } };
    beforeAll(async () => {
      slack = await slackStandIn();
      teams = await workflowsReceiver();
      rx = await receiver();
      config.slack.apiUrl = slack.apiUrl;
    });
    const h = pagingHarness(db, config);
    afterAll(async () => {
      await slack.close();
      await teams.close();
      await rx.close();
    });

    const deliveries = (tenantId: string) => h.env.deps.db.selectFrom('destination_deliveries').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();
    const add = async (agent: Agent, tenantId: string, body: Record<string, unknown>) => {
      const res = await agent.post(`/api/tenants/${tenantId}/destinations`, { events: ['alert.resolved'], ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.data as { id: string; secret?: string };
    };
    /** The harness's policy with destinations on its levels. */
    const policyBody = (s: Awaited<ReturnType<typeof h.setup>>, levels: { level_1?: string[]; level_2?: string[]; level_3?: string[] }) => ({
      name: 'Night policy',
      isDefault: true,
      escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
      level_1: { userIds: [s.owner.userId], notificationChannels: ['email'], destinationIds: levels.level_1 ?? [] },
      level_2: { userIds: [s.second.userId], timeAfterPrevious: 5, notificationChannels: ['email'], destinationIds: levels.level_2 ?? [] },
      level_3: { userIds: [s.third.userId], timeAfterPrevious: 5, notificationChannels: ['email'], destinationIds: levels.level_3 ?? [] },
    });
    /** Runs due work until nothing more is due now (a level fired in one pass is sent in the next). */
    const settle = async () => {
      for (let i = 0; i < 3; i++) await h.advance(0);
    };

    it('posts a level to its Slack, Teams and webhook destinations once when it fires, in the timeline; subscribers hear later levels', async () => {
      const s = await h.setup();
      const { owner } = s;
      const tenantId = owner.tenantId;
      const slackDest = await add(owner.agent, tenantId, { type: 'slack', name: 'NOC Globex', channel: '#noc-globex', botToken: BOT_TOKEN });
      const teamsDest = await add(owner.agent, tenantId, { type: 'teams', name: 'NOC Teams', url: teams.url });
      const hook = await add(owner.agent, tenantId, { name: 'PSA bridge', url: rx.url });
      // Subscribed to the event only: hears level 2 and 3, not level 1.
      const listener = await add(owner.agent, tenantId, { name: 'Escalation feed', url: `${rx.url}?feed`, events: ['alert.escalated'] });
      const saved = await owner.agent.put(`/api/tenants/${tenantId}/escalationPolicies/${s.policyId}`, policyBody(s, { level_1: [slackDest.id, teamsDest.id], level_2: [hook.id] }));
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.data.level_1.destinationIds).toEqual([slackDest.id, teamsDest.id]);
      expect(saved.data.level_2.destinationIds).toEqual([hook.id]);
      slack.calls.length = 0;
      teams.got.length = 0;
      rx.got.length = 0;

      const alertId = await h.trigger(s.integration.key, { title: 'Core switch down' });
      await settle();
      expect(slack.calls.filter((c) => c.method === 'chat.postMessage').map((c) => c.args.channel)).toEqual(['#noc-globex']);
      expect(teams.got).toHaveLength(1);
      expect(teams.got[0].problems).toEqual([]);
      expect(rx.got).toHaveLength(0);
      const detail = await h.detail(owner.agent, tenantId, alertId);
      const posted = detail.timeline.filter((e: { kind: string }) => e.kind === 'posted');
      expect(posted.map((e: { detail: { destination: string; level: number } }) => [e.detail.destination, e.detail.level]).sort()).toEqual([
        ['NOC Globex', 1],
        ['NOC Teams', 1],
      ]);

      await h.advance(5 * MINUTE);
      await settle();
      // Level 2: the webhook it names and the subscriber, each once, signed; the chats only once in all.
      const hookGot = rx.got.filter((g) => g.path === '/hook');
      const feedGot = rx.got.filter((g) => g.path === '/hook?feed');
      expect([hookGot.length, feedGot.length]).toEqual([1, 1]);
      const body = JSON.parse(hookGot[0].body);
      expect(body).toMatchObject({ type: 'alert.escalated', data: { alert: { id: alertId, title: 'Core switch down', status: 'new' }, escalation: { level: 2, policyName: 'Night policy' } } });
      expect(verifyStandardWebhook(hook.secret!, hookGot[0].headers, hookGot[0].body, Math.floor(h.nowMs / 1000))).toBe(true);
      expect(verifyStandardWebhook(listener.secret!, feedGot[0].headers, feedGot[0].body, Math.floor(h.nowMs / 1000))).toBe(true);
      expect(slack.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
      expect(teams.got).toHaveLength(1);
      const log = await owner.agent.get(`/api/tenants/${tenantId}/destinations/${hook.id}/deliveries`);
      expect(log.data.items.map((d: { eventType: string; status: string }) => [d.eventType, d.status])).toEqual([['alert.escalated', 'succeeded']]);
      // A level's webhook posts are in the timeline too (other webhook deliveries are not).
      const after = (await h.detail(owner.agent, tenantId, alertId)).timeline.filter((e: { kind: string }) => e.kind === 'posted');
      expect(after.map((e: { detail: { destination: string; type: string; level: number } }) => [e.detail.destination, e.detail.type, e.detail.level]).sort()).toEqual([
        ['Escalation feed', 'webhook', 2],
        ['NOC Globex', 'slack', 1],
        ['NOC Teams', 'teams', 1],
        ['PSA bridge', 'webhook', 2],
      ]);

      // Level 3 names nothing: only the subscriber hears it.
      await h.advance(5 * MINUTE);
      await settle();
      expect(rx.got.filter((g) => g.path === '/hook')).toHaveLength(1);
      expect(rx.got.filter((g) => g.path === '/hook?feed').map((g) => JSON.parse(g.body).data.escalation.level)).toEqual([2, 3]);
    });

    it('posts nothing for a level the alert was acknowledged before', async () => {
      const s = await h.setup();
      const tenantId = s.owner.tenantId;
      const hook = await add(s.owner.agent, tenantId, { name: 'Level 2 hook', url: rx.url });
      expect((await s.owner.agent.put(`/api/tenants/${tenantId}/escalationPolicies/${s.policyId}`, policyBody(s, { level_2: [hook.id] }))).statusCode).toBe(200);
      rx.got.length = 0;
      const alertId = await h.trigger(s.integration.key);
      await settle();
      expect((await s.owner.agent.post(`/api/tenants/${tenantId}/alerts/${alertId}/acknowledge`)).statusCode).toBe(200);
      await h.advance(10 * MINUTE);
      await settle();
      expect(rx.got).toHaveLength(0);
      expect(await deliveries(tenantId)).toHaveLength(0);
    });

    it('does not send a retry of a level post once the alert was acknowledged', async () => {
      const s = await h.setup();
      const tenantId = s.owner.tenantId;
      const hook = await add(s.owner.agent, tenantId, { name: 'Flaky hook', url: rx.url });
      expect((await s.owner.agent.put(`/api/tenants/${tenantId}/escalationPolicies/${s.policyId}`, policyBody(s, { level_1: [hook.id] }))).statusCode).toBe(200);
      rx.got.length = 0;
      rx.answers.push({ status: 503, body: 'busy' });
      const alertId = await h.trigger(s.integration.key);
      await settle();
      expect(rx.got).toHaveLength(1);
      expect((await s.owner.agent.post(`/api/tenants/${tenantId}/alerts/${alertId}/acknowledge`)).statusCode).toBe(200);
      await h.advance(5_000);
      await settle();
      expect(rx.got).toHaveLength(1);
      const [d] = await deliveries(tenantId);
      expect(d).toMatchObject({ event_type: 'alert.escalated', status: 'failed', attempts: 1, error: DESTINATION_MSG.notSentAcknowledged });
    });

    it("refuses another tenant's or a deleted destination at save, naming the level's field", async () => {
      const s = await h.setup();
      const tenantId = s.owner.tenantId;
      const mine = await add(s.owner.agent, tenantId, { name: 'Mine', url: rx.url });
      const other = await registerOwner(h.env.app, { tenantName: 'Elsewhere' });
      const theirs = await add(other.agent, other.tenantId, { name: 'Theirs', url: rx.url });
      const put = (levels: Parameters<typeof policyBody>[1]) => s.owner.agent.put(`/api/tenants/${tenantId}/escalationPolicies/${s.policyId}`, policyBody(s, levels));
      const refused = await put({ level_1: [mine.id], level_2: [theirs.id] });
      expect(refused.statusCode).toBe(400);
      expect(refused.data.error.fields).toEqual({ 'level_2.destinationIds': DESTINATION_MSG.levelDestinationsUnknown });
      const created = await s.owner.agent.post(`/api/tenants/${tenantId}/escalationPolicies`, { ...policyBody(s, { level_3: ['no-such-destination'] }), name: 'Other', isDefault: false });
      expect(created.statusCode).toBe(400);
      expect(created.data.error.fields).toEqual({ 'level_3.destinationIds': DESTINATION_MSG.levelDestinationsUnknown });
      // A plain member is refused as before (403), whatever the ids; another tenant's owner gets 404.
      expect((await s.second.agent.put(`/api/tenants/${tenantId}/escalationPolicies/${s.policyId}`, policyBody(s, { level_2: [theirs.id] }))).statusCode).toBe(403);
      expect((await other.agent.put(`/api/tenants/${tenantId}/escalationPolicies/${s.policyId}`, policyBody(s, { level_2: [theirs.id] }))).statusCode).toBe(404);

      expect((await put({ level_1: [mine.id] })).statusCode).toBe(200);
      // Deleted afterwards: the policy still names it, the level skips it when it fires, and a save refuses it.
      expect((await s.owner.agent.delete(`/api/tenants/${tenantId}/destinations/${mine.id}`)).statusCode).toBe(200);
      rx.got.length = 0;
      await h.trigger(s.integration.key);
      await settle();
      expect(rx.got).toHaveLength(0);
      expect((await put({ level_1: [mine.id] })).data.error.fields).toEqual({ 'level_1.destinationIds': DESTINATION_MSG.levelDestinationsUnknown });
    });
  });
}
