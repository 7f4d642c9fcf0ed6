import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { registerMaintenanceRoutes } from './maintenance.routes.ts';

/**
 * Maintenance windows (issue 31): the tenant routes. Ingestion holds the alerts a window covers through paging's
 * escalation routing (which reads the windows through this module's service); the step sweep releases them.
 */
async function maintenance(app: FastifyInstance, deps: Deps) {
  registerMaintenanceRoutes(app, { db: deps.db, clock: app.jobs.clock });
}

export const maintenancePlugin = fp(maintenance, { name: 'maintenance', dependencies: ['jobs', 'alert-runtime'] });
