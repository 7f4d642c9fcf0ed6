import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';

/** Tenant members and invitations under /api/tenants/:tenantId/members (issue 5). */
export function registerMemberRoutes(_app: FastifyInstance, _deps: Deps) {}
