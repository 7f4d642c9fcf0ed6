import { describe, expect, it } from 'vitest';
import { ESCALATION_MSG, EscalationPolicyInput } from '../../../contract/escalation.ts';
import { MSG } from '../../../contract/messages.ts';
import { Agent, describeEachDatabase, type TestEnv } from '../../test/test-app.ts';
import { addMember, insertClient, registerOwner } from '../../test/factories.ts';
import { expectTimeSince } from '../../test/expect.ts';
import { schedulesExist } from './escalation-policies.repository.ts';
import { policiesByIds, policyForAlert, writeWithPolicyRef } from './escalation-policies.service.ts';

const url = (tenantId: string, policyId?: string) => `/api/tenants/${tenantId}/escalationPolicies${policyId ? `/${policyId}` : ''}`;

async function create(agent: Agent, tenantId: string, body: Record<string, unknown>) {
  const res = await agent.post(url(tenantId), body);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.data;
}

/** A policy body paging `userId` at level 1, with anything else given. */
const policy = (userId: string, extra: Record<string, unknown> = {}) => ({ name: 'Primary', level_1: { userIds: [userId] }, ...extra });

/** An on-call schedule of the tenant, made through the schedules API. */
async function createSchedule(agent: Agent, tenantId: string, userId: string, name = 'Ops rota') {
  const rotations = Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, [{ startHour: 0, endHour: 24, primaryOnCall: userId }]]));
  const res = await agent.post(`/api/tenants/${tenantId}/onCallSchedules`, { name, startTime: '2026-01-01', endTime: '2026-12-31', rotations });
  if (res.statusCode !== 201) throw new Error(`schedule create failed: ${res.statusCode} ${res.body}`);
  return res.data.id as string;
}

async function defaults(env: TestEnv, tenantId: string) {
  return (await env.deps.db.selectFrom('escalation_policies').select('id').where('tenant_id', '=', tenantId).where('is_default', '=', 1).execute()).map((r) => r.id);
}

describe('escalation policy input (pure)', () => {
  it('applies the defaults of spec section 9 to what is left out', () => {
    expect(EscalationPolicyInput.parse({ name: 'P', level_1: { userIds: ['u'] } })).toEqual({
      name: 'P',
      description: null,
      isDefault: false,
      escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
      level_1: { userIds: ['u'], scheduleIds: [], notify: 'primary', notificationChannels: ['email', 'push'] },
      level_2: { userIds: [], scheduleIds: [], notify: 'primary', timeAfterPrevious: 30, notificationChannels: ['email', 'push', 'sms'] },
      level_3: { userIds: [], scheduleIds: [], notify: 'primary', timeAfterPrevious: 60, notificationChannels: ['email', 'push', 'sms'] },
    });
  });

  it('turns invalid times into 0 (null for info) and invalid level delays into 30 and 60 (spec section 5)', () => {
    const parsed = EscalationPolicyInput.parse({
      name: 'P',
      level_1: { userIds: ['u'] },
      escalationTimes: { critical: '', high: 'soon', medium: 0, low: -3, info: 'never' },
      level_2: { timeAfterPrevious: null },
      level_3: { timeAfterPrevious: 'x' },
    });
    expect(parsed.escalationTimes).toEqual({ critical: 0, high: 0, medium: 0, low: 0, info: null });
    expect([parsed.level_2.timeAfterPrevious, parsed.level_3.timeAfterPrevious]).toEqual([30, 60]);
    // Whole numbers of at least 1 are kept (numeric text too; fractions round down).
    const kept = EscalationPolicyInput.parse({ name: 'P', level_1: { userIds: ['u'] }, escalationTimes: { critical: 1, high: '45', info: 7.9 }, level_2: { timeAfterPrevious: 5 } });
    expect(kept.escalationTimes).toMatchObject({ critical: 1, high: 45, info: 7 });
    expect(kept.level_2.timeAfterPrevious).toBe(5);
  });
});

