import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPROVAL_MSG, ApprovalPolicyInput } from '../../../contract/approvals.ts';
import { Agent, startTestApp, testDatabases } from '../../test/test-app.ts';
import { addMember, registerOwner, superAdmin } from '../../test/factories.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import type { BusMessage } from '../../events/alert-bus.ts';

const HOUR = 3600_000;

describe('approval policy input (pure)', () => {
  it('takes the defaults of spec section 9 and keeps levels in the order manager, director, executive', () => {
    const parsed = ApprovalPolicyInput.parse({
      name: 'Spend',
      description: 'Money',
      levels: [
        { level: 'director', approvers: ['b', 'b'] },
        { level: 'manager', approvers: ['a'], timeToExpire: '12' },
      ],
    });
    expect(parsed).toEqual({
      name: 'Spend',
      description: 'Money',
      type: 'access',
      levels: [
        { level: 'manager', approvers: ['a'], timeToExpire: 12 },
        { level: 'director', approvers: ['b'], timeToExpire: 48 },
      ],
      autoRejectOnExpire: true,
      notifyOnCreate: true,
      notifyOnUpdate: true,
      delegationEnabled: true,
      selfApprovalAllowed: false,
    });
  });
});

/** A multipart body: the "request" JSON field, then files named "attachments". */
function multipart(request: string, files: Array<{ name: string; type: string; data: Buffer }>) {
  const boundary = '----alertdesk' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\n${request}\r\n`)];
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

for (const db of testDatabases()) {
  describe(`approval workflows [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    let fake: ReturnType<typeof fakeTransports>;
    let nowMs = Date.now();
    const clock = () => new Date(nowMs);
    const advance = async (ms: number) => {
      nowMs += ms;
      await env.app.jobs.worker.runDue();
    };

    beforeAll(async () => {
      fake = fakeTransports();
      env = await startTestApp(db, {}, undefined, { clock, transports: fake.transports });
    });
    afterAll(async () => env?.close());
    beforeEach(() => {
      nowMs = Date.now();
    });

    const policies = (tenantId: string, id?: string) => `/api/tenants/${tenantId}/approvalPolicies${id ? `/${id}` : ''}`;
    const requests = (tenantId: string, id?: string, action?: string) => `/api/tenants/${tenantId}/approvalRequests${id ? `/${id}` : ''}${action ? `/${action}` : ''}`;

    /**
     * A tenant: owner, an admin, manager-level approvers A1 and A2, director-level approver B, a requester C and a
     * bystander D (plain members), and a two-level policy for access requests.
     */
    async function setup(policy: Record<string, unknown> = {}) {
      const owner = await registerOwner(env.app, { name: 'Olive Owner' });
      const add = (role: 'admin' | 'user' = 'user') => addMember(env.deps, env.app, owner.tenantId, role);
      const admin = await add('admin');
      const a1 = await add();
      const a2 = await add();
      const b = await add();
      const c = await add();
      const d = await add();
      const res = await owner.agent.post(policies(owner.tenantId), {
        name: 'Access to client systems',
        description: 'Who signs off on access',
        type: 'access',
        levels: [
          { level: 'manager', approvers: [a1.userId, a2.userId], timeToExpire: 24 },
          { level: 'director', approvers: [b.userId], timeToExpire: 8 },
        ],
        ...policy,
      });
      expect(res.statusCode, res.body).toBe(201);
      await env.app.jobs.worker.runDue();
      fake.sent.email.length = 0;
      return { owner, admin, a1, a2, b, c, d, tenantId: owner.tenantId, policy: res.data };
    }

    async function createRequest(agent: Agent, tenantId: string, body: Record<string, unknown> = {}) {
      const res = await agent.post(requests(tenantId), { title: 'VPN access for Acme', description: 'Need it for the migration', metadata: { client: 'Acme', hours: 4 }, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.data;
    }

    const mailsTo = (email: string) => fake.sent.email.filter((m) => m.to === email);

    it('validates policies with the texts of spec section 5, naming the field', async () => {
      const { owner, tenantId, a1 } = await setup();
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ description: 'x', levels: [{ level: 'manager', approvers: [a1.userId] }] }, 'name', APPROVAL_MSG.policyNameRequired],
        [{ name: 'x', levels: [{ level: 'manager', approvers: [a1.userId] }] }, 'description', APPROVAL_MSG.policyDescriptionRequired],
        [{ name: 'x', description: 'x', levels: [] }, 'levels', APPROVAL_MSG.levelsCount],
        [{ name: 'x', description: 'x', levels: ['manager', 'director', 'executive', 'manager'].map((level) => ({ level, approvers: [a1.userId] })) }, 'levels', APPROVAL_MSG.levelsCount],
        [{ name: 'x', description: 'x', levels: ['manager', 'manager'].map((level) => ({ level, approvers: [a1.userId] })) }, 'levels', APPROVAL_MSG.levelTypeTwice],
        [{ name: 'x', description: 'x', levels: [{ level: 'manager', approvers: [] }] }, 'levels.0.approvers', APPROVAL_MSG.approverRequired],
        [{ name: 'x', description: 'x', levels: [{ level: 'boss', approvers: [a1.userId] }] }, 'levels.0.level', APPROVAL_MSG.levelTypeInvalid],
        [{ name: 'x', description: 'x', levels: [{ level: 'manager', approvers: [a1.userId], timeToExpire: 0 }] }, 'levels.0.timeToExpire', APPROVAL_MSG.hoursInvalid],
        [{ name: 'x', description: 'x', levels: [{ level: 'manager', approvers: [a1.userId], timeToExpire: '1.5' }] }, 'levels.0.timeToExpire', APPROVAL_MSG.hoursInvalid],
        [{ name: 'x', description: 'x', levels: [{ level: 'manager', approvers: ['not-a-member'] }] }, 'levels.0.approvers', APPROVAL_MSG.unknownApprovers],
        [{ name: 'x', description: 'x', type: 'bribe', levels: [{ level: 'manager', approvers: [a1.userId] }] }, 'type', APPROVAL_MSG.typeInvalid],
      ];
      for (const [body, field, message] of cases) {
        const res = await owner.agent.post(policies(tenantId), body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.data.error.fields[field], JSON.stringify(res.data)).toBe(message);
      }
      // A member of another tenant is not a member here.
      const stranger = await registerOwner(env.app, { tenantName: 'Elsewhere' });
      const res = await owner.agent.post(policies(tenantId), { name: 'x', description: 'x', levels: [{ level: 'manager', approvers: [stranger.userId] }] });
      expect(res.data.error.fields['levels.0.approvers']).toBe(APPROVAL_MSG.unknownApprovers);
    });

    it('lets only owners and admins manage policies; another tenant answers 404; delete is soft', async () => {
      const { owner, admin, c, tenantId, policy, a1 } = await setup();
      expect((await owner.agent.get(policies(tenantId))).data.items.map((p: { id: string }) => p.id)).toEqual([policy.id]);
      expect(policy).toMatchObject({ active: true, autoRejectOnExpire: true, notifyOnCreate: true, notifyOnUpdate: true, delegationEnabled: true });
      expect((await admin.agent.get(policies(tenantId, policy.id))).statusCode).toBe(200);
      for (const res of [
        await c.agent.get(policies(tenantId)),
        await c.agent.post(policies(tenantId), { name: 'x', description: 'y', levels: [{ level: 'manager', approvers: [a1.userId] }] }),
        await c.agent.delete(policies(tenantId, policy.id)),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.data.error.message).toBe(APPROVAL_MSG.managePoliciesForbidden);
      }
      const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
      expect((await other.agent.get(policies(tenantId, policy.id))).statusCode).toBe(404);
      expect((await other.agent.get(policies(other.tenantId, policy.id))).data.error.message).toBe(APPROVAL_MSG.policyNotFound);
      expect((await new Agent(env.app).get(policies(tenantId))).statusCode).toBe(401);

      // A request made before the delete goes on; no new one can use the policy.
      const before = await createRequest(c.agent, tenantId);
      expect((await owner.agent.delete(policies(tenantId, policy.id))).data).toEqual({ ok: true });
      expect((await owner.agent.get(policies(tenantId, policy.id))).data.active).toBe(false);
      const refused = await c.agent.post(requests(tenantId), { title: 't', description: 'd', type: 'access' });
      expect(refused.statusCode).toBe(400);
      expect(refused.data.error.message).toBe('No active policy found for access requests');
      expect((await a1.agent.post(requests(tenantId, before.id, 'approve'), {})).statusCode).toBe(200);
      // Turned back on through an edit.
      const { id: _id, tenantId: _t, createdAt: _c, updatedAt: _u, ...fields } = policy;
      const back = await owner.agent.put(policies(tenantId, policy.id), { ...fields, active: true });
      expect(back.data.active).toBe(true);
      expect((await c.agent.post(requests(tenantId), { title: 't', description: 'd' })).statusCode).toBe(201);
    });

    it('runs a request through both levels, records every decision and tells the right people', async () => {
      const { tenantId, a1, a2, b, c, d, owner } = await setup();
      const events: BusMessage[] = [];
      const unsubscribe = env.deps.bus.subscribe(tenantId, (m) => events.push(m));
      // A1 has a subscribed browser: they are told by push too, and the notification opens the request.
      const sub = await a1.agent.post('/api/userTokens', { token: { endpoint: 'https://push.example.com/sub/a1', keys: { p256dh: 'key', auth: 'auth' } } });
      expect(sub.statusCode, sub.body).toBe(200);
      const pushesBefore = fake.sent.push.length;
      const created = await createRequest(c.agent, tenantId);
      expect(created).toMatchObject({
        status: 'pending',
        type: 'access',
        currentLevel: 0,
        currentLevelName: 'manager',
        requestedBy: { id: c.userId, email: c.email },
        metadata: { client: 'Acme', hours: 4 },
        can: { approve: false, reject: false, cancel: true, delegate: false },
      });
      expect(created.levels.map((l: { status: string }) => l.status)).toEqual(['pending', 'waiting']);
      expect(new Date(created.expiresAt).getTime()).toBe(nowMs + 24 * HOUR);
      expect(events.some((e) => e.type === 'approval' && e.change.id === created.id && e.change.status === 'pending')).toBe(true);

      // notifyOnCreate: the first level's approvers, with a link to the request.
      await env.app.jobs.worker.runDue();
      expect(mailsTo(a1.email).map((m) => m.subject)).toEqual(['Approval needed: VPN access for Acme']);
      expect(mailsTo(a1.email)[0]!.text).toContain(`/app/approval-workflows?request=${created.id}`);
      expect(mailsTo(a2.email)).toHaveLength(1);
      expect(mailsTo(b.email)).toHaveLength(0);
      expect(fake.sent.push.slice(pushesBefore)).toEqual([
        {
          endpoint: 'https://push.example.com/sub/a1',
          payload: { title: 'Approval needed: VPN access for Acme', body: expect.stringContaining('asks for your approval'), url: expect.stringMatching(`/app/approval-workflows\\?request=${created.id}$`) },
        },
      ]);

      // Views: pending for the manager-level approvers only; mine for the requester.
      const ids = (res: { data: { items: Array<{ id: string }> } }) => res.data.items.map((i) => i.id);
      expect(ids(await a1.agent.get(requests(tenantId) + '?view=pending'))).toEqual([created.id]);
      expect((await a1.agent.get(requests(tenantId))).data).toMatchObject({ total: 1, page: 1, pageSize: 20 });
      expect((await a1.agent.get(requests(tenantId))).data.items[0].can).toEqual({ approve: true, reject: true, cancel: false, delegate: true });
      expect(ids(await b.agent.get(requests(tenantId) + '?view=pending'))).toEqual([]);
      expect(ids(await c.agent.get(requests(tenantId) + '?view=mine'))).toEqual([created.id]);
      expect(ids(await d.agent.get(requests(tenantId) + '?view=mine'))).toEqual([]);

      nowMs += HOUR;
      const first = await a1.agent.post(requests(tenantId, created.id, 'approve'), { comment: 'Fine for four hours' });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.data).toMatchObject({ status: 'pending', currentLevel: 1, currentLevelName: 'director' });
      expect(first.data.levels[0]).toMatchObject({ status: 'approved', approvedBy: a1.userId, comments: 'Fine for four hours' });
      expect(first.data.levels[0].approvedAt).toBe(new Date(nowMs).toISOString());
      // The next level's expiry runs from now.
      expect(new Date(first.data.expiresAt).getTime()).toBe(nowMs + 8 * HOUR);
      expect(ids(await a1.agent.get(requests(tenantId)))).toEqual([]);
      expect(ids(await a2.agent.get(requests(tenantId)))).toEqual([]);
      expect(ids(await b.agent.get(requests(tenantId)))).toEqual([created.id]);
      await env.app.jobs.worker.runDue();
      expect(mailsTo(b.email).map((m) => m.subject)).toEqual(['Approval needed: VPN access for Acme']);
      expect(mailsTo(c.email).map((m) => m.subject)).toEqual(['Approved at Manager level: VPN access for Acme']);

      const second = await b.agent.post(requests(tenantId, created.id, 'approve'), {});
      expect(second.data).toMatchObject({ status: 'approved', currentLevel: 1, expiresAt: null, can: { approve: false, reject: false, cancel: false, delegate: false } });
      await env.app.jobs.worker.runDue();
      expect(mailsTo(c.email).map((m) => m.subject)).toContain('Your request was approved: VPN access for Acme');

      const details = (await c.agent.get(requests(tenantId, created.id))).data;
      expect(details.history.map((h: { action: string; actor: { id: string } | null; level: string }) => [h.action, h.actor?.id, h.level])).toEqual([
        ['created', c.userId, 'manager'],
        ['approved', a1.userId, 'manager'],
        ['approved', b.userId, 'director'],
      ]);
      expect(details.people.find((p: { id: string }) => p.id === a1.userId)).toMatchObject({ email: a1.email });
      // Those who decided keep seeing it; the owner sees everything; a bystander does not.
      expect((await a2.agent.get(requests(tenantId, created.id))).statusCode).toBe(200);
      expect((await owner.agent.get(requests(tenantId) + '?view=all')).data.items.map((i: { id: string }) => i.id)).toContain(created.id);
      const again = await b.agent.post(requests(tenantId, created.id, 'approve'), {});
      expect(again.statusCode).toBe(409);
      expect(again.data.error).toMatchObject({ message: APPROVAL_MSG.notPending, fields: { status: 'approved' } });
      unsubscribe();
    });

    it('answers by the permission matrix: creator, approvers of this and another level, member, admin, owner, another tenant', async () => {
      const { tenantId, a1, b, c, d, admin, owner } = await setup();
      const r = await createRequest(c.agent, tenantId);
      const expectRefused = async (agent: Agent, action: string, body: object, status: number, message: string) => {
        const res = await agent.post(requests(tenantId, r.id, action), body);
        expect(res.statusCode, `${action}: ${res.body}`).toBe(status);
        expect(res.data.error.message).toBe(message);
      };
      // The creator is not an approver.
      await expectRefused(c.agent, 'approve', {}, 403, APPROVAL_MSG.notAuthorizedApprove);
      // An approver of another level, an admin and the owner may see it but not decide on it.
      for (const who of [b, admin, owner]) {
        expect((await who.agent.get(requests(tenantId, r.id))).statusCode).toBe(200);
        await expectRefused(who.agent, 'approve', {}, 403, APPROVAL_MSG.notAuthorizedApprove);
        await expectRefused(who.agent, 'reject', { reason: 'no' }, 403, APPROVAL_MSG.notAuthorizedReject);
        await expectRefused(who.agent, 'delegate', { userId: d.userId }, 403, APPROVAL_MSG.notAuthorizedDelegate);
        await expectRefused(who.agent, 'cancel', {}, 403, APPROVAL_MSG.onlyCreatorCancel);
      }
      // A plain member not named anywhere does not see it at all.
      expect((await d.agent.get(requests(tenantId, r.id))).statusCode).toBe(404);
      await expectRefused(d.agent, 'approve', {}, 404, APPROVAL_MSG.requestNotFound);
      const all = await d.agent.get(requests(tenantId) + '?view=all');
      expect(all.statusCode).toBe(403);
      expect(all.data.error.message).toBe(APPROVAL_MSG.viewAllForbidden);
      expect((await admin.agent.get(requests(tenantId) + '?view=all')).data.total).toBe(1);
      // Another tenant: 404 like a missing request, whatever the action.
      const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
      expect((await other.agent.get(requests(tenantId, r.id))).statusCode).toBe(404);
      expect((await other.agent.get(requests(other.tenantId, r.id))).statusCode).toBe(404);
      expect((await other.agent.post(requests(other.tenantId, r.id, 'approve'), {})).statusCode).toBe(404);
      // The approver of the current level decides.
      expect((await a1.agent.post(requests(tenantId, r.id, 'approve'), {})).statusCode).toBe(200);
    });

    it('rejects only with a reason, and cancels only for the creator', async () => {
      const { tenantId, a1, c } = await setup();
      const r = await createRequest(c.agent, tenantId);
      for (const body of [{}, { reason: '   ' }]) {
        const res = await a1.agent.post(requests(tenantId, r.id, 'reject'), body);
        expect(res.statusCode).toBe(400);
        expect(res.data.error.fields.reason).toBe(APPROVAL_MSG.reasonRequired);
      }
      const rejected = await a1.agent.post(requests(tenantId, r.id, 'reject'), { reason: 'Not during the freeze' });
      expect(rejected.data).toMatchObject({ status: 'rejected', expiresAt: null });
      expect(rejected.data.levels[0]).toMatchObject({ status: 'rejected', approvedBy: a1.userId, comments: 'Not during the freeze' });
      const late = await c.agent.post(requests(tenantId, r.id, 'cancel'), {});
      expect(late.statusCode).toBe(409);
      expect(late.data.error.fields.status).toBe('rejected');

      const r2 = await createRequest(c.agent, tenantId);
      const cancelled = await c.agent.post(requests(tenantId, r2.id, 'cancel'), {});
      expect(cancelled.data.status).toBe('cancelled');
      expect((await a1.agent.get(requests(tenantId))).data.items).toEqual([]);
      expect((await a1.agent.post(requests(tenantId, r2.id, 'approve'), {})).statusCode).toBe(409);
      expect((await c.agent.get(requests(tenantId, r2.id))).data.history.map((h: { action: string }) => h.action)).toEqual(['created', 'cancelled']);
    });

    it('delegates within the current level when the policy allows it, only to a member', async () => {
      const { tenantId, a1, b, c, d, owner, policy } = await setup();
      const r = await createRequest(c.agent, tenantId);
      const self = await a1.agent.post(requests(tenantId, r.id, 'delegate'), { userId: a1.userId });
      expect(self.data.error.fields.userId).toBe(APPROVAL_MSG.delegateSelf);
      const stranger = await registerOwner(env.app, { tenantName: 'Elsewhere' });
      const notMember = await a1.agent.post(requests(tenantId, r.id, 'delegate'), { userId: stranger.userId });
      expect(notMember.statusCode).toBe(400);
      expect(notMember.data.error.message).toBe(APPROVAL_MSG.userNotAvailable);

      const handed = await a1.agent.post(requests(tenantId, r.id, 'delegate'), { userId: d.userId });
      expect(handed.statusCode, handed.body).toBe(200);
      expect(handed.data.levels[0].approvers).not.toContain(a1.userId);
      expect(handed.data.levels[0].approvers).toContain(d.userId);
      expect(handed.data.history.at(-1)).toMatchObject({ action: 'delegated', actor: { id: a1.userId }, target: { id: d.userId } });
      await env.app.jobs.worker.runDue();
      expect(mailsTo(d.email).map((m) => m.subject)).toEqual(['Approval needed: VPN access for Acme']);
      expect((await a1.agent.post(requests(tenantId, r.id, 'approve'), {})).statusCode).toBe(403);
      expect((await d.agent.post(requests(tenantId, r.id, 'approve'), {})).data.currentLevelName).toBe('director');

      // Delegation off: refused with the spec's text.
      const { id: _id, tenantId: _t, createdAt: _c, updatedAt: _u, ...fields } = policy;
      await owner.agent.put(policies(tenantId, policy.id), { ...fields, delegationEnabled: false });
      const off = await b.agent.post(requests(tenantId, r.id, 'delegate'), { userId: d.userId });
      expect(off.statusCode).toBe(403);
      expect(off.data.error.message).toBe(APPROVAL_MSG.delegationDisabled);
      expect((await b.agent.get(requests(tenantId, r.id))).data.can.delegate).toBe(false);
    });

    it('expires a pending request at its expiry, exactly once: auto-rejected, or expired', async () => {
      const { tenantId, c, a1, owner, policy } = await setup();
      const r = await createRequest(c.agent, tenantId);
      await advance(24 * HOUR - 1000);
      expect((await c.agent.get(requests(tenantId, r.id))).data.status).toBe('pending');
      await advance(1000);
      const expired = (await c.agent.get(requests(tenantId, r.id))).data;
      expect(expired.status).toBe('rejected');
      expect(expired.levels[0]).toMatchObject({ status: 'rejected', comments: 'Expired without a decision' });
      expect(expired.history.map((h: { action: string }) => h.action)).toEqual(['created', 'expired']);
      expect(mailsTo(c.email).map((m) => m.subject)).toEqual(['Your request was rejected: VPN access for Acme']);
      await advance(HOUR);
      expect((await c.agent.get(requests(tenantId, r.id))).data.history).toHaveLength(2);

      // Without auto-reject it becomes expired; an approval arriving after the expiry but before the job is refused.
      const { id: _id, tenantId: _t, createdAt: _c, updatedAt: _u, ...fields } = policy;
      await owner.agent.put(policies(tenantId, policy.id), { ...fields, autoRejectOnExpire: false });
      const r2 = await createRequest(c.agent, tenantId);
      nowMs += 24 * HOUR;
      const late = await a1.agent.post(requests(tenantId, r2.id, 'approve'), {});
      expect(late.statusCode).toBe(409);
      expect(late.data.error.fields.status).toBe('expired');
      await advance(0);
      expect((await c.agent.get(requests(tenantId, r2.id))).data.history.map((h: { action: string }) => h.action)).toEqual(['created', 'expired']);
    });

    it('advances a level once when two approvers of it act at the same moment', async () => {
      const { tenantId, a1, a2, c } = await setup();
      const r = await createRequest(c.agent, tenantId);
      const results = await Promise.all([a1.agent.post(requests(tenantId, r.id, 'approve'), {}), a2.agent.post(requests(tenantId, r.id, 'approve'), {})]);
      expect(results.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      const details = (await c.agent.get(requests(tenantId, r.id))).data;
      expect(details.currentLevelName).toBe('director');
      expect(details.history.filter((h: { action: string }) => h.action === 'approved')).toHaveLength(1);
      const loser = results.find((res) => res.statusCode === 409)!;
      expect(loser.data.error).toMatchObject({ message: APPROVAL_MSG.movedOn, fields: { status: 'pending', currentLevel: '1' } });
    });

    it('validates requests: title, description, a JSON object as metadata', async () => {
      const { tenantId, c } = await setup();
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ description: 'd' }, 'title', APPROVAL_MSG.titleRequired],
        [{ title: 't', description: ' ' }, 'description', APPROVAL_MSG.descriptionRequired],
        [{ title: 't', description: 'd', metadata: [1, 2] }, 'metadata', APPROVAL_MSG.metadataNotObject],
        [{ title: 't', description: 'd', metadata: 'text' }, 'metadata', APPROVAL_MSG.metadataNotObject],
        [{ title: 't', description: 'd', type: 'expense' }, 'type', 'No active policy found for expense requests'],
      ];
      for (const [body, field, message] of cases) {
        const res = await c.agent.post(requests(tenantId), body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.data.error.fields[field], res.body).toBe(message);
      }
      expect((await c.agent.get(requests(tenantId) + '?view=mine')).data.total).toBe(0);
    });

    it('stores attachments with the request and serves them as downloads only to those who may see it', async () => {
      const { tenantId, a1, c, d } = await setup();
      const big = Buffer.alloc(600 * 1024, 7);
      const body = multipart(JSON.stringify({ title: 'Laptop', description: 'For the new tech', type: 'access', metadata: { cost: 1200 } }), [
        { name: 'quote.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 quote') },
        { name: '../../evil<script>.html', type: 'text/html', data: big },
      ]);
      const send = (agent: Agent, b: { payload: Buffer; contentType: string }) =>
        env.app.inject({ method: 'POST', url: requests(tenantId), headers: { origin: 'http://localhost:3000', cookie: agent.cookie!, 'content-type': b.contentType }, payload: b.payload });
      const res = await send(c.agent, body);
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json();
      expect(created.metadata).toEqual({ cost: 1200 });
      expect(created.attachments.map((a: { filename: string; size: number }) => [a.filename, a.size])).toEqual([
        ['quote.pdf', 14],
        ['evil<script>.html', big.length],
      ]);
      const [pdf, html] = created.attachments;
      const download = await a1.agent.get(`${requests(tenantId, created.id)}/attachments/${html.id}`);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(big)).toBe(true);
      expect(download.headers['content-disposition']).toMatch(/^attachment; /);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect((await c.agent.get(`${requests(tenantId, created.id)}/attachments/${pdf.id}`)).body).toBe('%PDF-1.4 quote');
      // A bystander and another tenant get 404.
      expect((await d.agent.get(`${requests(tenantId, created.id)}/attachments/${pdf.id}`)).statusCode).toBe(404);
      const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
      expect((await other.agent.get(`${requests(tenantId, created.id)}/attachments/${pdf.id}`)).statusCode).toBe(404);
      expect((await other.agent.get(`${requests(other.tenantId, created.id)}/attachments/${pdf.id}`)).statusCode).toBe(404);

      // Six files, an 11 MB file, broken JSON: refused, nothing stored.
      const before = (await c.agent.get(requests(tenantId) + '?view=mine')).data.total;
      const six = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, type: 'text/plain', data: Buffer.from('x') }));
      const tooMany = await send(c.agent, multipart(JSON.stringify({ title: 't', description: 'd' }), six));
      expect(tooMany.statusCode).toBe(413);
      expect(tooMany.json().error.message).toBe(APPROVAL_MSG.tooManyAttachments);
      const huge = await send(c.agent, multipart(JSON.stringify({ title: 't', description: 'd' }), [{ name: 'big.bin', type: 'application/octet-stream', data: Buffer.alloc(11 * 1024 * 1024) }]));
      expect(huge.statusCode).toBe(413);
      expect(huge.json().error.message).toBe(APPROVAL_MSG.attachmentTooLarge);
      const broken = await send(c.agent, multipart('{"title": ', []));
      expect(broken.statusCode).toBe(400);
      expect(broken.json().error.message).toBe(APPROVAL_MSG.invalidJson);
      const invalid = await send(c.agent, multipart(JSON.stringify({ title: '', description: 'd' }), []));
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().error.fields.title).toBe(APPROVAL_MSG.titleRequired);
      expect((await c.agent.get(requests(tenantId) + '?view=mine')).data.total).toBe(before);

      // Deleting the tenant takes its policies, requests, history and files with it.
      const admin = await superAdmin(env.deps, env.app);
      expect((await admin.agent.delete(`/api/tenants/${tenantId}`)).statusCode).toBe(200);
      const left = await env.deps.db.selectFrom('approval_attachment_chunks').select('attachment_id').where('attachment_id', 'in', [pdf.id, html.id]).execute();
      expect(left).toEqual([]);
      expect(await env.deps.db.selectFrom('approval_requests').select('id').where('tenant_id', '=', tenantId).execute()).toEqual([]);
    });
  });
}
