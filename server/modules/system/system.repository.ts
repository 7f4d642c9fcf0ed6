import { sql } from 'kysely';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';

/** `lower(col) like %term%` with LIKE wildcards in the term taken literally, identical on SQLite and PostgreSQL. */
const containsPattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every tenant of the platform (or the one `byId`) (deliberately unscoped: super admins only) with real member and client counts. */
export async function unsafeListAllTenants(db: DB, opts: { page: number; pageSize: number; search?: string; byId?: string }) {
  let base = db.selectFrom('tenants');
  if (opts.byId) base = base.where('tenants.id', '=', opts.byId);
  if (opts.search) base = base.where(sql<boolean>`lower(tenants.name) like ${containsPattern(opts.search)} escape '\\'`);
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    base
      .leftJoin('users', 'users.id', 'tenants.owner_id')
      .leftJoin('pricing_plans', 'pricing_plans.id', 'tenants.plan')
      .selectAll('tenants')
      .select((eb) => [
        'users.email as owner_email',
        'pricing_plans.name as plan_name',
        eb
          .selectFrom('tenant_members')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('tenant_members.tenant_id', '=', 'tenants.id')
          .where('tenant_members.status', '=', 'active')
          .as('user_count'),
        eb.selectFrom('clients').select(eb.fn.countAll<number>().as('n')).whereRef('clients.tenant_id', '=', 'tenants.id').as('client_count'),
      ])
      .orderBy(sql`lower(tenants.name)`)
      .orderBy('tenants.id')
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize)
      .execute(),
  ]);
  return {
    total: Number(total),
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      ownerId: r.owner_id,
      ownerEmail: r.owner_email ?? null,
      plan: r.plan,
      planName: r.plan_name ?? null,
      maxUsers: r.max_users,
      maxClients: r.max_clients,
      features: parseJson<string[]>(r.features, []),
      userCount: Number(r.user_count ?? 0),
      clientCount: Number(r.client_count ?? 0),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    })),
  };
}

/** Every account of the platform (or the one `byId`) (deliberately unscoped: super admins only). */
export async function unsafeListAllUsers(db: DB, opts: { page: number; pageSize: number; search?: string; byId?: string }) {
  let base = db.selectFrom('users');
  if (opts.byId) base = base.where('users.id', '=', opts.byId);
  if (opts.search) {
    const p = containsPattern(opts.search);
    base = base.where(sql<boolean>`(users.email like ${p} escape '\\' or lower(users.display_name) like ${p} escape '\\')`);
  }
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    base.selectAll().orderBy('users.email').limit(opts.pageSize).offset((opts.page - 1) * opts.pageSize).execute(),
  ]);
  return {
    total: Number(total),
    items: rows.map((u) => ({
      id: u.id,
      email: u.email,
      displayName: u.display_name,
      role: u.role,
      plan: u.plan,
      createdAt: u.created_at,
      updatedAt: u.updated_at,
      lastSignInAt: u.last_sign_in_at,
      hasPassword: u.password_hash !== null,
    })),
  };
}
