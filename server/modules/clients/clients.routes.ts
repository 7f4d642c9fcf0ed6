import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Client, ClientInput, ClientList, ClientListQuery, ClientParams } from '../../../contract/clients.ts';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import type { Deps } from '../../deps.ts';
import { requireUser } from '../../http/session.ts';
import { requireTenant } from '../../http/tenant-context.ts';
import { createClient, deleteClient, getClient, listClients, updateClient } from './clients.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * Client management under /api/tenants/:tenantId/clients. Every member of the tenant may create, edit and delete
 * (spec section 6); a client of another tenant answers 404 exactly like a missing one.
 */
export function registerClientRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const base = '/api/tenants/:tenantId/clients';
  // No session answers 401 before the body or query is even looked at.
  const signedIn = async (req: FastifyRequest) => {
    requireUser(req);
  };

  r.get(base, { onRequest: signedIn, schema: { tags: ['clients'], params: TenantParam, querystring: ClientListQuery, response: { 200: ClientList, ...errors } } }, async (req) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    return listClients(db, ctx, req.query);
  });

  r.post(base, { onRequest: signedIn, schema: { tags: ['clients'], params: TenantParam, body: ClientInput, response: { 201: Client, ...errors } } }, async (req, reply) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    return reply.code(201).send(await createClient(db, ctx, req.body));
  });

  r.get(`${base}/:clientId`, { onRequest: signedIn, schema: { tags: ['clients'], params: ClientParams, response: { 200: Client, ...errors } } }, async (req) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    return getClient(db, ctx, req.params.clientId);
  });

  r.put(
    `${base}/:clientId`,
    { onRequest: signedIn, schema: { tags: ['clients'], params: ClientParams, body: ClientInput, response: { 200: Client, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      return updateClient(db, ctx, req.params.clientId, req.body);
    },
  );

  r.delete(`${base}/:clientId`, { onRequest: signedIn, schema: { tags: ['clients'], params: ClientParams, response: { 200: Ok, ...errors } } }, async (req) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    await deleteClient(db, ctx, req.params.clientId);
    return { ok: true as const };
  });
}
