import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Agent, type TestEnv } from './test-app.ts';
import { createSuperAdmin } from '../modules/users/admin.service.ts';
import { insertClient as insertClientRow } from '../modules/clients/clients.repository.ts';
import { insertMember } from '../modules/members/members.repository.ts';
import { findUserById } from '../modules/users/users.repository.ts';
import type { Deps } from '../deps.ts';

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}@example.com`;

/** Registers a new owner with a tenant through the real callable, and returns their signed-in agent. */
export async function registerOwner(app: FastifyInstance, opts: { email?: string; name?: string; tenantName?: string; plan?: string; password?: string } = {}) {
  const agent = new Agent(app);
  const email = opts.email ?? uniqueEmail('owner');
  const password = opts.password ?? 'secret123';
  const res = await agent.post('/api/functions/registerUserWithTenant', {
    userData: { email, password, displayName: opts.name ?? 'Olivia Owner' },
    tenantData: { name: opts.tenantName ?? 'Acme MSP', plan: opts.plan ?? 'trial' },
  });
  if (res.statusCode !== 200) throw new Error(`registerOwner failed: ${res.statusCode} ${res.body}`);
  return { agent, email, password, userId: res.data.userId as string, tenantId: res.data.tenantId as string };
}

/**
 * Adds an active member to a tenant (directly in the database, as an accepted invitation would) and signs them in.
 */
export async function addMember(deps: Deps, app: FastifyInstance, tenantId: string, role: 'admin' | 'user' = 'user') {
  const other = await registerOwner(app, { tenantName: 'Their own MSP' });
  const user = await findUserById(deps.db, other.userId);
  if (!user) throw new Error('addMember: the registered user is missing');
  const at = new Date().toISOString();
  await insertMember(deps.db, {
    id: `m-${randomBytes(6).toString('hex')}`,
    tenant_id: tenantId,
    user_id: user.id,
    email: user.email,
    display_name: user.display_name,
    role,
    status: 'active',
    joined_at: at,
    invited_by: null,
    created_at: at,
  });
  return other;
}

/** An owner, an admin and a plain member of one tenant, each signed in. */
export async function registerTeam(env: TestEnv) {
  const owner = await registerOwner(env.app, { name: 'Olivia Owner' });
  const admin = await addMember(env.deps, env.app, owner.tenantId, 'admin');
  const user = await addMember(env.deps, env.app, owner.tenantId, 'user');
  return { owner, admin, user, tenantId: owner.tenantId };
}

/** A signed-in super admin. */
export async function superAdmin(deps: Deps, app: FastifyInstance) {
  const email = uniqueEmail('admin');
  await createSuperAdmin(deps.db, { email, password: 'adminpass1' });
  const agent = new Agent(app);
  const res = await agent.post('/api/auth/sign-in', { email, password: 'adminpass1' });
  if (res.statusCode !== 200) throw new Error(`super admin sign-in failed: ${res.body}`);
  return { agent, email };
}

/** A client row written straight to the database, for tests whose subject is not the clients API. */
export async function insertClient(db: Deps['db'], tenantId: string, name = 'Client') {
  const id = randomBytes(16).toString('hex');
  const at = new Date().toISOString();
  const lower = name.toLowerCase();
  await insertClientRow(db, { id, tenant_id: tenantId, name, name_lower: lower, status: 'active', tags: '[]', custom_fields: '{}', search_text: lower, created_by: 'test', created_at: at, updated_at: at });
  return id;
}
