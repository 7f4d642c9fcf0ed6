import type { FastifyRequest } from 'fastify';
import type { DB } from '../../db/database.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { requireUser, type SessionUser } from '../../http/session.ts';
import { loadTenantContext } from '../../http/tenant-context.ts';

export const isSuperAdmin = (user: { role: string } | null | undefined) => user?.role === 'superAdmin';

/** The signed-in super admin: 401 without a session, 403 with `message` for anyone else. */
export function requireSuperAdmin(req: FastifyRequest, message: string): SessionUser {
  const user = requireUser(req);
  if (!isSuperAdmin(user)) throw forbidden(message);
  return user;
}

/**
 * Route hook that refuses everyone but super admins before the body is even validated, so a non-admin learns
 * nothing from validation errors. With `tenantParam`, a tenant the caller is not a member of answers 404 like a
 * missing one (house rule); its members get 403.
 */
export function superAdminOnly(db: DB, message: string, opts: { tenantParam?: string } = {}) {
  return async (req: FastifyRequest) => {
    const user = requireUser(req);
    if (isSuperAdmin(user)) return;
    const tenantId = opts.tenantParam ? (req.params as Record<string, string | undefined>)[opts.tenantParam] : undefined;
    if (tenantId && !(await loadTenantContext(db, user, tenantId))) throw notFound();
    throw forbidden(message);
  };
}

/** Pure rule for a role change or a deletion of `targetId` by `actorId`, given the super admins left. */
export function adminChangeRefusal(input: {
  actorId: string;
  targetId: string;
  targetIsSuperAdmin: boolean;
  action: 'demote' | 'delete';
  superAdminIds: string[];
}): 'self' | 'last' | null {
  if (input.actorId === input.targetId) return 'self';
  if (input.targetIsSuperAdmin && input.superAdminIds.filter((id) => id !== input.targetId).length === 0) return 'last';
  return null;
}
