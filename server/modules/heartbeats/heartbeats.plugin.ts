import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { createHeartbeatMonitor, type HeartbeatMonitor } from './heartbeat-monitor.ts';
import { registerHeartbeatRoutes, registerPingRoutes } from './heartbeats.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Heartbeat monitors' runtime (tests run its sweep as a second instance would). */
    heartbeats: { monitor: HeartbeatMonitor };
  }
}

/**
 * Heartbeat monitors (issue 28): the tenant routes, the ping URLs, and the sweep the job worker runs on every pass
 * (on every instance: its writes are conditional, so a deadline fires once). Alerts go through ingestion
 * (`app.alerts.ingest`); times come from the worker's clock, which tests move.
 */
async function heartbeats(app: FastifyInstance, deps: Deps) {
  const { clock } = app.jobs;
  // A monitor's alert changes are counted as ingested events of format `heartbeat` (the metrics' label).
  const ingest = {
    process: async (...args: Parameters<typeof app.alerts.ingest.process>) => {
      const outcome = await app.alerts.ingest.process(...args);
      app.metrics.ingested('heartbeat', outcome.result);
      return outcome;
    },
  };
  const monitor = createHeartbeatMonitor({ db: deps.db, ingest, clock, log: app.log });
  app.decorate('heartbeats', { monitor });
  app.jobs.sweep((now) => monitor.sweep(now));
  registerHeartbeatRoutes(app, { db: deps.db, clock, publicUrl: () => deps.config.publicUrl, mailDomain: deps.config.inboundMail.port === null ? null : deps.config.inboundMail.domain });
  await registerPingRoutes(app, monitor);
}

export const heartbeatsPlugin = fp(heartbeats, { name: 'heartbeats', dependencies: ['jobs', 'alert-runtime'] });
