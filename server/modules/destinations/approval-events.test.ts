import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, registerOwner } from '../../test/factories.ts';
import { verifyStandardWebhook, workflowsReceiver } from '../../test/destination-stand-ins.ts';
import { receiver } from '../../test/receiver.ts';
import { startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';

const HOUR = 3600_000;

/** Issue 29: approval requests made and decided reach the webhooks subscribed to them, signed. */
for (const db of testDatabases()) {
  describe(`approval events to destinations [${db.name}]`, () => {
    let env: TestEnv & { close(): Promise<void> };
    let rx: Awaited<ReturnType<typeof receiver>>;
    let nowMs = Date.now();
    beforeAll(async () => {
      rx = await receiver();
      env = await startTestApp(db, { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } }, undefined, { clock: () => new Date(nowMs) });
    });
    afterAll(async () => {
      await env.close();
      await rx.close();
    });

    async function setup() {
      const owner = await registerOwner(env.app, { name: 'Olive Owner' });
      const approver = await addMember(env.deps, env.app, owner.tenantId);
      const requester = await addMember(env.deps, env.app, owner.tenantId);
      const policy = await owner.agent.post(`/api/tenants/${owner.tenantId}/approvalPolicies`, {
        name: 'Access',
        description: 'Who signs off on access',
        type: 'access',
        levels: [{ level: 'manager', approvers: [approver.userId], timeToExpire: 24 }],
        autoRejectOnExpire: false,
      });
      expect(policy.statusCode, policy.body).toBe(201);
      const hook = await owner.agent.post(`/api/tenants/${owner.tenantId}/destinations`, { name: 'Approvals feed', url: rx.url, events: ['approval.requested', 'approval.decided'], filter: { priorities: ['critical'] } });
      expect(hook.statusCode).toBe(201);
      // Subscribed to alerts only: hears no approval.
      await owner.agent.post(`/api/tenants/${owner.tenantId}/destinations`, { name: 'Alerts only', url: `${rx.url}?alerts`, events: ['alert.triggered'] });
      await env.app.jobs.worker.runDue();
      rx.got.length = 0;
      const request = async (title: string) => {
        const res = await requester.agent.post(`/api/tenants/${owner.tenantId}/approvalRequests`, { title, description: 'For the migration', metadata: {} });
        expect(res.statusCode, res.body).toBe(201);
        return res.data.id as string;
      };
      return { owner, approver, requester, secret: hook.data.secret as string, request };
    }
    const received = () => rx.got.map((g) => ({ path: g.path, ...JSON.parse(g.body) }));

    it('sends approval.requested when a request is made and approval.decided with the decider when it is approved or rejected', async () => {
      const { owner, approver, requester, secret, request } = await setup();
      const id = await request('VPN access for Acme');
      await env.app.jobs.worker.runDue();
      expect(received()).toMatchObject([
        { path: '/hook', type: 'approval.requested', data: { approval: { id, type: 'access', title: 'VPN access for Acme', status: 'pending', requester: { id: requester.userId }, decider: null } } },
      ]);
      expect(verifyStandardWebhook(secret, rx.got[0].headers, rx.got[0].body, Math.floor(nowMs / 1000))).toBe(true);

      expect((await approver.agent.post(`/api/tenants/${owner.tenantId}/approvalRequests/${id}/approve`, { comment: 'Fine' })).statusCode).toBe(200);
      await env.app.jobs.worker.runDue();
      const decided = received()[1];
      expect(decided).toMatchObject({ type: 'approval.decided', data: { approval: { id, status: 'approved', decider: { id: approver.userId } } } });
      expect(decided.data.approval.decider.name).toBeTruthy();
      expect(verifyStandardWebhook(secret, rx.got[1].headers, rx.got[1].body, Math.floor(nowMs / 1000))).toBe(true);

      const other = await request('Firewall change');
      await env.app.jobs.worker.runDue();
      expect((await approver.agent.post(`/api/tenants/${owner.tenantId}/approvalRequests/${other}/reject`, { reason: 'Not during the freeze' })).statusCode).toBe(200);
      await env.app.jobs.worker.runDue();
      expect(received().slice(2).map((p) => [p.type, p.data.approval.status])).toEqual([
        ['approval.requested', 'pending'],
        ['approval.decided', 'rejected'],
      ]);
      expect(rx.got.every((g) => g.path === '/hook')).toBe(true);
    });

    it('sends approval.decided without a decider when a request expires, and nothing when it is cancelled', async () => {
      const { owner, requester, request } = await setup();
      const cancelled = await request('Cancelled one');
      expect((await requester.agent.post(`/api/tenants/${owner.tenantId}/approvalRequests/${cancelled}/cancel`)).statusCode).toBe(200);
      const expiring = await request('Expiring one');
      nowMs += 25 * HOUR;
      await env.app.jobs.worker.runDue();
      await env.app.jobs.worker.runDue();
      // Sent side by side (PostgreSQL runs jobs in two lanes): in no particular order.
      expect(received().map((p) => [p.type, p.data.approval.title, p.data.approval.status, p.data.approval.decider]).sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`))).toEqual([
        ['approval.decided', 'Expiring one', 'expired', null],
        ['approval.requested', 'Cancelled one', 'pending', null],
        ['approval.requested', 'Expiring one', 'pending', null],
      ]);
      expect(received().find((p) => p.type === 'approval.decided')!.data.approval.id).toBe(expiring);
    });
    it('posts an approval event to a Teams channel as a card of its own', async () => {
      const teams = await workflowsReceiver();
      try {
        const { owner, request } = await setup();
        const dest = await owner.agent.post(`/api/tenants/${owner.tenantId}/destinations`, { type: 'teams', name: 'Approvals channel', url: teams.url, events: ['approval.requested'] });
        expect(dest.statusCode, dest.body).toBe(201);
        await request('Replace the core switch');
        await env.app.jobs.worker.runDue();
        expect(teams.got).toHaveLength(1);
        expect(teams.got[0].problems).toEqual([]);
        const texts = teams.got[0].body.attachments[0].content.body.map((b: { text: string }) => b.text);
        expect(texts[0]).toBe('Approval requested');
        expect(texts[1]).toMatch(/^Replace the core switch: requested by /);
      } finally {
        await teams.close();
      }
    });
  });
}
