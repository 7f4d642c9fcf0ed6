import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';

/** Platform administration: /api/tenants, /api/users, /api/settings/pricing, analytics (issue 4). */
export function registerSystemRoutes(_app: FastifyInstance, _deps: Deps) {}
