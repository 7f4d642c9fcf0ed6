import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { API_TOKEN_MSG } from '../../../contract/api-tokens.ts';
import { INVALID_PER_MINUTE } from './api-tokens.service.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner, registerTeam, superAdmin } from '../../test/factories.ts';
import { alertTenant } from '../../test/alerts.ts';

/** A request as a script makes it: the token, no cookie, no Origin. */
async function withToken(app: FastifyInstance, token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return Object.assign(res, { data: res.body ? JSON.parse(res.body) : null });
}

async function mint(agent: Agent, tenantId: string, body: Record<string, unknown> = {}) {
  const res = await agent.post(`/api/tenants/${tenantId}/apiTokens`, { name: 'CI bot', role: 'write', ...body });
  if (res.statusCode !== 201) throw new Error(`mint failed: ${res.statusCode} ${res.body}`);
  return res.data as { id: string; token: string; prefix: string };
}

describeEachDatabase(
  'API tokens',
  (t) => {
    it('owners and admins create a token shown once and stored as a hash; list, revoke; members may not', async () => {
      const team = await registerTeam(t());
      const base = `/api/tenants/${team.tenantId}/apiTokens`;
      const created = await team.admin.agent.post(base, { name: '  CI bot  ', role: 'read', expiresInDays: 30 });
      expect(created.statusCode).toBe(201);
      const tok = created.data;
      expect(tok.token).toMatch(/^adk_[A-Za-z0-9_-]{43}$/);
      expect(tok).toMatchObject({ name: 'CI bot', role: 'read', prefix: tok.token.slice(0, 10), lastUsedAt: null });
      expect(new Date(tok.expiresAt).getTime() - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
      const row = await t().deps.db.selectFrom('api_tokens').selectAll().where('id', '=', tok.id).executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(createHash('sha256').update(tok.token).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(tok.token);

      const list = await team.owner.agent.get(base);
      expect(list.statusCode).toBe(200);
      expect(list.data.items).toHaveLength(1);
      expect(list.data.items[0]).toMatchObject({ id: tok.id, name: 'CI bot', role: 'read', createdByName: expect.any(String) });
      expect(JSON.stringify(list.data)).not.toContain(tok.token);

      expect((await team.user.agent.get(base)).statusCode).toBe(403);
      expect((await team.user.agent.post(base, { name: 'x', role: 'read' })).statusCode).toBe(403);
      expect((await team.user.agent.delete(`${base}/${tok.id}`)).statusCode).toBe(403);

      const bad = await team.owner.agent.post(base, { name: ' ', role: 'admin', expiresInDays: 0 });
      expect(bad.statusCode).toBe(400);
      expect(bad.data.error.fields).toMatchObject({ name: API_TOKEN_MSG.nameRequired, role: "Role must be 'read' or 'write'", expiresInDays: API_TOKEN_MSG.expiryRange });

      // Another tenant's owner: 404, like a missing tenant.
      const stranger = await registerOwner(t().app);
      expect((await stranger.agent.get(base)).statusCode).toBe(404);
      expect((await stranger.agent.delete(`/api/tenants/${stranger.tenantId}/apiTokens/${tok.id}`)).statusCode).toBe(404);

      expect((await team.owner.agent.delete(`${base}/${tok.id}`)).statusCode).toBe(200);
      expect((await team.owner.agent.get(base)).data.items).toEqual([]);
      expect((await team.owner.agent.delete(`${base}/${tok.id}`)).statusCode).toBe(404);
    });

    it('a read token reads the tenant REST API and nothing else; it may not write', async () => {
      const owner = await registerOwner(t().app);
      const { token } = await mint(owner.agent, owner.tenantId, { role: 'read' });
      const tenant = `/api/tenants/${owner.tenantId}`;
      for (const path of ['alerts', 'clients', 'heartbeats', 'integrations', 'escalationPolicies', 'onCallSchedules']) {
        const res = await withToken(t().app, token, 'GET', `${tenant}/${path}`);
        expect([path, res.statusCode]).toEqual([path, 200]);
      }
      const post = await withToken(t().app, token, 'POST', `${tenant}/clients`, { name: 'Initech', status: 'active' });
      expect(post.statusCode).toBe(403);
      expect(post.data.error.message).toBe(API_TOKEN_MSG.readOnly);
    });

    it('a write token writes as an admin; never on members, tokens, destinations, profile, account or system routes', async () => {
      const owner = await registerOwner(t().app);
      const { token } = await mint(owner.agent, owner.tenantId);
      const tenant = `/api/tenants/${owner.tenantId}`;
      const client = await withToken(t().app, token, 'POST', `${tenant}/clients`, { name: 'Initech', status: 'active' });
      expect(client.statusCode).toBe(201);
      const integration = await withToken(t().app, token, 'POST', `${tenant}/integrations`, { name: 'Prometheus' });
      expect(integration.statusCode).toBe(201);

      const notHere = await withToken(t().app, token, 'GET', `${tenant}/members`);
      expect(notHere.statusCode).toBe(403);
      expect(notHere.data.error.message).toBe(API_TOKEN_MSG.notHere);
      expect((await withToken(t().app, token, 'POST', `${tenant}/members`, { email: 'x@example.com', role: 'admin' })).statusCode).toBe(403);
      expect((await withToken(t().app, token, 'GET', `${tenant}/details`)).statusCode).toBe(403);
      expect((await withToken(t().app, token, 'GET', `${tenant}/apiTokens`)).statusCode).toBe(403);
      expect((await withToken(t().app, token, 'POST', `${tenant}/apiTokens`, { name: 'more', role: 'write' })).statusCode).toBe(403);
      expect((await withToken(t().app, token, 'GET', `${tenant}/notification-preferences`)).statusCode).toBe(403);
      // Not a tenant's route: the token is nobody there.
      expect((await withToken(t().app, token, 'GET', '/api/me')).statusCode).toBe(401);
      expect((await withToken(t().app, token, 'PATCH', '/api/profile', { displayName: 'Hacked' })).statusCode).toBe(401);
      expect((await withToken(t().app, token, 'GET', '/api/tenants')).statusCode).toBe(401);
      expect((await withToken(t().app, token, 'DELETE', tenant)).statusCode).toBe(401);
      expect((await owner.agent.get(`${tenant}/clients`)).data.total).toBe(1);
    });

    it("another tenant's routes answer 404, even where the token's creator is a member", async () => {
      const owner = await registerOwner(t().app);
      const other = await registerOwner(t().app);
      // The creator is an admin of the other tenant too: the token still only works in its own.
      const admin = await addMember(t().deps, t().app, other.tenantId, 'admin');
      const { token } = await mint(owner.agent, owner.tenantId);
      await t().deps.db.updateTable('api_tokens').set({ created_by: admin.userId }).where('tenant_id', '=', owner.tenantId).execute();
      expect((await withToken(t().app, token, 'GET', `/api/tenants/${other.tenantId}/clients`)).statusCode).toBe(404);
      expect((await withToken(t().app, token, 'GET', `/api/tenants/no-such-tenant/clients`)).statusCode).toBe(404);
      // Its creator is no member of the token's tenant: the token is dead.
      expect((await withToken(t().app, token, 'GET', `/api/tenants/${owner.tenantId}/clients`)).statusCode).toBe(401);
    });

    it('revoked, expired and unknown tokens answer 401; a creator made a plain user caps a write token', async () => {
      const team = await registerTeam(t());
      const tenant = `/api/tenants/${team.tenantId}`;
      const revoked = await mint(team.admin.agent, team.tenantId);
      expect((await withToken(t().app, revoked.token, 'GET', `${tenant}/clients`)).statusCode).toBe(200);
      await team.owner.agent.delete(`${tenant}/apiTokens/${revoked.id}`);
      const res = await withToken(t().app, revoked.token, 'GET', `${tenant}/clients`);
      expect(res.statusCode).toBe(401);
      expect(res.data.error.message).toBe(API_TOKEN_MSG.invalid);

      const expiring = await mint(team.admin.agent, team.tenantId, { expiresInDays: 1 });
      await t().deps.db.updateTable('api_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expiring.id).execute();
      expect((await withToken(t().app, expiring.token, 'GET', `${tenant}/clients`)).statusCode).toBe(401);
      expect((await withToken(t().app, 'adk_nonsense', 'GET', `${tenant}/clients`)).statusCode).toBe(401);
      expect((await withToken(t().app, 'adk_', 'GET', `${tenant}/clients`)).statusCode).toBe(401);

      const capped = await mint(team.admin.agent, team.tenantId);
      expect((await withToken(t().app, capped.token, 'POST', `${tenant}/integrations`, { name: 'Before' })).statusCode).toBe(201);
      await t().deps.db.updateTable('tenant_members').set({ role: 'user' }).where('tenant_id', '=', team.tenantId).where('user_id', '=', team.admin.userId).execute();
      expect((await withToken(t().app, capped.token, 'POST', `${tenant}/integrations`, { name: 'After' })).statusCode).toBe(403);
      expect((await withToken(t().app, capped.token, 'POST', `${tenant}/clients`, { name: 'Still a member', status: 'active' })).statusCode).toBe(201);
    });

    it('a cookie and a token together gain nothing: the token alone decides, and the CSRF check stays', async () => {
      const owner = await registerOwner(t().app);
      const { token } = await mint(owner.agent, owner.tenantId, { role: 'read' });
      const tenant = `/api/tenants/${owner.tenantId}`;
      const both = await owner.agent.request('POST', `${tenant}/clients`, { name: 'Initech', status: 'active' }, { authorization: `Bearer ${token}` });
      expect(both.statusCode).toBe(403);
      expect(both.data.error.message).toBe(API_TOKEN_MSG.readOnly);
      // Account routes with both: the cookie is not read.
      expect((await owner.agent.request('GET', '/api/me', undefined, { authorization: `Bearer ${token}` })).statusCode).toBe(401);
      // A cross-site request with the cookie is refused whatever token it carries.
      const cross = await owner.agent.request('POST', `${tenant}/clients`, { name: 'Initech', status: 'active' }, { authorization: `Bearer ${token}`, origin: 'https://evil.example' });
      expect(cross.statusCode).toBe(403);
      expect(cross.data.error.code).toBe('cross_origin');
      // Without a cookie, no Origin check applies to a token (a script), and a write token writes.
      const write = await mint(owner.agent, owner.tenantId);
      expect((await withToken(t().app, write.token, 'POST', `${tenant}/clients`, { name: 'Initech', status: 'active' }, { origin: 'https://ci.example' })).statusCode).toBe(201);
      // A super admin's session with a token of a tenant: still only the token.
      const sa = await superAdmin(t().deps, t().app);
      expect((await sa.agent.request('GET', '/api/users', undefined, { authorization: `Bearer ${token}` })).statusCode).toBe(401);
    });

    it('OpenAPI documents the bearer scheme', async () => {
      const doc = await t().app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(doc.statusCode).toBe(200);
      expect(doc.json().components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    });

    it('last used is recorded, at most once a minute per token', async () => {
      const owner = await registerOwner(t().app);
      const { id, token } = await mint(owner.agent, owner.tenantId, { role: 'read' });
      const url = `/api/tenants/${owner.tenantId}/clients`;
      await withToken(t().app, token, 'GET', url);
      const first = (await t().deps.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;
      expect(first).not.toBeNull();
      await new Promise((r) => setTimeout(r, 5));
      await withToken(t().app, token, 'GET', url);
      const second = (await t().deps.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;
      expect(second).toBe(first);
      expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/apiTokens`)).data.items[0].lastUsedAt).toBe(first);
    });

    it('changes made with a token are attributed to it in the alert timeline', async () => {
      const { owner, base, raise } = await alertTenant(t().app);
      const { token } = await mint(owner.agent, owner.tenantId, { name: 'CI bot' });
      const alertId = await raise('disk-full');
      const ack = await withToken(t().app, token, 'POST', `${base}/${alertId}/acknowledge`);
      expect(ack.statusCode).toBe(200);
      const note = await withToken(t().app, token, 'POST', `${base}/${alertId}/notes`, { text: 'Restarted by the pipeline' });
      expect(note.statusCode).toBe(200);
      const detail = (await owner.agent.get(`${base}/${alertId}`)).data;
      const name = API_TOKEN_MSG.actorName('Olivia Owner', 'CI bot');
      expect(detail.timeline.filter((e: any) => e.kind === 'acknowledged' || e.kind === 'note').map((e: any) => [e.kind, e.actorName])).toEqual([
        ['acknowledged', name],
        ['note', name],
      ]);
    });
  },
  {},
);

describeEachDatabase(
  'API tokens: rate limit',
  (t) => {
    it('answers 429 with Retry-After past the per-token rate, other tokens unaffected', async () => {
      const owner = await registerOwner(t().app);
      const a = await mint(owner.agent, owner.tenantId, { role: 'read' });
      const b = await mint(owner.agent, owner.tenantId, { role: 'read' });
      const url = `/api/tenants/${owner.tenantId}/clients`;
      for (let i = 0; i < 3; i++) expect((await withToken(t().app, a.token, 'GET', url)).statusCode).toBe(200);
      const limited = await withToken(t().app, a.token, 'GET', url);
      expect(limited.statusCode).toBe(429);
      expect(limited.data.error.message).toBe(API_TOKEN_MSG.rateLimited);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await withToken(t().app, b.token, 'GET', url)).statusCode).toBe(200);
    });
  },
  { apiTokenRateLimit: 3 },
);

describeEachDatabase('API tokens: guessing', (t) => {
  it('answers 429 to an address past 30 invalid tokens a minute, before any look-up; other addresses and valid tokens elsewhere unaffected', async () => {
    const owner = await registerOwner(t().app);
    const good = await mint(owner.agent, owner.tenantId, { role: 'read' });
    const url = `/api/tenants/${owner.tenantId}/clients`;
    const guess = (i: number, remoteAddress: string) =>
      t().app.inject({ method: 'GET', url, remoteAddress, headers: { authorization: `Bearer adk_${String(i).padStart(43, 'x')}` } });
    for (let i = 0; i < INVALID_PER_MINUTE; i++) expect((await guess(i, '203.0.113.7')).statusCode).toBe(401);
    const blocked = await guess(99, '203.0.113.7');
    expect(blocked.statusCode).toBe(429);
    expect(JSON.parse(blocked.body).error.message).toBe(API_TOKEN_MSG.tooManyInvalid);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Even a real token from that address waits: the address is what is limited, not the token.
    expect((await t().app.inject({ method: 'GET', url, remoteAddress: '203.0.113.7', headers: { authorization: `Bearer ${good.token}` } })).statusCode).toBe(429);
    expect((await guess(100, '198.51.100.9')).statusCode).toBe(401);
    expect((await t().app.inject({ method: 'GET', url, remoteAddress: '198.51.100.9', headers: { authorization: `Bearer ${good.token}` } })).statusCode).toBe(200);
  });
});
