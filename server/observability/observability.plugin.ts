import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerHealthRoutes } from './health.routes.ts';
import { metricsPlugin, type MetricsOptions } from './metrics.plugin.ts';
import { setupErrorReporting } from './sentry.ts';

/**
 * Running it in production, registered before every route so its hooks see them all: the request id on every
 * answer, Prometheus metrics, health probes and error reporting.
 */
async function observability(app: FastifyInstance, opts: MetricsOptions) {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  await app.register(metricsPlugin, opts);
  registerHealthRoutes(app, opts.deps);
  await setupErrorReporting(app, opts.deps.config);
}

export const observabilityPlugin = fp(observability, { name: 'observability', fastify: '5.x' });
