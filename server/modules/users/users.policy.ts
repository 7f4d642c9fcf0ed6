import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';

/** The platform role of spec section 2: super admins administer every tenant, every account and the plans. */
export const isSuperAdmin = (user: { role: string } | null | undefined) => user?.role === 'superAdmin';

/**
 * Route hook that refuses everyone but super admins before the body is even validated, so a non-admin learns
 * nothing from validation errors: 401 without a session, 403 with `message` for anyone else.
 */
export function superAdminOnly(message: string) {
  return async (req: FastifyRequest) => {
    if (!isSuperAdmin(requireUser(req))) throw forbidden(message);
  };
}
