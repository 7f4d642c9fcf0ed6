import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import { PsaCompaniesQuery, PsaCompanyList, PsaCompanyMap, PsaCompanyMapInput, PsaConnection, PsaConnectionInput, PsaConnectionList, PsaInboundParams, PsaParams, PsaTestResult } from '../../../contract/psa.ts';
import { signedIn } from '../../http/session.ts';
import { handleInbound } from './psa-inbound.ts';
import type { PsaDeps } from './psa-runtime.ts';
import * as svc from './psa.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * A tenant's PSA connections under /api/tenants/:tenantId/psaConnections (owners and admins: the service checks), and
 * the PSAs' notices of ticket changes at /api/ingest/psa/:token (no session: the signed token is the key).
 */
export function registerPsaRoutes(app: FastifyInstance, deps: PsaDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/tenants/:tenantId/psaConnections';
  const one = `${base}/:connectionId`;
  const scoped = { onRequest: signedIn, config: { tenantScoped: true } };
  const tags = ['psa'];

  r.get(base, { ...scoped, schema: { tags, params: TenantParam, response: { 200: PsaConnectionList, ...errors } } }, async (req) => svc.listConnections(deps, req.tenantContext));
  r.post(base, { ...scoped, schema: { tags, summary: 'A new PSA connection; its secrets are stored encrypted and never answered', params: TenantParam, body: PsaConnectionInput, response: { 201: PsaConnection, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await svc.createConnection(deps, req.tenantContext, req.body)),
  );
  r.get(one, { ...scoped, schema: { tags, params: PsaParams, response: { 200: PsaConnection, ...errors } } }, async (req) => svc.getConnection(deps, req.tenantContext, req.params.connectionId));
  r.put(one, { ...scoped, schema: { tags, summary: 'Updates a connection; a secret left out keeps the stored one', params: PsaParams, body: PsaConnectionInput, response: { 200: PsaConnection, ...errors } } }, async (req) =>
    svc.updateConnection(deps, req.tenantContext, req.params.connectionId, req.body),
  );
  r.delete(one, { ...scoped, schema: { tags, params: PsaParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await svc.deleteConnection(deps, req.tenantContext, req.params.connectionId);
    return { ok: true as const };
  });
  r.post(`${one}/test`, { ...scoped, schema: { tags, summary: 'Test connection: one authenticated call to the PSA', params: PsaParams, response: { 200: PsaTestResult, ...errors } } }, async (req) =>
    svc.testConnection(deps, req.tenantContext, req.params.connectionId),
  );
  r.get(`${one}/companies`, { ...scoped, schema: { tags, summary: "The PSA's companies", params: PsaParams, querystring: PsaCompaniesQuery, response: { 200: PsaCompanyList, ...errors } } }, async (req) =>
    svc.listCompanies(deps, req.tenantContext, req.params.connectionId, req.query.search),
  );
  r.get(`${one}/companyMap`, { ...scoped, schema: { tags, summary: 'Each client with its company, or a suggestion by its name and aliases', params: PsaParams, response: { 200: PsaCompanyMap, ...errors } } }, async (req) =>
    svc.getCompanyMap(deps, req.tenantContext, req.params.connectionId),
  );
  r.put(`${one}/companyMap`, { ...scoped, schema: { tags, summary: "Replaces the connection's client → company map", params: PsaParams, body: PsaCompanyMapInput, response: { 200: PsaCompanyMap, ...errors } } }, async (req) =>
    svc.putCompanyMap(deps, req.tenantContext, req.params.connectionId, req.body),
  );
  r.post(
    '/api/ingest/psa/:token',
    { schema: { tags, summary: "A PSA's notice of a ticket change (ConnectWise callback, HaloPSA webhook)", params: PsaInboundParams, body: z.unknown(), response: { 200: Ok, 404: ErrorBody } } },
    async (req) => handleInbound(deps, req.params.token, req.body),
  );
}
