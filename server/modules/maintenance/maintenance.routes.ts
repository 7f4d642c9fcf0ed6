import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import { MaintenanceListQuery, MaintenanceParams, MaintenanceWindow, MaintenanceWindowInput, MaintenanceWindowList } from '../../../contract/maintenance.ts';
import { signedIn } from '../../http/session.ts';
import * as svc from './maintenance.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * A tenant's maintenance windows under /api/tenants/:tenantId/maintenanceWindows: every member reads them, owners and
 * admins write (the service checks); another tenant's window answers 404 like a missing one. Every successful write
 * makes ingestion read the tenant's windows anew on every instance (paging's routing invalidation).
 */
export function registerMaintenanceRoutes(app: FastifyInstance, deps: svc.MaintenanceServiceDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/tenants/:tenantId/maintenanceWindows';
  const one = `${base}/:windowId`;
  const scoped = { onRequest: signedIn, config: { tenantScoped: true } };
  const tags = ['maintenance'];

  r.get(base, { ...scoped, schema: { tags, params: TenantParam, querystring: MaintenanceListQuery, response: { 200: MaintenanceWindowList, ...errors } } }, async (req) =>
    svc.listMaintenanceWindows(deps, req.tenantContext, req.query),
  );
  r.post(base, { ...scoped, schema: { tags, params: TenantParam, body: MaintenanceWindowInput, response: { 201: MaintenanceWindow, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await svc.createMaintenanceWindow(deps, req.tenantContext, req.body)),
  );
  r.get(one, { ...scoped, schema: { tags, params: MaintenanceParams, response: { 200: MaintenanceWindow, ...errors } } }, async (req) =>
    svc.getMaintenanceWindow(deps, req.tenantContext, req.params.windowId),
  );
  r.put(one, { ...scoped, schema: { tags, params: MaintenanceParams, body: MaintenanceWindowInput, response: { 200: MaintenanceWindow, ...errors } } }, async (req) =>
    svc.updateMaintenanceWindow(deps, req.tenantContext, req.params.windowId, req.body),
  );
  r.delete(one, { ...scoped, schema: { tags, params: MaintenanceParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await svc.deleteMaintenanceWindow(deps, req.tenantContext, req.params.windowId);
    return { ok: true as const };
  });
  r.post(`${one}/end`, { ...scoped, schema: { tags, params: MaintenanceParams, response: { 200: MaintenanceWindow, ...errors } } }, async (req) =>
    svc.endMaintenanceWindow(deps, req.tenantContext, req.params.windowId),
  );
}
