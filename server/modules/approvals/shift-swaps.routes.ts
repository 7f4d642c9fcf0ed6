import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, TenantParam } from '../../../contract/common.ts';
import { ShiftSwap, ShiftSwapInput, ShiftSwapList } from '../../../contract/shift-swaps.ts';
import { signedIn } from '../../http/session.ts';
import type { ApprovalDeps } from './approvals.service.ts';
import { createShiftSwap, listShiftSwaps } from './shift-swaps.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Shift swaps under /api/tenants/:tenantId/shiftSwaps: ask someone to take (part of) my shift, and the swaps I asked
 * for or was asked. Decisions go through the approval request's own approve, reject and cancel.
 */
export function registerShiftSwapRoutes(app: FastifyInstance, deps: ApprovalDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const path = '/api/tenants/:tenantId/shiftSwaps';
  const scoped = { onRequest: signedIn, config: { tenantScoped: true } };
  const tags = ['approvals'];
  r.get(path, { ...scoped, schema: { tags, params: TenantParam, response: { 200: ShiftSwapList, ...errors } } }, async (req) => listShiftSwaps(deps, req.tenantContext));
  r.post(path, { ...scoped, schema: { tags, params: TenantParam, body: ShiftSwapInput, response: { 201: ShiftSwap, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await createShiftSwap(deps, req.tenantContext, req.body)),
  );
}
