import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';

/** Reports (issue 31): placeholder, filled in by that work. */
export function registerReportRoutes(_app: FastifyInstance, _deps: Deps) {}
