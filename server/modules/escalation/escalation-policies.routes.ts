import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import { DefaultEscalationPolicy, EscalationPolicy, EscalationPolicyInput, EscalationPolicyList, EscalationPolicyParams } from '../../../contract/escalation.ts';
import type { Deps } from '../../deps.ts';
import { signedIn } from '../../http/session.ts';
import { createDefaultPolicy, createPolicy, deletePolicy, getDefaultPolicy, getPolicy, listPolicies, updatePolicy } from './escalation-policies.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
const tags = ['escalation'];

/**
 * Escalation policies under /api/tenants/:tenantId/escalationPolicies: every member reads, owners and admins write
 * (403 otherwise); a policy of another tenant answers 404 exactly like a missing one.
 */
export function registerEscalationPolicyRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;
  const base = '/api/tenants/:tenantId/escalationPolicies';
  const scoped = { onRequest: signedIn, config: { tenantScoped: true } };

  r.get(base, { ...scoped, schema: { tags, params: TenantParam, response: { 200: EscalationPolicyList, ...errors } } }, async (req) => listPolicies(db, req.tenantContext));

  r.post(base, { ...scoped, schema: { tags, params: TenantParam, body: EscalationPolicyInput, response: { 201: EscalationPolicy, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await createPolicy(db, req.tenantContext, req.body)),
  );

  // The tenant's default policy ({ policy: null } without one), and the one-click default of the getting-started
  // panel (409 once there is a default). Declared before `/:policyId`; a static segment wins over a parameter anyway.
  r.get(`${base}/default`, { ...scoped, schema: { tags, params: TenantParam, response: { 200: DefaultEscalationPolicy, ...errors } } }, async (req) => getDefaultPolicy(db, req.tenantContext));

  r.post(`${base}/default`, { ...scoped, schema: { tags, params: TenantParam, response: { 201: EscalationPolicy, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await createDefaultPolicy(db, req.tenantContext)),
  );

  r.get(`${base}/:policyId`, { ...scoped, schema: { tags, params: EscalationPolicyParams, response: { 200: EscalationPolicy, ...errors } } }, async (req) =>
    getPolicy(db, req.tenantContext, req.params.policyId),
  );

  r.put(`${base}/:policyId`, { ...scoped, schema: { tags, params: EscalationPolicyParams, body: EscalationPolicyInput, response: { 200: EscalationPolicy, ...errors } } }, async (req) =>
    updatePolicy(db, req.tenantContext, req.params.policyId, req.body),
  );

  r.delete(`${base}/:policyId`, { ...scoped, schema: { tags, params: EscalationPolicyParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await deletePolicy(db, req.tenantContext, req.params.policyId);
    return { ok: true as const };
  });
}
