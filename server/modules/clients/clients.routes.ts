import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Client, ClientInput, ClientList, ClientListQuery, ClientParams } from '../../../contract/clients.ts';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import type { Deps } from '../../deps.ts';
import { signedIn } from '../../http/session.ts';
import { createClient, deleteClient, getClient, listClients, updateClient } from './clients.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * Client management under /api/tenants/:tenantId/clients. Every member of the tenant may create, edit and delete
 * (spec section 6); a client of another tenant answers 404 exactly like a missing one. No session answers 401 before
 * the body or query is even looked at (`onRequest: signedIn`).
 */
export function registerClientRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const base = '/api/tenants/:tenantId/clients';

  r.get(
    base,
    {
      onRequest: signedIn,
      config: { tenantScoped: true },
      schema: { tags: ['clients'], params: TenantParam, querystring: ClientListQuery, response: { 200: ClientList, ...errors } },
    },
    async (req) => listClients(db, req.tenantContext, req.query),
  );

  r.post(
    base,
    {
      onRequest: signedIn,
      config: { tenantScoped: true },
      schema: { tags: ['clients'], params: TenantParam, body: ClientInput, response: { 201: Client, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await createClient(db, req.tenantContext, req.body)),
  );

  r.get(
    `${base}/:clientId`,
    { onRequest: signedIn, config: { tenantScoped: true }, schema: { tags: ['clients'], params: ClientParams, response: { 200: Client, ...errors } } },
    async (req) => getClient(db, req.tenantContext, req.params.clientId),
  );

  r.put(
    `${base}/:clientId`,
    {
      onRequest: signedIn,
      config: { tenantScoped: true },
      schema: { tags: ['clients'], params: ClientParams, body: ClientInput, response: { 200: Client, ...errors } },
    },
    async (req) => updateClient(db, req.tenantContext, req.params.clientId, req.body),
  );

  r.delete(
    `${base}/:clientId`,
    { onRequest: signedIn, config: { tenantScoped: true }, schema: { tags: ['clients'], params: ClientParams, response: { 200: Ok, ...errors } } },
    async (req) => {
      await deleteClient(db, req.tenantContext, req.params.clientId);
      return { ok: true as const };
    },
  );
}
