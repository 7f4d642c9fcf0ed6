import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';

/** Client management under /api/tenants/:tenantId/clients (issue 6). */
export function registerClientRoutes(_app: FastifyInstance, _deps: Deps) {}
