import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../../../contract/plans.ts';
import type { Deps } from '../../deps.ts';
import type { AlertsTable } from '../../db/schema.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, insertClient, registerOwner, superAdmin, uniqueEmail } from '../../test/factories.ts';
import { alertRow } from '../../test/alerts.ts';
import { adminChangeRefusal } from './system.policy.ts';
import { analyticsWindow } from './system.service.ts';
import { createSuperAdmin, ensureSuperAdmin } from '../users/admin.service.ts';

// Rows of other modules' tables, written straight to the database as those modules would.
const anyDb = (deps: Deps) => deps.db as unknown as Kysely<any>;

async function insertAlert(deps: Deps, tenantId: string, opts: { priority?: AlertsTable['priority']; createdAt?: string } = {}) {
  const at = opts.createdAt ?? new Date().toISOString();
  const id = randomUUID();
  await anyDb(deps)
    .insertInto('alerts')
    .values(alertRow(tenantId, { id, dedup_key: null, description: 'The disk is full', priority: opts.priority ?? 'high', created_at: at }))
    .execute();
  await anyDb(deps)
    .insertInto('alert_notes')
    .values({ id: randomUUID(), tenant_id: tenantId, alert_id: id, text: 'Looking', created_by: null, created_by_name: 'Test', created_at: at })
    .execute();
  return id;
}

/** Every table with a tenant_id column, read from the database itself. */
async function tenantOwnedTables(deps: Deps): Promise<string[]> {
  const tables = await deps.db.introspection.getTables();
  const schema = deps.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(deps.db)).rows[0].s : undefined;
  return tables
    .filter((t) => !t.isView && (schema === undefined || t.schema === schema) && t.columns.some((c) => c.name === 'tenant_id'))
    .map((t) => t.name)
    .sort();
}

async function rowsOf(deps: Deps, table: string, tenantId: string) {
  const r = await anyDb(deps).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('admin change rules (pure)', () => {
  it('refuses self changes and the last super admin', () => {
    expect(adminChangeRefusal({ actorId: 'a', targetId: 'a', targetIsSuperAdmin: true, action: 'demote', superAdminIds: ['a', 'b'] })).toBe('self');
    expect(adminChangeRefusal({ actorId: 'a', targetId: 'b', targetIsSuperAdmin: true, action: 'demote', superAdminIds: ['b'] })).toBe('last');
    expect(adminChangeRefusal({ actorId: 'a', targetId: 'b', targetIsSuperAdmin: true, action: 'delete', superAdminIds: ['a', 'b'] })).toBeNull();
    expect(adminChangeRefusal({ actorId: 'a', targetId: 'c', targetIsSuperAdmin: false, action: 'delete', superAdminIds: ['a'] })).toBeNull();
  });
  it('makes a 30-day window of UTC days ending today', () => {
    const { since, dates } = analyticsWindow(new Date('2026-03-10T23:30:00Z'));
    expect(dates).toHaveLength(30);
    expect(dates[0]).toBe('2026-02-09');
    expect(dates[29]).toBe('2026-03-10');
    expect(since).toBe('2026-02-09T00:00:00.000Z');
  });
});

describeEachDatabase('system administration: access', (t) => {
  it('refuses every route without a session (401) and to non-super-admins (403, 404 for a tenant they are not in)', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app, { tenantName: 'Own MSP' });
    const other = await registerOwner(app, { tenantName: 'Other MSP' });
    const admin = await addMember(deps, app, owner.tenantId, 'admin');
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/tenants'],
      ['POST', '/api/tenants', { name: 'X', plan: 'starter' }],
      ['PUT', `/api/tenants/${owner.tenantId}`, { name: 'X', plan: 'scale' }],
      ['DELETE', `/api/tenants/${owner.tenantId}`],
      ['GET', '/api/users'],
      ['POST', '/api/users', { email: uniqueEmail('x'), role: 'superAdmin' }],
      ['PUT', `/api/users/${owner.userId}`, { role: 'superAdmin' }],
      ['DELETE', `/api/users/${other.userId}`],
      ['GET', '/api/system/analytics'],
    ];
    for (const [method, url, body] of routes) {
      const anonymous = await new Agent(app).request(method as 'GET', url, body);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      for (const who of [owner, admin]) {
        const res = await who.agent.request(method as 'GET', url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.data.error.message).toBe('Only super admins can use System Administration');
      }
    }
    // Another tenant's record answers exactly like a missing one.
    for (const method of ['PUT', 'DELETE'] as const) {
      const foreign = await owner.agent.request(method, `/api/tenants/${other.tenantId}`, method === 'PUT' ? { name: 'Mine now', plan: 'scale' } : undefined);
      const missing = await owner.agent.request(method, `/api/tenants/no-such-tenant`, method === 'PUT' ? { name: 'Mine now', plan: 'scale' } : undefined);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(missing.body);
    }
    // Nothing changed.
    const row = await deps.db.selectFrom('tenants').selectAll().where('id', '=', owner.tenantId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Own MSP', plan: 'trial' });
    expect((await deps.db.selectFrom('users').select('role').where('id', '=', owner.userId).executeTakeFirstOrThrow()).role).toBe('user');
  });
});

