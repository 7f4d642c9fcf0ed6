import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';

/** Maintenance windows and snooze (issue 31): registered here; filled in by its issue's work. */
async function maintenance(_app: FastifyInstance, _deps: Deps) {}

export const maintenancePlugin = fp(maintenance, { name: 'maintenance', dependencies: ['jobs', 'alert-runtime'] });
