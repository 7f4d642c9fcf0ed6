import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { Agent, describeEachDatabase } from '../test/test-app.ts';
import { addMember, registerOwner } from '../test/factories.ts';
import { AppError, registerErrorHandling } from './errors.ts';
import { registerSession } from './session.ts';
import { registerTenantContext } from './tenant-context.ts';
import { authorize, tenantAbilities } from '../modules/tenants/tenants.policy.ts';
import { loadTenantContext } from '../modules/tenants/tenants.service.ts';
import { findSessionStanding, findSessionUser } from '../modules/auth/sessions.repository.ts';
import { sessionLookup } from '../modules/auth/sessions.service.ts';
import { findTenantForUser } from '../modules/tenants/tenants.repository.ts';

/**
 * The `tenantScoped` route option on its own, on a bare server sharing the test app's database and wired like app.ts
 * wires it (the auth and tenants modules' look-ups): what it answers and what it hands the handler. Every real
 * endpoint's 401/404/403 is tested in its module.
 */
describeEachDatabase('tenantScoped routes', (t) => {
  let probe: FastifyInstance;

  beforeAll(async () => {
    probe = Fastify({ logger: false });
    registerErrorHandling(probe);
    await probe.register(cookie);
    const { db } = t().deps;
    registerSession(probe, sessionLookup(db));
    registerTenantContext(probe, (user, tenantId, standing) => loadTenantContext(db, user, tenantId, standing));
    probe.get('/api/tenants/:tenantId/probe', { config: { tenantScoped: true } }, async (req) => ({
      tenantId: req.tenantContext.tenant.id,
      userId: req.tenantContext.user.id,
      role: req.tenantContext.role,
      manageMembers: req.tenantContext.abilities.manageMembers,
    }));
    probe.get('/api/not-scoped/:tenantId', async (req) => ({ tenantId: req.tenantContext.tenant.id }));
    await probe.ready();
  });
  afterAll(async () => {
    await probe?.close();
  });

  const call = (agent: Agent | null, tenantId: string, path = `/api/tenants/${tenantId}/probe`) =>
    probe.inject({ method: 'GET', url: path, headers: agent?.cookie ? { cookie: agent.cookie } : {} });

  it('hands the handler the caller’s verified tenant, role and abilities', async () => {
    const owner = await registerOwner(t().app);
    const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
    const asOwner = await call(owner.agent, owner.tenantId);
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.json()).toEqual({ tenantId: owner.tenantId, userId: owner.userId, role: 'owner', manageMembers: true });
    const asMember = await call(member.agent, owner.tenantId);
    expect(asMember.json()).toEqual({ tenantId: owner.tenantId, userId: member.userId, role: 'user', manageMembers: false });
  });

  it('answers 401 without a session', async () => {
    const owner = await registerOwner(t().app);
    const res = await call(null, owner.tenantId);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'unauthorized', message: 'You must be signed in' } });
  });

  it('answers a tenant the caller is not a member of exactly like a missing one: 404, same body', async () => {
    const owner = await registerOwner(t().app);
    const stranger = await registerOwner(t().app);
    const other = await call(stranger.agent, owner.tenantId);
    const missing = await call(stranger.agent, 'no-such-tenant');
    expect(other.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(other.body).toBe(missing.body);
  });

  it('reads the standing with the session exactly as asked apart, and checks odd ids the same way without it', async () => {
    const owner = await registerOwner(t().app);
    const member = await addMember(t().deps, t().app, owner.tenantId, 'admin');
    const token = member.agent.cookie!.replace(/^alertdesk_session=/, '');
    const db = t().deps.db;
    const together = await findSessionStanding(db, token, owner.tenantId);
    expect(together?.user).toEqual(await findSessionUser(db, token));
    const apart = await findTenantForUser(db, owner.tenantId, member.userId);
    expect(together?.standing).toEqual({ tenantId: owner.tenantId, tenant: apart!.tenant, memberRole: 'admin' });
    const elsewhere = await findSessionStanding(db, token, (await registerOwner(t().app)).tenantId);
    expect(elsewhere?.standing.tenant?.id).toBeDefined();
    expect(elsewhere?.standing.memberRole).toBeNull();
    expect((await findSessionStanding(db, token, 'no-such-tenant'))?.standing.tenant).toBeUndefined();
    expect(await findSessionStanding(db, 'not-a-session', owner.tenantId)).toBeUndefined();
    // Not of the shape we issue: not read with the session, still answered like any missing tenant.
    const odd = await call(member.agent, 'no such tenant', `/api/tenants/${encodeURIComponent('no such tenant')}/probe`);
    const missing = await call(member.agent, 'no-such-tenant');
    expect(odd.statusCode).toBe(404);
    expect(odd.body).toBe(missing.body);
  });

  it('fails loudly (500) when a handler reads req.tenantContext on a route that did not declare tenantScoped', async () => {
    const owner = await registerOwner(t().app);
    const res = await call(owner.agent, owner.tenantId, `/api/not-scoped/${owner.tenantId}`);
    expect(res.statusCode).toBe(500);
  });

  it('refuses to declare tenantScoped on a route without a :tenantId parameter', async () => {
    const app = Fastify({ logger: false });
    registerTenantContext(app, async () => null);
    expect(() => app.get('/api/profile/probe', { config: { tenantScoped: true } }, async () => ({}))).toThrow(/needs a :tenantId parameter/);
    await app.close();
  });
});

describe('authorize, the one ability verb services start with', () => {
  it('passes when the role grants the ability and answers 403 with the given text (or the generic one) when not', () => {
    expect(() => authorize({ abilities: tenantAbilities('admin') }, 'manageMembers')).not.toThrow();
    const refused = (message?: string) => {
      try {
        authorize({ abilities: tenantAbilities('user') }, 'manageIntegrations', message);
      } catch (err) {
        return err instanceof AppError ? [err.statusCode, err.code, err.message] : err;
      }
      return 'not refused';
    };
    expect(refused()).toEqual([403, 'forbidden', 'You do not have permission to do this']);
    expect(refused('Only owners and admins can do that')).toEqual([403, 'forbidden', 'Only owners and admins can do that']);
  });
});
