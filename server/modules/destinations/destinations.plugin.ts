import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';

/** Destinations: outbound webhooks (issue 29): registered here; filled in by its issue's work. */
async function destinations(_app: FastifyInstance, _deps: Deps) {}

export const destinationsPlugin = fp(destinations, { name: 'destinations', dependencies: ['jobs', 'alert-runtime'] });
