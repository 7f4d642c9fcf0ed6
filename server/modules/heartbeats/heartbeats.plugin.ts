import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';

/** Heartbeat monitors (issue 28): placeholder, filled in by that work. */
async function heartbeats(_app: FastifyInstance, _deps: Deps) {}

export const heartbeatsPlugin = fp(heartbeats, { name: 'heartbeats', dependencies: ['jobs', 'alert-runtime'] });