describeEachDatabase('system administration: tenants', (t) => {
  it('lists every tenant with its plan and real user and client counts', async () => {
    const { app, deps } = t();
    const { agent } = await superAdmin(deps, app);
    const owner = await registerOwner(app, { tenantName: 'Counted MSP', plan: 'growth' });
    await addMember(deps, app, owner.tenantId, 'user');
    await addMember(deps, app, owner.tenantId, 'admin');
    for (let i = 0; i < 3; i++) await insertClient(deps.db, owner.tenantId, `Client ${i}`);
    // An invitation not yet accepted is not a user of the tenant.
    await deps.db
      .insertInto('tenant_members')
      .values({ id: randomUUID(), tenant_id: owner.tenantId, user_id: null, email: 'invited@example.com', display_name: 'invited@example.com', role: 'user', status: 'invited', joined_at: null, invited_by: owner.userId, created_at: new Date().toISOString() })
      .execute();

    const res = await agent.get('/api/tenants?search=counted');
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(res.data.items[0]).toMatchObject({ name: 'Counted MSP', plan: 'growth', planName: 'Growth', userCount: 3, clientCount: 3, maxUsers: 15, maxClients: 25, ownerEmail: owner.email });

    const all = await agent.get('/api/tenants?pageSize=2&page=1');
    expect(all.data.items).toHaveLength(2);
    expect(all.data.total).toBeGreaterThanOrEqual(3);
    const names = all.data.items.map((x: { name: string }) => x.name.toLowerCase());
    expect([...names].sort()).toEqual(names);
    // LIKE wildcards are taken literally.
    expect((await agent.get('/api/tenants?search=%25')).data.total).toBe(0);
    expect((await agent.get('/api/tenants?pageSize=101')).statusCode).toBe(400);
  });

  it('creates a tenant on a plan with its preset, optionally owned by an existing account', async () => {
    const { app, deps } = t();
    const { agent } = await superAdmin(deps, app);
    const noName = await agent.post('/api/tenants', { name: ' ', plan: 'starter' });
    expect(noName.statusCode).toBe(400);
    expect(noName.data.error).toMatchObject({ message: 'Tenant name is required', fields: { name: 'Tenant name is required' } });
    const noPlan = await agent.post('/api/tenants', { name: 'X' });
    expect(noPlan.data.error.fields).toEqual({ plan: 'Please select a plan' });
    const unknown = await agent.post('/api/tenants', { name: 'X', plan: 'platinum' });
    expect(unknown.data.error.fields).toEqual({ plan: 'This plan does not exist' });
    const noOwner = await agent.post('/api/tenants', { name: 'X', plan: 'starter', ownerEmail: 'ghost@example.com' });
    expect(noOwner.data.error.fields).toEqual({ ownerEmail: 'No user with this email exists' });

    const plain = await agent.post('/api/tenants', { name: 'Plain MSP', plan: 'growth' });
    expect(plain.statusCode).toBe(201);
    const growth = DEFAULT_PLANS.find((p) => p.id === 'growth')!;
    expect(plain.data).toMatchObject({ name: 'Plain MSP', plan: 'growth', ownerId: '', ownerEmail: null, maxUsers: 15, maxClients: 25, userCount: 0, clientCount: 0 });
    expect([...plain.data.features].sort()).toEqual([...growth.features].sort());

    const future = await registerOwner(app, { tenantName: 'First MSP' });
    const owned = await agent.post('/api/tenants', { name: 'Second MSP', plan: 'scale', ownerEmail: future.email.toUpperCase() });
    expect(owned.statusCode).toBe(201);
    expect(owned.data).toMatchObject({ ownerEmail: future.email, userCount: 1, maxUsers: 30, maxClients: 50 });
    const me = (await future.agent.get('/api/me')).data;
    expect(me.tenants.find((x: { id: string }) => x.id === owned.data.id)).toMatchObject({ role: 'owner', plan: 'scale' });
  });

  it('resets limits and features to the new plan preset when the plan changes, and only then', async () => {
    const { app, deps } = t();
    const { agent } = await superAdmin(deps, app);
    const owner = await registerOwner(app, { tenantName: 'Mover MSP', plan: 'starter' });
    // Limits raised by hand (for a deal): a rename keeps them.
    await deps.db.updateTable('tenants').set({ max_users: 99 }).where('id', '=', owner.tenantId).execute();
    const renamed = await agent.put(`/api/tenants/${owner.tenantId}`, { name: 'Moved MSP', plan: 'starter' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data).toMatchObject({ name: 'Moved MSP', plan: 'starter', maxUsers: 99, maxClients: 10 });

    const moved = await agent.put(`/api/tenants/${owner.tenantId}`, { name: 'Moved MSP', plan: 'scale' });
    expect(moved.data).toMatchObject({ plan: 'scale', planName: 'Scale', maxUsers: 30, maxClients: 50 });
    expect([...moved.data.features].sort()).toEqual([...DEFAULT_PLANS.find((p) => p.id === 'scale')!.features].sort());
    const row = await deps.db.selectFrom('tenants').selectAll().where('id', '=', owner.tenantId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ plan: 'scale', max_users: 30, max_clients: 50 });
    expect((await owner.agent.get('/api/me')).data.tenants[0].plan).toBe('scale');

    // The preset is the plan as a super admin last saved it.
    const growth = (await agent.get('/api/pricingPlans')).data.items.find((p: { id: string }) => p.id === 'growth');
    const { id: _i, createdAt: _c, updatedAt: _u, ...fields } = growth;
    await agent.put('/api/pricingPlans/growth', { ...fields, maxUsers: 18, features: fields.features.map((f: { id: string }) => ({ ...f, included: f.id === 'basic_alerts' })) });
    const down = await agent.put(`/api/tenants/${owner.tenantId}`, { name: 'Moved MSP', plan: 'growth' });
    expect(down.data).toMatchObject({ plan: 'growth', maxUsers: 18, maxClients: 25, features: ['basic_alerts'] });

    const bad = await agent.put(`/api/tenants/${owner.tenantId}`, { name: '', plan: 'growth' });
    expect(bad.data.error.fields).toEqual({ name: 'Tenant name is required' });
    expect((await agent.put(`/api/tenants/${owner.tenantId}`, { name: 'X', plan: 'nope' })).data.error.fields).toEqual({ plan: 'This plan does not exist' });
    expect((await agent.put('/api/tenants/missing', { name: 'X', plan: 'growth' })).statusCode).toBe(404);
  });

  it('deletes a tenant with all its data and nothing of any other tenant', async () => {
    const { app, deps } = t();
    const { agent } = await superAdmin(deps, app);
    const doomed = await registerOwner(app, { tenantName: 'Doomed MSP' });
    const kept = await registerOwner(app, { tenantName: 'Kept MSP' });
    const member = await addMember(deps, app, doomed.tenantId, 'user');
    await addMember(deps, app, kept.tenantId, 'user');
    for (const id of [doomed.tenantId, kept.tenantId]) {
      const client = await insertClient(deps.db, id);
      expect(client).toMatch(/^[0-9a-f]{32}$/);
      await insertAlert(deps, id);
      await insertAlert(deps, id, { priority: 'critical' });
    }
    const tables = await tenantOwnedTables(deps);
    expect(tables).toEqual(expect.arrayContaining(['alerts', 'alert_notes', 'clients', 'tenant_members']));
    const keptBefore = Object.fromEntries(await Promise.all(tables.map(async (tb) => [tb, await rowsOf(deps, tb, kept.tenantId)] as const)));
    expect(await rowsOf(deps, 'alerts', doomed.tenantId)).toBe(2);

    const res = await agent.delete(`/api/tenants/${doomed.tenantId}`);
    expect(res.statusCode).toBe(200);
    for (const tb of tables) expect(await rowsOf(deps, tb, doomed.tenantId), tb).toBe(0);
    const keptAfter = Object.fromEntries(await Promise.all(tables.map(async (tb) => [tb, await rowsOf(deps, tb, kept.tenantId)] as const)));
    expect(keptAfter).toEqual(keptBefore);
    expect(await deps.db.selectFrom('tenants').select('id').where('id', '=', doomed.tenantId).executeTakeFirst()).toBeUndefined();
    // The people stay: the member still signs in to their own tenant.
    const me = await member.agent.get('/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.data.tenants.map((x: { id: string }) => x.id)).not.toContain(doomed.tenantId);
    expect((await agent.delete(`/api/tenants/${doomed.tenantId}`)).statusCode).toBe(404);
  });

  it('has every tenant-owned table cascade from tenants, so a tenant delete leaves no orphan', async () => {
    const { deps } = t();
    const tables = await tenantOwnedTables(deps);
    for (const table of tables) {
      const rule =
        deps.dialect === 'postgres'
          ? (
              // The catalog itself: information_schema's views take a second each on a catalog that many test schemas
              // have churned (autovacuum is off on this machine kind).
              await sql<{ rule: string }>`select case c.confdeltype when 'c' then 'CASCADE' when 'n' then 'SET NULL' when 'd' then 'SET DEFAULT' when 'r' then 'RESTRICT' else 'NO ACTION' end as rule
                from pg_constraint c
                join pg_class t on t.oid = c.conrelid
                join pg_class r on r.oid = c.confrelid
                join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
                where c.contype = 'f' and cardinality(c.conkey) = 1 and t.relnamespace = current_schema()::regnamespace and t.relname = ${table}
                  and r.relnamespace = t.relnamespace and r.relname = 'tenants' and a.attname = 'tenant_id'`.execute(deps.db)
            ).rows[0]?.rule
          : (await sql<{ rule: string }>`select on_delete as rule from pragma_foreign_key_list(${table}) where "from" = 'tenant_id' and "table" = 'tenants'`.execute(deps.db)).rows[0]?.rule;
      expect(rule, table).toBe('CASCADE');
    }
  });
});

describeEachDatabase('system administration: users', (t) => {
  it('adds a user with plan trial and mails a link to set their password', async () => {
    const { app, deps, mailer } = t();
    const { agent } = await superAdmin(deps, app);
    const empty = await agent.post('/api/users', { email: '', role: 'user' });
    expect(empty.statusCode).toBe(400);
    expect(empty.data.error).toMatchObject({ message: 'Email is required', fields: { email: 'Email is required' } });
    expect((await agent.post('/api/users', { email: 'not-an-email', role: 'user' })).data.error.fields).toEqual({ email: 'Invalid email address' });
    expect((await agent.post('/api/users', { email: 'x@example.com', role: 'owner' })).statusCode).toBe(400);

    const email = uniqueEmail('added');
    const res = await agent.post('/api/users', { email: email.toUpperCase(), role: 'superAdmin' });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ email, displayName: email, role: 'superAdmin', plan: 'trial', hasPassword: false });
    const dup = await agent.post('/api/users', { email, role: 'user' });
    expect(dup.statusCode).toBe(409);
    expect(dup.data.error.fields).toEqual({ email: 'An account with this email already exists' });

    const mail = mailer.last(email);
    expect(mail.subject).toBe('Set your Alertdesk password');
    // The link opens the password page in its welcome wording.
    expect(mail.text).toMatch(/reset-password\?token=[A-Za-z0-9_%-]+&welcome=1/);
    const token = decodeURIComponent(mail.text.match(/reset-password\?token=([A-Za-z0-9_%-]+)/)![1]);
    const set = await new Agent(app).post('/api/auth/password-reset/confirm', { token, password: 'first-pass-1' });
    expect(set.statusCode).toBe(200);
    const signedIn = await new Agent(app).post('/api/auth/sign-in', { email, password: 'first-pass-1' });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.data.abilities.systemAdmin).toBe(true);

    const list = await agent.get(`/api/users?search=${encodeURIComponent(email.slice(0, 12))}`);
    expect(list.data.items.map((u: { email: string }) => u.email)).toContain(email);
    expect(list.data.items[0]).not.toHaveProperty('passwordHash');
  });

  it('changes roles, but nobody removes their own super admin role', async () => {
    const { app, deps } = t();
    const admin = await superAdmin(deps, app);
    const adminId = (await admin.agent.get('/api/me')).data.user.id;
    const owner = await registerOwner(app);

    const self = await admin.agent.put(`/api/users/${adminId}`, { role: 'user' });
    expect(self.statusCode).toBe(403);
    expect(self.data.error.message).toBe('You cannot remove your own super admin role');
    expect((await admin.agent.put(`/api/users/${adminId}`, { role: 'superAdmin' })).statusCode).toBe(200);

    const promoted = await admin.agent.put(`/api/users/${owner.userId}`, { role: 'superAdmin' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.data.role).toBe('superAdmin');
    expect((await owner.agent.get('/api/me')).data.abilities.systemAdmin).toBe(true);
    // Now a super admin, the owner may demote the first one.
    const demoted = await owner.agent.put(`/api/users/${adminId}`, { role: 'user' });
    expect(demoted.statusCode).toBe(200);
    expect((await admin.agent.get('/api/users')).statusCode).toBe(403);
    expect((await owner.agent.put(`/api/users/${owner.userId}`, { role: 'user' })).data.error.message).toBe('You cannot remove your own super admin role');
    expect((await owner.agent.put('/api/users/missing', { role: 'user' })).statusCode).toBe(404);
    expect((await owner.agent.put(`/api/users/${adminId}`, { role: 'king' })).statusCode).toBe(400);
  });

  it('deletes users, never oneself; tenants they owned stay with an empty owner', async () => {
    const { app, deps } = t();
    const admin = await superAdmin(deps, app);
    const adminId = (await admin.agent.get('/api/me')).data.user.id;
    const self = await admin.agent.delete(`/api/users/${adminId}`);
    expect(self.statusCode).toBe(403);
    expect(self.data.error.message).toBe('You cannot delete your own account');

    const owner = await registerOwner(app, { tenantName: 'Orphan MSP' });
    const member = await addMember(deps, app, owner.tenantId, 'user');
    expect((await admin.agent.delete(`/api/users/${owner.userId}`)).statusCode).toBe(200);
    expect((await owner.agent.get('/api/me')).statusCode).toBe(401);
    const tenant = (await admin.agent.get('/api/tenants?search=orphan')).data.items[0];
    expect(tenant).toMatchObject({ ownerId: '', ownerEmail: null, userCount: 1 });
    expect((await member.agent.get('/api/me')).data.tenants.map((x: { id: string }) => x.id)).toContain(owner.tenantId);
    expect((await admin.agent.delete(`/api/users/${owner.userId}`)).statusCode).toBe(404);
  });

  it('creates the first super admin from ADMIN_EMAIL only while there is none; the CLI promotes an existing account', async () => {
    const { deps, app } = t();
    const admin = await superAdmin(deps, app);
    // The platform already has a super admin, so start-up must leave things alone.
    expect(await ensureSuperAdmin(deps.db, { email: 'late@example.com', password: 'whatever1' })).toBe(false);
    expect((await admin.agent.get('/api/users?search=late%40example.com')).data.total).toBe(0);
    const existing = await registerOwner(app);
    const result = await createSuperAdmin(deps.db, { email: existing.email, password: 'promoted-1' });
    expect(result).toEqual({ id: existing.userId, created: false });
    const agent = new Agent(app);
    const me = await agent.post('/api/auth/sign-in', { email: existing.email, password: 'promoted-1' });
    expect(me.data.abilities.systemAdmin).toBe(true);
  });
});

