import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, TenantParam } from '../../../contract/common.ts';
import {
  CreateIntegrationBody,
  Integration,
  IntegrationList,
  IntegrationParams,
  IntegrationWithKey,
  TestAlertResponse,
  UpdateIntegrationBody,
} from '../../../contract/integrations.ts';
import { requireAbility, requireTenant } from '../../http/tenant-context.ts';
import type { Deps } from '../../deps.ts';
import {
  createIntegration,
  editIntegration,
  listTenantIntegrations,
  revokeIntegration,
  rotateIntegrationKey,
  sendTestAlert,
  type IntegrationServiceDeps,
} from './integrations.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** Integration keys of a tenant: owners and admins only (ability manageIntegrations). */
export function registerIntegrationRoutes(app: FastifyInstance, deps: Deps, svc: IntegrationServiceDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const base = '/api/tenants/:tenantId/integrations';

  r.get(base, { schema: { tags: ['integrations'], params: TenantParam, response: { 200: IntegrationList, ...errors } } }, async (req) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    requireAbility(ctx, 'manageIntegrations');
    return listTenantIntegrations(svc, ctx.tenant.id);
  });

  r.post(
    base,
    { schema: { tags: ['integrations'], params: TenantParam, body: CreateIntegrationBody, response: { 201: IntegrationWithKey, ...errors } } },
    async (req, reply) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageIntegrations');
      return reply.code(201).send(await createIntegration(svc, ctx, req.body));
    },
  );

  r.patch(
    `${base}/:integrationId`,
    { schema: { tags: ['integrations'], params: IntegrationParams, body: UpdateIntegrationBody, response: { 200: Integration, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageIntegrations');
      return editIntegration(svc, ctx, req.params.integrationId, req.body);
    },
  );

  r.post(
    `${base}/:integrationId/rotate`,
    { schema: { tags: ['integrations'], params: IntegrationParams, response: { 200: IntegrationWithKey, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageIntegrations');
      return rotateIntegrationKey(svc, ctx, req.params.integrationId);
    },
  );

  r.post(
    `${base}/:integrationId/revoke`,
    { schema: { tags: ['integrations'], params: IntegrationParams, response: { 200: Integration, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageIntegrations');
      return revokeIntegration(svc, ctx, req.params.integrationId);
    },
  );

  r.post(
    `${base}/:integrationId/test`,
    { schema: { tags: ['integrations'], params: IntegrationParams, response: { 201: TestAlertResponse, ...errors } } },
    async (req, reply) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      requireAbility(ctx, 'manageIntegrations');
      return reply.code(201).send(await sendTestAlert(svc, ctx, req.params.integrationId));
    },
  );
}
