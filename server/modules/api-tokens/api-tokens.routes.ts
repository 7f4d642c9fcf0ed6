import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiTokenCreated, ApiTokenInput, ApiTokenList, ApiTokenParams } from '../../../contract/api-tokens.ts';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import type { DB } from '../../db/database.ts';
import { signedIn } from '../../http/session.ts';
import * as svc from './api-tokens.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** A tenant's API tokens under /api/tenants/:tenantId/apiTokens: owners and admins, with a session (never a token). */
export function registerApiTokenRoutes(app: FastifyInstance, db: DB) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/tenants/:tenantId/apiTokens';
  const scoped = { onRequest: signedIn, config: { tenantScoped: true } };
  const tags = ['apiTokens'];

  r.get(base, { ...scoped, schema: { tags, params: TenantParam, response: { 200: ApiTokenList, ...errors } } }, async (req) => svc.listApiTokens(db, req.tenantContext));
  r.post(base, { ...scoped, schema: { tags, params: TenantParam, body: ApiTokenInput, response: { 201: ApiTokenCreated, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await svc.createApiToken(db, req.tenantContext, req.body)),
  );
  r.delete(`${base}/:tokenId`, { ...scoped, schema: { tags, params: ApiTokenParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await svc.revokeApiToken(db, req.tenantContext, req.params.tokenId);
    return { ok: true as const };
  });
}