describeEachDatabase('system administration: analytics', (t) => {
  it('counts tenants, users, clients and the alerts of the last 30 days by day, priority and plan', async () => {
    const { app, deps } = t();
    const { agent } = await superAdmin(deps, app);
    const a = await registerOwner(app, { plan: 'growth' });
    const b = await registerOwner(app, { plan: 'growth' });
    await registerOwner(app, { plan: 'scale' });
    await insertClient(deps.db, a.tenantId);
    await insertClient(deps.db, b.tenantId);
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    await insertAlert(deps, a.tenantId, { priority: 'critical' });
    await insertAlert(deps, b.tenantId, { priority: 'critical' });
    await insertAlert(deps, a.tenantId, { priority: 'low', createdAt: day(3) });
    await insertAlert(deps, a.tenantId, { priority: 'info', createdAt: day(45) });

    const res = await agent.get('/api/system/analytics');
    expect(res.statusCode).toBe(200);
    expect(res.data.totals).toEqual({ tenants: 3, users: 4, clients: 2, alertsLast30Days: 3 });
    expect(res.data.alertsPerDay).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.data.alertsPerDay.at(-1)).toEqual({ date: today, count: 2 });
    expect(res.data.alertsPerDay.find((d: { date: string }) => d.date === day(3).slice(0, 10)).count).toBe(1);
    expect(res.data.alertsByPriority).toEqual([
      { priority: 'critical', count: 2 },
      { priority: 'high', count: 0 },
      { priority: 'medium', count: 0 },
      { priority: 'low', count: 1 },
      { priority: 'info', count: 0 },
    ]);
    expect(res.data.tenantsByPlan).toEqual([
      { plan: 'growth', planName: 'Growth', count: 2 },
      { plan: 'scale', planName: 'Scale', count: 1 },
    ]);
  });
});
