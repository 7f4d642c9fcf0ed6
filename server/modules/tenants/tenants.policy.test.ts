import { describe, expect, it } from 'vitest';
import { resolveRole, tenantAbilities } from './tenants.policy.ts';
import { describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner, superAdmin } from '../../test/factories.ts';

describe('role resolution (pure)', () => {
  it('makes the tenant owner owner whatever the member row says', () => {
    expect(resolveRole('u1', { owner_id: 'u1' }, { role: 'user' })).toBe('owner');
    expect(resolveRole('u2', { owner_id: 'u1' }, { role: 'admin' })).toBe('admin');
    expect(resolveRole('u3', { owner_id: 'u1' }, undefined)).toBeNull();
  });
  it('gives member management to owners and admins only; clients to everyone', () => {
    expect(tenantAbilities('owner').manageMembers).toBe(true);
    expect(tenantAbilities('admin').manageEscalation).toBe(true);
    expect(tenantAbilities('user')).toMatchObject({ manageMembers: false, manageEscalation: false, manageApprovalPolicies: false, manageClients: true });
  });
});

describeEachDatabase('roles in /api/me', (t) => {
  it('reports each tenant with the caller’s role, and super admin rights', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app, { tenantName: 'Alpha' });
    const admin = await addMember(deps, app, owner.tenantId, 'admin');
    const user = await addMember(deps, app, owner.tenantId, 'user');
    const adminMe = (await admin.agent.get('/api/me')).data;
    expect(adminMe.tenants.map((x: { name: string; role: string }) => [x.name, x.role]).sort()).toEqual([
      ['Alpha', 'admin'],
      ['Their own MSP', 'owner'],
    ]);
    const userMe = (await user.agent.get('/api/me')).data;
    const alpha = userMe.tenants.find((x: { id: string }) => x.id === owner.tenantId);
    expect(alpha.role).toBe('user');
    expect(alpha.abilities.manageMembers).toBe(false);
    expect(userMe.abilities.systemAdmin).toBe(false);
    const sa = await superAdmin(deps, app);
    expect((await sa.agent.get('/api/me')).data.abilities.systemAdmin).toBe(true);
  });

});
