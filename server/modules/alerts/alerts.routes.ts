import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';

/** Alerts, integrations, ingestion endpoints and the live event stream (issue 3). */
export function registerAlertRoutes(_app: FastifyInstance, _deps: Deps) {}
