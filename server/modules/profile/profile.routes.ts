import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';

/** Profile, password change, notification preferences and push tokens of the signed-in user (issue 5). */
export function registerProfileRoutes(_app: FastifyInstance, _deps: Deps) {}
