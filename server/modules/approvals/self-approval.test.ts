import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';

describeEachDatabase('approvals: approving one’s own request', (t) => {
  const policies = (tenantId: string, id = '') => `/api/tenants/${tenantId}/approvalPolicies${id ? `/${id}` : ''}`;
  const requests = (tenantId: string, id = '', action = '') => `/api/tenants/${tenantId}/approvalRequests${id ? `/${id}` : ''}${action ? `/${action}` : ''}`;

  /** A change policy whose manager level is the requester (and maybe a colleague), then a director. */
  async function setup(managers: 'alone' | 'with a colleague', selfApprovalAllowed?: boolean) {
    const owner = await registerOwner(t().app);
    const requester = await addMember(t().deps, t().app, owner.tenantId);
    const colleague = await addMember(t().deps, t().app, owner.tenantId);
    const director = await addMember(t().deps, t().app, owner.tenantId);
    const policy = await owner.agent.post(policies(owner.tenantId), {
      name: 'Changes',
      description: 'Change approvals',
      type: 'change',
      levels: [
        { level: 'manager', approvers: managers === 'alone' ? [requester.userId] : [requester.userId, colleague.userId], timeToExpire: 24 },
        { level: 'director', approvers: [director.userId], timeToExpire: 8 },
      ],
      ...(selfApprovalAllowed === undefined ? {} : { selfApprovalAllowed }),
    });
    expect(policy.statusCode, policy.body).toBe(201);
    const created = await requester.agent.post(requests(owner.tenantId), { title: 'Firewall change', description: 'Open 443', type: 'change' });
    expect(created.statusCode, created.body).toBe(201);
    return { owner, requester, colleague, director, tenantId: owner.tenantId, policy: policy.data, request: created.data };
  }

  it('refuses it while another approver could decide the level, and unless the policy allows it', async () => {
    for (const [managers, allowed] of [['with a colleague', true], ['alone', undefined], ['alone', false]] as const) {
      const { requester, colleague, tenantId, request, policy } = await setup(managers, allowed);
      expect(policy.selfApprovalAllowed).toBe(allowed ?? false);
      const shown = await requester.agent.get(requests(tenantId, request.id));
      expect(shown.data.can).toMatchObject({ approve: false, reject: true, cancel: true });
      const res = await requester.agent.post(requests(tenantId, request.id, 'approve'), { comment: 'looks fine to me' });
      expect(res.statusCode).toBe(403);
      expect(res.data.error.message).toBe('You cannot approve your own request');
      expect((await requester.agent.get(requests(tenantId, request.id))).data).toMatchObject({ status: 'pending', currentLevel: 0 });
      if (managers === 'with a colleague') expect((await colleague.agent.post(requests(tenantId, request.id, 'approve'), { comment: null })).statusCode).toBe(200);
    }
  });

  it('lets the requester approve where they alone decide the level and the policy allows it; the next level still decides', async () => {
    const { requester, director, tenantId, request } = await setup('alone', true);
    expect((await requester.agent.get(requests(tenantId, request.id))).data.can.approve).toBe(true);
    const res = await requester.agent.post(requests(tenantId, request.id, 'approve'), { comment: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ status: 'pending', currentLevel: 1 });
    expect((await director.agent.post(requests(tenantId, request.id, 'approve'), { comment: null })).data.status).toBe('approved');
  });
});
