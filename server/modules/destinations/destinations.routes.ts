import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import { Delivery, DeliveryList, DeliveryParams, Destination, DestinationInput, DestinationList, DestinationParams, DestinationWithSecret } from '../../../contract/destinations.ts';
import { signedIn } from '../../http/session.ts';
import * as svc from './destinations.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** A tenant's destinations under /api/tenants/:tenantId/destinations: owners and admins (the service checks). */
export function registerDestinationRoutes(app: FastifyInstance, deps: svc.DestinationServiceDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/tenants/:tenantId/destinations';
  const one = `${base}/:destinationId`;
  const scoped = { onRequest: signedIn, config: { tenantScoped: true } };
  const tags = ['destinations'];

  r.get(base, { ...scoped, schema: { tags, params: TenantParam, response: { 200: DestinationList, ...errors } } }, async (req) => svc.listDestinations(deps, req.tenantContext));
  r.post(base, { ...scoped, schema: { tags, params: TenantParam, body: DestinationInput, response: { 201: DestinationWithSecret, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await svc.createDestination(deps, req.tenantContext, req.body)),
  );
  r.put(one, { ...scoped, schema: { tags, params: DestinationParams, body: DestinationInput, response: { 200: Destination, ...errors } } }, async (req) =>
    svc.updateDestination(deps, req.tenantContext, req.params.destinationId, req.body),
  );
  r.delete(one, { ...scoped, schema: { tags, params: DestinationParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await svc.deleteDestination(deps, req.tenantContext, req.params.destinationId);
    return { ok: true as const };
  });
  r.post(`${one}/test`, { ...scoped, schema: { tags, summary: 'Sends a test event now; answers its delivery', params: DestinationParams, response: { 200: Delivery, ...errors } } }, async (req) =>
    svc.sendTestEvent(deps, req.tenantContext, req.params.destinationId),
  );
  r.post(`${one}/rotateSecret`, { ...scoped, schema: { tags, summary: 'A new signing secret (shown once); the old one keeps signing beside it for 24 h', params: DestinationParams, response: { 200: DestinationWithSecret, ...errors } } }, async (req) =>
    svc.rotateSecret(deps, req.tenantContext, req.params.destinationId),
  );
  r.get(`${one}/deliveries`, { ...scoped, schema: { tags, params: DestinationParams, response: { 200: DeliveryList, ...errors } } }, async (req) =>
    svc.listDeliveries(deps, req.tenantContext, req.params.destinationId),
  );
  r.post(`${one}/deliveries/:deliveryId/retry`, { ...scoped, schema: { tags, params: DeliveryParams, response: { 200: Delivery, ...errors } } }, async (req) =>
    svc.retryDelivery(deps, req.tenantContext, req.params.destinationId, req.params.deliveryId),
  );
}
