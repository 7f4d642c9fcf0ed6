import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import {
  AdminListQuery,
  AdminTenant,
  AdminTenantList,
  AdminUser,
  AdminUserList,
  CreateTenantBody,
  CreateUserBody,
  PlatformAnalytics,
  SYSTEM_MSG,
  UpdateTenantBody,
  UpdateUserBody,
  UserIdParam,
} from '../../../contract/system.ts';
import type { DB } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { requireUser } from '../../http/session.ts';
import { loadTenantContext } from '../tenants/tenants.service.ts';
import { isSuperAdmin, superAdminOnly } from '../users/users.policy.ts';
import { unsafeListAllTenants, unsafeListAllUsers } from './system.repository.ts';
import {
  createTenantAsAdmin,
  createUserAsAdmin,
  deleteTenantAsAdmin,
  deleteUserAsAdmin,
  platformAnalytics,
  setUserRoleAsAdmin,
  updateTenantAsAdmin,
} from './system.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * superAdminOnly for a route naming a tenant in `:tenantId`: a tenant the caller is not a member of answers 404 like
 * a missing one (house rule); its members get 403.
 */
function superAdminOnlyForTenant(db: DB, message: string) {
  return async (req: FastifyRequest) => {
    const user = requireUser(req);
    if (isSuperAdmin(user)) return;
    const { tenantId } = req.params as { tenantId?: string };
    if (tenantId && !(await loadTenantContext(db, user, tenantId))) throw notFound();
    throw forbidden(message);
  };
}

/** Platform administration for super admins: every tenant, every user, platform analytics (spec section 2). */
export function registerSystemRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, dialect } = deps;
  const onlySuperAdmins = superAdminOnly(SYSTEM_MSG.onlySuperAdmins);
  const onlySuperAdminsForTenant = superAdminOnlyForTenant(db, SYSTEM_MSG.onlySuperAdmins);

  const findAdminTenant = async (tenantId: string) => {
    const { items } = await unsafeListAllTenants(db, { page: 1, pageSize: 1, byId: tenantId });
    if (!items[0]) throw notFound();
    return items[0];
  };

  r.get(
    '/api/tenants',
    { onRequest: onlySuperAdmins, schema: { tags: ['system'], querystring: AdminListQuery, response: { 200: AdminTenantList, ...errors } } },
    async (req) => ({ ...(await unsafeListAllTenants(db, req.query)), page: req.query.page, pageSize: req.query.pageSize }),
  );

  r.post(
    '/api/tenants',
    { onRequest: onlySuperAdmins, schema: { tags: ['system'], body: CreateTenantBody, response: { 201: AdminTenant, ...errors } } },
    async (req, reply) => reply.code(201).send(await findAdminTenant(await createTenantAsAdmin(db, req.body))),
  );

  r.put(
    '/api/tenants/:tenantId',
    {
      onRequest: onlySuperAdminsForTenant,
      schema: { tags: ['system'], params: TenantParam, body: UpdateTenantBody, response: { 200: AdminTenant, ...errors } },
    },
    async (req) => {
      await updateTenantAsAdmin(db, req.params.tenantId, req.body);
      return findAdminTenant(req.params.tenantId);
    },
  );

  r.delete(
    '/api/tenants/:tenantId',
    { onRequest: onlySuperAdminsForTenant, schema: { tags: ['system'], params: TenantParam, response: { 200: Ok, ...errors } } },
    async (req) => {
      await deleteTenantAsAdmin(db, req.params.tenantId);
      deps.bus.revokeAccess({ tenantId: req.params.tenantId });
      return { ok: true as const };
    },
  );

  r.get(
    '/api/users',
    { onRequest: onlySuperAdmins, schema: { tags: ['system'], querystring: AdminListQuery, response: { 200: AdminUserList, ...errors } } },
    async (req) => ({ ...(await unsafeListAllUsers(db, req.query)), page: req.query.page, pageSize: req.query.pageSize }),
  );

  r.post(
    '/api/users',
    { onRequest: onlySuperAdmins, schema: { tags: ['system'], body: CreateUserBody, response: { 201: AdminUser, ...errors } } },
    async (req, reply) => {
      const user = await createUserAsAdmin(deps, req.body);
      return reply.code(201).send(await findAdminUser(user.id));
    },
  );

  const findAdminUser = async (userId: string) => {
    const { items } = await unsafeListAllUsers(db, { page: 1, pageSize: 1, byId: userId });
    if (!items[0]) throw notFound();
    return items[0];
  };

  r.put(
    '/api/users/:userId',
    { onRequest: onlySuperAdmins, schema: { tags: ['system'], params: UserIdParam, body: UpdateUserBody, response: { 200: AdminUser, ...errors } } },
    async (req) => {
      await setUserRoleAsAdmin(db, dialect, requireUser(req).id, req.params.userId, req.body.role);
      return findAdminUser(req.params.userId);
    },
  );

  r.delete(
    '/api/users/:userId',
    { onRequest: onlySuperAdmins, schema: { tags: ['system'], params: UserIdParam, response: { 200: Ok, ...errors } } },
    async (req) => {
      await deleteUserAsAdmin(db, dialect, requireUser(req).id, req.params.userId);
      deps.bus.revokeAccess({ userId: req.params.userId });
      return { ok: true as const };
    },
  );

  r.get(
    '/api/system/analytics',
    { onRequest: onlySuperAdmins, schema: { tags: ['system'], response: { 200: PlatformAnalytics, ...errors } } },
    async () => platformAnalytics(db),
  );
}
