import { expect, it } from 'vitest';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';

describeEachDatabase('approvals: which request types have an active policy', (t) => {
  const types = (tenantId: string) => `/api/tenants/${tenantId}/approvalRequestTypes`;
  const policies = (tenantId: string, id = '') => `/api/tenants/${tenantId}/approvalPolicies${id ? `/${id}` : ''}`;
  const flags = (data: { items: Array<{ type: string; hasActivePolicy: boolean }> }) => Object.fromEntries(data.items.map((i) => [i.type, i.hasActivePolicy]));

  it('answers every member, in the types’ order, following policies made, deactivated and turned back on', async () => {
    const owner = await registerOwner(t().app);
    const member = await addMember(t().deps, t().app, owner.tenantId);
    const none = await member.agent.get(types(owner.tenantId));
    expect(none.statusCode, none.body).toBe(200);
    expect(none.data).toEqual({
      items: [
        { type: 'expense', hasActivePolicy: false },
        { type: 'access', hasActivePolicy: false },
        { type: 'change', hasActivePolicy: false },
        { type: 'custom', hasActivePolicy: false },
      ],
    });

    const body = { name: 'Spend', description: 'Money', type: 'expense', levels: [{ level: 'manager', approvers: [owner.userId] }] };
    const made = await owner.agent.post(policies(owner.tenantId), body);
    expect(made.statusCode, made.body).toBe(201);
    // A second active policy of the same type still counts once.
    expect((await owner.agent.post(policies(owner.tenantId), { ...body, name: 'Spend 2' })).statusCode).toBe(201);
    expect((await owner.agent.post(policies(owner.tenantId), { ...body, name: 'Changes', type: 'change' })).statusCode).toBe(201);
    expect(flags((await member.agent.get(types(owner.tenantId))).data)).toEqual({ expense: true, access: false, change: true, custom: false });

    // An inactive policy does not count; another active one of its type still does.
    const changes = (await owner.agent.get(policies(owner.tenantId))).data.items.find((p: { name: string }) => p.name === 'Changes');
    expect((await owner.agent.delete(policies(owner.tenantId, changes.id))).statusCode).toBe(200);
    expect((await owner.agent.delete(policies(owner.tenantId, made.data.id))).statusCode).toBe(200);
    expect(flags((await member.agent.get(types(owner.tenantId))).data)).toEqual({ expense: true, access: false, change: false, custom: false });
    const { id: _id, tenantId: _t, createdAt: _c, updatedAt: _u, ...fields } = changes;
    expect((await owner.agent.put(policies(owner.tenantId, changes.id), { ...fields, active: true })).statusCode).toBe(200);
    expect(flags((await owner.agent.get(types(owner.tenantId))).data)).toEqual({ expense: true, access: false, change: true, custom: false });
  });

  it('answers 401 without a session and 404 for another tenant, like a missing one', async () => {
    const owner = await registerOwner(t().app);
    expect((await new Agent(t().app).get(types(owner.tenantId))).statusCode).toBe(401);
    const other = await registerOwner(t().app, { tenantName: 'Other MSP' });
    const res = await other.agent.get(types(owner.tenantId));
    expect(res.statusCode).toBe(404);
    expect(res.data).toEqual((await other.agent.get(types('no-such-tenant'))).data);
  });
});
