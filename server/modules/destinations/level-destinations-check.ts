import type { FastifyInstance } from 'fastify';
import type { EscalationPolicyInput } from '../../../contract/escalation.ts';
import type { DB } from '../../db/database.ts';
import { loadTenantContext } from '../tenants/tenants.service.ts';
import { checkLevelDestinations } from './level-posts.service.ts';

/** The routes that save an escalation policy (create, update). */
const POLICY_SAVES = new Set(['POST /api/tenants/:tenantId/escalationPolicies', 'PUT /api/tenants/:tenantId/escalationPolicies/:policyId']);

/**
 * A policy's levels may name only destinations of its tenant (issue 29): a save naming a deleted destination, or
 * another tenant's, answers 400 on `level_N.destinationIds`. Checked here, beside the destinations (the escalation
 * module does not know them), after the body's validation, and only for a caller the route would let save: anyone
 * else gets the route's own answer (401, 404 for another tenant, 403).
 */
export function checkPolicyDestinationsOnSave(app: FastifyInstance, db: DB) {
  app.addHook('preHandler', async (req) => {
    if (!POLICY_SAVES.has(`${req.method} ${req.routeOptions.url ?? ''}`) || !req.sessionUser) return;
    const { tenantId } = req.params as { tenantId: string };
    const standing = req.sessionStanding?.tenantId === tenantId ? req.sessionStanding : null;
    const ctx = req.apiTokenContext ?? (await loadTenantContext(db, req.sessionUser, tenantId, standing));
    if (!ctx || ctx.tenant.id !== tenantId || !ctx.abilities.manageEscalation) return;
    await checkLevelDestinations(db, tenantId, req.body as EscalationPolicyInput);
  });
}
