import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, TenantParam } from '../../../contract/common.ts';
import {
  CreateIntegrationBody,
  Integration,
  IntegrationList,
  IntegrationParams,
  IntegrationWithKey,
  UpdateIntegrationBody,
} from '../../../contract/integrations.ts';
import { RoutingRules } from '../../../contract/ingest-formats.ts';
import type { Deps } from '../../deps.ts';
import { getRoutingRules, setRoutingRules } from './integration-rules.service.ts';
import {
  createIntegration,
  editIntegration,
  listTenantIntegrations,
  renewEmailAddress,
  revokeIntegration,
  rotateIntegrationKey,
} from './integrations.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Integration keys of a tenant: owners and admins only (ability manageIntegrations). Sending a test alert through one
 * is ingestion's (alerts/ingest/ingest.routes.ts).
 */
export function registerIntegrationRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, bus, config } = deps;
  const svc = { db, bus, publicUrl: () => config.publicUrl, emailDomain: () => config.inboundMail.domain };
  const base = '/api/tenants/:tenantId/integrations';

  r.get(
    base,
    { config: { tenantScoped: true }, schema: { tags: ['integrations'], params: TenantParam, response: { 200: IntegrationList, ...errors } } },
    async (req) => listTenantIntegrations(svc, req.tenantContext),
  );

  r.post(
    base,
    {
      config: { tenantScoped: true },
      schema: { tags: ['integrations'], params: TenantParam, body: CreateIntegrationBody, response: { 201: IntegrationWithKey, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await createIntegration(svc, req.tenantContext, req.body)),
  );

  r.patch(
    `${base}/:integrationId`,
    {
      config: { tenantScoped: true },
      schema: { tags: ['integrations'], params: IntegrationParams, body: UpdateIntegrationBody, response: { 200: Integration, ...errors } },
    },
    async (req) => editIntegration(svc, req.tenantContext, req.params.integrationId, req.body),
  );

  r.post(
    `${base}/:integrationId/rotate`,
    { config: { tenantScoped: true }, schema: { tags: ['integrations'], params: IntegrationParams, response: { 200: IntegrationWithKey, ...errors } } },
    async (req) => rotateIntegrationKey(svc, req.tenantContext, req.params.integrationId),
  );

  // A new email address (the old one answers 550 from now on); the mail rules stay.
  r.post(
    `${base}/:integrationId/renew-email`,
    { config: { tenantScoped: true }, schema: { tags: ['integrations'], params: IntegrationParams, response: { 200: Integration, ...errors } } },
    async (req) => renewEmailAddress(svc, req.tenantContext, req.params.integrationId),
  );

  // Routing rules (issue 28): the ordered list; the first rule whose conditions all hold decides.
  r.get(
    `${base}/:integrationId/rules`,
    { config: { tenantScoped: true }, schema: { tags: ['integrations'], params: IntegrationParams, response: { 200: RoutingRules, ...errors } } },
    async (req) => getRoutingRules(db, req.tenantContext, req.params.integrationId),
  );
  r.put(
    `${base}/:integrationId/rules`,
    { config: { tenantScoped: true }, schema: { tags: ['integrations'], params: IntegrationParams, body: RoutingRules, response: { 200: RoutingRules, ...errors } } },
    async (req) => setRoutingRules(svc, req.tenantContext, req.params.integrationId, req.body),
  );

  r.post(
    `${base}/:integrationId/revoke`,
    { config: { tenantScoped: true }, schema: { tags: ['integrations'], params: IntegrationParams, response: { 200: Integration, ...errors } } },
    async (req) => revokeIntegration(svc, req.tenantContext, req.params.integrationId),
  );
}
