import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';

/** The weekly digest (issue 31): registered here; filled in by its issue's work. */
async function digest(_app: FastifyInstance, _deps: Deps) {}

export const digestPlugin = fp(digest, { name: 'digest', dependencies: ['jobs', 'alert-runtime'] });