describeEachDatabase('escalation policies API', (t) => {
  it('answers 401 without a session on every endpoint, before looking at the body', async () => {
    const owner = await registerOwner(t().app);
    const p = await create(owner.agent, owner.tenantId, policy(owner.userId));
    const anon = new Agent(t().app);
    for (const [method, path, body] of [
      ['GET', url(owner.tenantId)],
      ['POST', url(owner.tenantId), {}],
      ['GET', url(owner.tenantId, p.id)],
      ['PUT', url(owner.tenantId, p.id), {}],
      ['DELETE', url(owner.tenantId, p.id)],
    ] as const) {
      const res = await anon.request(method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.data).toEqual({ error: { code: 'unauthorized', message: 'You must be signed in' } });
    }
  });

  it('creates a policy with every field, reads it back, and lists it to every member', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const admin = await addMember(env.deps, env.app, owner.tenantId, 'admin');
    const user = await addMember(env.deps, env.app, owner.tenantId, 'user');
    const scheduleId = await createSchedule(owner.agent, owner.tenantId, user.userId);
    const since = Date.now();
    const body = {
      name: '  Business hours  ',
      description: ' Daytime paging ',
      isDefault: true,
      escalationTimes: { critical: 5, high: 10, medium: 20, low: 40, info: 80 },
      level_1: { userIds: [owner.userId, owner.userId], scheduleIds: [scheduleId], notificationChannels: ['sms'] },
      level_2: { userIds: [admin.userId], timeAfterPrevious: 15, notificationChannels: ['email', 'email'] },
      level_3: { userIds: [user.userId, admin.userId], timeAfterPrevious: 45, notificationChannels: [] },
      // Server-owned and unknown fields are ignored.
      id: 'forged',
      tenantId: 'forged',
      createdAt: '2000-01-01T00:00:00.000Z',
    };
    const res = await admin.agent.post(url(owner.tenantId), body);
    expect(res.statusCode, res.body).toBe(201);
    const p = res.data;
    expect(p).toEqual({
      id: expect.any(String),
      tenantId: owner.tenantId,
      name: 'Business hours',
      description: 'Daytime paging',
      isDefault: true,
      escalationTimes: { critical: 5, high: 10, medium: 20, low: 40, info: 80 },
      level_1: { userIds: [owner.userId], scheduleIds: [scheduleId], notify: 'primary', notificationChannels: ['sms'] },
      level_2: { userIds: [admin.userId], scheduleIds: [], notify: 'primary', timeAfterPrevious: 15, notificationChannels: ['email'] },
      level_3: { userIds: [user.userId, admin.userId], scheduleIds: [], notify: 'primary', timeAfterPrevious: 45, notificationChannels: [] },
      createdAt: p.createdAt,
      updatedAt: p.createdAt,
    });
    expect(p.id).not.toBe('forged');
    expectTimeSince(p.createdAt, since);
    const row = await env.deps.db.selectFrom('escalation_policies').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: owner.tenantId, is_default: 1, created_by: admin.userId });
    expect(JSON.parse(row.level_2)).toEqual(p.level_2);

    for (const reader of [owner, admin, user]) {
      expect((await reader.agent.get(url(owner.tenantId, p.id))).data).toEqual(p);
      expect((await reader.agent.get(url(owner.tenantId))).data).toEqual({ items: [p] });
    }
  });

  it('stores the defaults of spec section 9 for what a body leaves out, and lists the default first, then by name', async () => {
    const owner = await registerOwner(t().app);
    const bare = await create(owner.agent, owner.tenantId, { name: 'zeta', level_1: { userIds: [owner.userId] } });
    expect(bare).toMatchObject({
      description: null,
      isDefault: false,
      escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
      level_1: { userIds: [owner.userId], scheduleIds: [], notificationChannels: ['email', 'push'] },
      level_2: { userIds: [], scheduleIds: [], timeAfterPrevious: 30, notificationChannels: ['email', 'push', 'sms'] },
      level_3: { userIds: [], scheduleIds: [], timeAfterPrevious: 60, notificationChannels: ['email', 'push', 'sms'] },
    });
    await create(owner.agent, owner.tenantId, policy(owner.userId, { name: 'Alpha' }));
    await create(owner.agent, owner.tenantId, policy(owner.userId, { name: 'Main', isDefault: true }));
    const list = await owner.agent.get(url(owner.tenantId));
    expect(list.data.items.map((p: { name: string }) => p.name)).toEqual(['Main', 'Alpha', 'zeta']);
  });

  it('lets owners and admins write; users get 403 and change nothing', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const user = await addMember(env.deps, env.app, owner.tenantId, 'user');
    const p = await create(owner.agent, owner.tenantId, policy(owner.userId));
    for (const res of [
      await user.agent.post(url(owner.tenantId), policy(user.userId)),
      await user.agent.put(url(owner.tenantId, p.id), policy(user.userId, { name: 'Hijacked' })),
      await user.agent.delete(url(owner.tenantId, p.id)),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.data).toEqual({ error: { code: 'forbidden', message: ESCALATION_MSG.manageForbidden } });
    }
    expect((await owner.agent.get(url(owner.tenantId))).data.items).toEqual([p]);
  });

  it('answers 404 for another tenant, and for another tenant’s policy exactly like a missing one', async () => {
    const a = await registerOwner(t().app, { tenantName: 'Tenant A' });
    const b = await registerOwner(t().app, { tenantName: 'Tenant B' });
    const bPolicy = await create(b.agent, b.tenantId, policy(b.userId, { name: 'B secret' }));
    const missing = await a.agent.get(url(a.tenantId, 'no-such-policy'));
    expect(missing.statusCode).toBe(404);
    expect(missing.data).toEqual({ error: { code: 'not_found', message: ESCALATION_MSG.policyNotFound } });
    for (const res of [
      await a.agent.get(url(a.tenantId, bPolicy.id)),
      await a.agent.put(url(a.tenantId, bPolicy.id), policy(a.userId)),
      await a.agent.delete(url(a.tenantId, bPolicy.id)),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data).toEqual(missing.data);
    }
    const noTenant = await a.agent.get(url('no-such-tenant'));
    for (const res of [
      await a.agent.get(url(b.tenantId)),
      await a.agent.post(url(b.tenantId), policy(a.userId)),
      await a.agent.get(url(b.tenantId, bPolicy.id)),
      await a.agent.put(url(b.tenantId, bPolicy.id), policy(a.userId)),
      await a.agent.delete(url(b.tenantId, bPolicy.id)),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data).toEqual(noTenant.data);
    }
    expect((await b.agent.get(url(b.tenantId, bPolicy.id))).data).toEqual(bPolicy);
  });

  it('checks the schedules a policy names within its own tenant', async () => {
    const env = t();
    const a = await registerOwner(env.app, { tenantName: 'Tenant A' });
    const b = await registerOwner(env.app, { tenantName: 'Tenant B' });
    const bSchedule = await createSchedule(b.agent, b.tenantId, b.userId);
    expect(await schedulesExist(env.deps.db, a.tenantId, [bSchedule])).toBe(false);
    expect(await schedulesExist(env.deps.db, b.tenantId, [bSchedule, bSchedule])).toBe(true);
    expect(await schedulesExist(env.deps.db, b.tenantId, [])).toBe(true);
  });

  describe('validation (spec section 5), on create and update', () => {
    const cases: Array<[string, (u: string) => Record<string, unknown>, string, string]> = [
      ['a missing name', (u) => ({ level_1: { userIds: [u] } }), 'name', MSG.policyNameRequired],
      ['a blank name', (u) => ({ name: '   ', level_1: { userIds: [u] } }), 'name', MSG.policyNameRequired],
      ['a name of the wrong type', (u) => ({ name: 7, level_1: { userIds: [u] } }), 'name', MSG.policyNameRequired],
      ['no level 1', () => ({ name: 'P' }), 'level_1.userIds', MSG.level1UserRequired],
      ['no user in level 1', () => ({ name: 'P', level_1: { userIds: [] } }), 'level_1.userIds', MSG.level1UserRequired],
      ['users that are not a list', () => ({ name: 'P', level_1: { userIds: 'me' } }), 'level_1.userIds', ESCALATION_MSG.userIdsInvalid],
      ['an unknown channel', (u) => ({ name: 'P', level_1: { userIds: [u], notificationChannels: ['fax'] } }), 'level_1.notificationChannels.0', ESCALATION_MSG.channelsInvalid],
      ['a time over a week', (u) => ({ name: 'P', level_1: { userIds: [u] }, escalationTimes: { critical: 10_081 } }), 'escalationTimes.critical', ESCALATION_MSG.timeTooLong],
      ['a level delay over a week', (u) => ({ name: 'P', level_1: { userIds: [u] }, level_3: { timeAfterPrevious: 99_999 } }), 'level_3.timeAfterPrevious', ESCALATION_MSG.timeTooLong],
      ['times that are not an object', (u) => ({ name: 'P', level_1: { userIds: [u] }, escalationTimes: 5 }), 'escalationTimes', ESCALATION_MSG.timesInvalid],
      ['a level that is not an object', (u) => ({ name: 'P', level_1: { userIds: [u] }, level_2: [] }), 'level_2', ESCALATION_MSG.levelInvalid],
      ['a default flag that is not a boolean', (u) => ({ name: 'P', level_1: { userIds: [u] }, isDefault: 'yes' }), 'isDefault', ESCALATION_MSG.isDefaultInvalid],
      ['more than 50 users in a level', (u) => ({ name: 'P', level_1: { userIds: [u, ...Array.from({ length: 50 }, (_, i) => `u${i}`)] } }), 'level_1.userIds', ESCALATION_MSG.tooManyUsers],
    ];
    for (const [what, body, field, message] of cases) {
      it(`refuses ${what} with '${message}'`, async () => {
        const owner = await registerOwner(t().app);
        const existing = await create(owner.agent, owner.tenantId, policy(owner.userId, { name: 'Existing' }));
        for (const res of [await owner.agent.post(url(owner.tenantId), body(owner.userId)), await owner.agent.put(url(owner.tenantId, existing.id), body(owner.userId))]) {
          expect(res.statusCode, res.body).toBe(400);
          expect(res.data.error).toMatchObject({ code: 'validation_failed', message });
          expect(res.data.error.fields[field]).toBe(message);
        }
        expect((await owner.agent.get(url(owner.tenantId))).data.items).toEqual([existing]);
      });
    }

    it('reports both spec texts, the name first', async () => {
      const owner = await registerOwner(t().app);
      const res = await owner.agent.post(url(owner.tenantId), { level_1: { userIds: [] } });
      expect(res.data.error.message).toBe(MSG.policyNameRequired);
      expect(res.data.error.fields).toEqual({ name: MSG.policyNameRequired, 'level_1.userIds': MSG.level1UserRequired });
    });

    it('stores invalid times as 0, info as null, and level delays as 30 and 60 (the spec’s coercions)', async () => {
      const owner = await registerOwner(t().app);
      const p = await create(
        owner.agent,
        owner.tenantId,
        policy(owner.userId, { escalationTimes: { critical: '', high: 'abc', medium: 0, low: -1, info: '' }, level_2: { timeAfterPrevious: '' }, level_3: { timeAfterPrevious: 0 } }),
      );
      expect(p.escalationTimes).toEqual({ critical: 0, high: 0, medium: 0, low: 0, info: null });
      expect([p.level_2.timeAfterPrevious, p.level_3.timeAfterPrevious]).toEqual([30, 60]);
      // What the server answered goes back unchanged.
      const again = await owner.agent.put(url(owner.tenantId, p.id), p);
      expect(again.data).toMatchObject({ escalationTimes: p.escalationTimes, level_2: p.level_2, level_3: p.level_3 });
    });

    it('refuses users who are not active members of the tenant, naming the level', async () => {
      const env = t();
      const owner = await registerOwner(env.app);
      const stranger = await registerOwner(env.app);
      const res = await owner.agent.post(url(owner.tenantId), policy(owner.userId, { level_2: { userIds: [stranger.userId] }, level_3: { userIds: ['no-such-user'] } }));
      expect(res.statusCode).toBe(400);
      expect(res.data.error).toEqual({
        code: 'bad_request',
        message: ESCALATION_MSG.unknownUsers,
        fields: { 'level_2.userIds': ESCALATION_MSG.unknownUsers, 'level_3.userIds': ESCALATION_MSG.unknownUsers },
      });
      expect((await owner.agent.post(url(owner.tenantId), { name: 'P', level_1: { userIds: [stranger.userId] } })).data.error.fields).toEqual({
        'level_1.userIds': ESCALATION_MSG.unknownUsers,
      });
      expect((await owner.agent.get(url(owner.tenantId))).data.items).toEqual([]);
    });

    it('takes the tenant’s own schedules and refuses another tenant’s or a missing one, naming the level', async () => {
      const owner = await registerOwner(t().app);
      const other = await registerOwner(t().app);
      const own = await createSchedule(owner.agent, owner.tenantId, owner.userId);
      const foreign = await createSchedule(other.agent, other.tenantId, other.userId);
      const ok = await create(owner.agent, owner.tenantId, policy(owner.userId, { level_2: { scheduleIds: [own, own] } }));
      expect(ok.level_2.scheduleIds).toEqual([own]);
      for (const ids of [[foreign], [own, 'no-such-schedule']]) {
        const res = await owner.agent.put(url(owner.tenantId, ok.id), policy(owner.userId, { level_3: { scheduleIds: ids } }));
        expect(res.statusCode).toBe(400);
        expect(res.data.error.fields).toEqual({ 'level_3.scheduleIds': ESCALATION_MSG.unknownSchedules });
      }
      expect((await owner.agent.get(url(owner.tenantId, ok.id))).data).toEqual(ok);
    });
  });

  describe('one default per tenant (spec section 4)', () => {
    it('clears the old default when a new one is saved, on create and on edit, and keeps it on a re-save', async () => {
      const env = t();
      const owner = await registerOwner(env.app);
      const other = await registerOwner(env.app);
      const theirs = await create(other.agent, other.tenantId, policy(other.userId, { isDefault: true }));
      const a = await create(owner.agent, owner.tenantId, policy(owner.userId, { name: 'A', isDefault: true }));
      const b = await create(owner.agent, owner.tenantId, policy(owner.userId, { name: 'B', isDefault: true }));
      expect(await defaults(env, owner.tenantId)).toEqual([b.id]);
      expect((await owner.agent.get(url(owner.tenantId, a.id))).data.isDefault).toBe(false);

      const aDefault = await owner.agent.put(url(owner.tenantId, a.id), policy(owner.userId, { name: 'A', isDefault: true }));
      expect(aDefault.data.isDefault).toBe(true);
      expect(await defaults(env, owner.tenantId)).toEqual([a.id]);
      // Saving the default again leaves it the default; another tenant's default is never touched.
      await owner.agent.put(url(owner.tenantId, a.id), policy(owner.userId, { name: 'A again', isDefault: true }));
      expect(await defaults(env, owner.tenantId)).toEqual([a.id]);
      expect(await defaults(env, other.tenantId)).toEqual([theirs.id]);
      // Un-marking leaves the tenant without a default.
      await owner.agent.put(url(owner.tenantId, a.id), policy(owner.userId, { name: 'A' }));
      expect(await defaults(env, owner.tenantId)).toEqual([]);
    });

    it('keeps exactly one default when several are saved at the same moment', async () => {
      const env = t();
      const owner = await registerOwner(env.app);
      const admin = await addMember(env.deps, env.app, owner.tenantId, 'admin');
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? admin : owner).agent.post(url(owner.tenantId), policy(owner.userId, { name: `Race ${i}`, isDefault: true }))),
      );
      expect(created.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
      const afterCreate = await defaults(env, owner.tenantId);
      expect(afterCreate).toHaveLength(1);
      const list = (await owner.agent.get(url(owner.tenantId))).data.items as Array<{ id: string; isDefault: boolean }>;
      expect(list.filter((p) => p.isDefault).map((p) => p.id)).toEqual(afterCreate);

      // Concurrent edits that each make a different policy the default.
      const ids = created.map((r) => r.data.id as string);
      const edited = await Promise.all(ids.map((id, i) => owner.agent.put(url(owner.tenantId, id), policy(owner.userId, { name: `Edited ${i}`, isDefault: true }))));
      expect(edited.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
      expect(await defaults(env, owner.tenantId)).toHaveLength(1);
    });
  });

  it('deletes a policy and takes it off integrations and clients in the same step; the default leaves none', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const other = await registerOwner(env.app);
    const p = await create(owner.agent, owner.tenantId, policy(owner.userId, { isDefault: true }));
    const keep = await create(owner.agent, owner.tenantId, policy(owner.userId, { name: 'Keep' }));
    const client = await owner.agent.post(`/api/tenants/${owner.tenantId}/clients`, { name: 'Initech', status: 'active', escalationPolicyId: p.id });
    expect(client.data.escalationPolicyId).toBe(p.id);
    const kept = await owner.agent.post(`/api/tenants/${owner.tenantId}/clients`, { name: 'Globex', status: 'active', escalationPolicyId: keep.id });
    const integration = await owner.agent.post(`/api/tenants/${owner.tenantId}/integrations`, { name: 'Prometheus', escalationPolicyId: p.id });
    expect(integration.data.integration.escalationPolicyId).toBe(p.id);
    const theirs = await create(other.agent, other.tenantId, policy(other.userId));

    const res = await owner.agent.delete(url(owner.tenantId, p.id));
    expect(res.data).toEqual({ ok: true });
    expect((await owner.agent.get(url(owner.tenantId, p.id))).statusCode).toBe(404);
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/clients/${client.data.id}`)).data.escalationPolicyId).toBeNull();
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/clients/${kept.data.id}`)).data.escalationPolicyId).toBe(keep.id);
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/integrations`)).data.items[0].escalationPolicyId).toBeNull();
    expect(await defaults(env, owner.tenantId)).toEqual([]);
    expect((await other.agent.get(url(other.tenantId, theirs.id))).statusCode).toBe(200);
    expect((await owner.agent.delete(url(owner.tenantId, p.id))).statusCode).toBe(404);
  });

  it('lets integrations and clients name a policy of their tenant only (400 otherwise), and clear it', async () => {
    const owner = await registerOwner(t().app);
    const other = await registerOwner(t().app);
    const mine = await create(owner.agent, owner.tenantId, policy(owner.userId));
    const foreign = await create(other.agent, other.tenantId, policy(other.userId));
    const clients = `/api/tenants/${owner.tenantId}/clients`;
    const integrations = `/api/tenants/${owner.tenantId}/integrations`;
    const expected = { code: 'bad_request', message: ESCALATION_MSG.policyNotFound, fields: { escalationPolicyId: ESCALATION_MSG.policyNotFound } };

    for (const id of [foreign.id, 'no-such-policy']) {
      const c = await owner.agent.post(clients, { name: 'Initech', status: 'active', escalationPolicyId: id });
      expect(c.statusCode).toBe(400);
      expect(c.data.error).toEqual(expected);
      const i = await owner.agent.post(integrations, { name: 'Zabbix', escalationPolicyId: id });
      expect(i.statusCode).toBe(400);
      expect(i.data.error).toEqual(expected);
    }
    expect((await owner.agent.get(clients)).data.total).toBe(0);

    const c = await owner.agent.post(clients, { name: 'Initech', status: 'active', escalationPolicyId: mine.id });
    const cleared = await owner.agent.put(`${clients}/${c.data.id}`, { name: 'Initech', status: 'active', escalationPolicyId: '' });
    expect(cleared.data.escalationPolicyId).toBeNull();
    expect((await owner.agent.put(`${clients}/${c.data.id}`, { name: 'Initech', status: 'active', escalationPolicyId: foreign.id })).statusCode).toBe(400);

    const i = await owner.agent.post(integrations, { name: 'Zabbix' });
    expect(i.data.integration.escalationPolicyId).toBeNull();
    const set = await owner.agent.patch(`${integrations}/${i.data.integration.id}`, { escalationPolicyId: mine.id });
    expect(set.data.escalationPolicyId).toBe(mine.id);
    // A rename leaves the policy alone; null clears it.
    expect((await owner.agent.patch(`${integrations}/${i.data.integration.id}`, { name: 'Zabbix 7' })).data.escalationPolicyId).toBe(mine.id);
    expect((await owner.agent.patch(`${integrations}/${i.data.integration.id}`, { escalationPolicyId: foreign.id })).statusCode).toBe(400);
    expect((await owner.agent.patch(`${integrations}/${i.data.integration.id}`, { escalationPolicyId: null })).data.escalationPolicyId).toBeNull();
  });

  it('answers 400, not 500, when the named policy is deleted between the check and the write', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const p = await create(owner.agent, owner.tenantId, policy(owner.userId));
    const clientId = await insertClient(env.deps.db, owner.tenantId, 'Initech');
    // The write runs after the check passed; the policy goes away just before it, as a concurrent delete would.
    const raced = writeWithPolicyRef(env.deps.db, owner.tenantId, p.id, async () => {
      await owner.agent.delete(url(owner.tenantId, p.id));
      await env.deps.db.updateTable('clients').set({ escalation_policy_id: p.id }).where('id', '=', clientId).execute();
    });
    await expect(raced).rejects.toMatchObject({ statusCode: 400, message: ESCALATION_MSG.policyNotFound, fields: { escalationPolicyId: ESCALATION_MSG.policyNotFound } });
    const row = await env.deps.db.selectFrom('clients').select('escalation_policy_id').where('id', '=', clientId).executeTakeFirstOrThrow();
    expect(row.escalation_policy_id).toBeNull();
  });

  describe('policyForAlert: which policy governs an alert', () => {
    it('takes the integration’s policy, else the client’s, else the tenant default, else none', async () => {
      const env = t();
      const { db } = env.deps;
      const owner = await registerOwner(env.app);
      const other = await registerOwner(env.app);
      const tenantId = owner.tenantId;
      const make = (name: string, extra: Record<string, unknown> = {}) => create(owner.agent, tenantId, policy(owner.userId, { name, ...extra }));
      const viaIntegration = await make('Integration policy');
      const viaClient = await make('Client policy');

      const clientWith = (await owner.agent.post(`/api/tenants/${tenantId}/clients`, { name: 'With', status: 'active', escalationPolicyId: viaClient.id })).data.id;
      const clientWithout = await insertClient(db, tenantId, 'Without');
      const intWith = (await owner.agent.post(`/api/tenants/${tenantId}/integrations`, { name: 'With', escalationPolicyId: viaIntegration.id })).data.integration.id;
      const intWithout = (await owner.agent.post(`/api/tenants/${tenantId}/integrations`, { name: 'Without' })).data.integration.id;

      const pick = async (integrationId: string | null, clientId: string | null) => (await policyForAlert(db, tenantId, { integrationId, clientId }))?.name ?? null;
      // No default yet: only an integration's or a client's policy pages.
      expect(await pick(null, null)).toBeNull();
      expect(await pick(intWithout, clientWithout)).toBeNull();
      expect(await pick(intWith, clientWith)).toBe('Integration policy');
      expect(await pick(intWith, null)).toBe('Integration policy');
      expect(await pick(intWithout, clientWith)).toBe('Client policy');
      expect(await pick(null, clientWith)).toBe('Client policy');

      await make('Default policy', { isDefault: true });
      expect(await pick(null, null)).toBe('Default policy');
      expect(await pick(intWithout, clientWithout)).toBe('Default policy');
      expect(await pick(intWith, clientWith)).toBe('Integration policy');
      expect(await pick(intWithout, clientWith)).toBe('Client policy');
      // Unknown ids, and ids of another tenant's integration or client, fall through to this tenant's default.
      const theirClient = await insertClient(db, other.tenantId, 'Theirs');
      await create(other.agent, other.tenantId, policy(other.userId, { name: 'Their default', isDefault: true }));
      expect(await pick('no-such-integration', theirClient)).toBe('Default policy');
      expect((await policyForAlert(db, other.tenantId, { integrationId: intWith, clientId: clientWith }))?.name).toBe('Their default');

      // Deleting the integration's policy hands its alerts to the client's.
      await owner.agent.delete(url(tenantId, viaIntegration.id));
      expect(await pick(intWith, clientWith)).toBe('Client policy');
      const full = await policyForAlert(db, tenantId, { integrationId: intWith, clientId: clientWith });
      expect(full).toEqual((await owner.agent.get(url(tenantId, viaClient.id))).data);
      // The engine's batch look-up: policies of any tenant by id, each with its tenant; a deleted or unknown id is absent.
      const byId = await policiesByIds(db, [viaClient.id, viaIntegration.id, full!.id, 'no-such-policy']);
      expect([...byId]).toEqual([[viaClient.id, { tenantId, policy: full }]]);
    });
  });
});
