import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { createEscalationEngine } from './escalation-engine.ts';
import { EscalationRouting } from './escalation-start.ts';
import { createHandoverNotifier, HANDOVER_JOB } from './handover.ts';
import { PAGES_JOB } from './page-delivery.ts';
import { createPageSummaries, SUMMARY_JOB } from './page-summary.ts';
import { registerVoiceRoutes } from './voice.routes.ts';

/**
 * A new alert wakes an idle worker after this long instead of its next poll: alerts arriving together start in one
 * batch. A worker in the middle of a pass is left to finish it (a wake then would start the next pass straight away,
 * and under a burst of ingestion the sweeps would run back to back). Measured with bench:ingest on SQLite: p99 at
 * 1,000 events/s 14.5 → 7.4 ms; at full load, where the sweeps then run about every 0.1 s, 15 → 29 ms.
 */
const NEW_ALERT_WAKE_MS = 100;

/** The routes whose writes can change a tenant's escalation routing (see the onSend hook below). */
const ROUTING_RESOURCES = /^\/api\/tenants\/:tenantId\/(escalationPolicies|integrations|clients|notification-preferences|members|maintenanceWindows)(\/|$)/;

declare module 'fastify' {
  interface FastifyInstance {
    /** The escalation engine (tests run its sweeps and handlers on workers of their own). */
    paging: { engine: ReturnType<typeof createEscalationEngine> };
  }
}

/**
 * Paging: the escalation engine's sweeps (start, next level, overdue) and page jobs, and the on-call handover
 * notices, registered with the job runner; pages go out through the notifier.
 */
async function paging(app: FastifyInstance, deps: Deps) {
  const { jobs } = app;
  const { notifier } = app.notifications;
  const publicUrl = () => deps.config.publicUrl;
  const engine = createEscalationEngine({ db: deps.db, dialect: deps.dialect, notifier, publicUrl, sendsInFlight: deps.config.pageSendsInFlight, stormLimit: deps.config.pageStormLimit, bus: deps.bus, log: app.log });
  const handover = createHandoverNotifier({ db: deps.db, notifier, publicUrl });
  app.decorate('paging', { engine });
  // New alerts are written with their escalation decided (level 1 due at once, for the step sweep), their routing
  // cached per tenant and forgotten on every instance when it changes.
  const routing = new EscalationRouting(deps.db);
  deps.bus.onInvalidateRouting((tenantIds) => routing.invalidate(tenantIds));
  app.alerts.ingest.useEscalationStart(routing.decide);
  // Whatever changes which policy governs a tenant's new alerts is a write under one of these resources (its
  // policies, an integration's or client's policy, someone's subscriptions): any such write that succeeded forgets
  // the tenant's routing everywhere, before the answer leaves (a caller that triggers right after it is routed anew).
  app.addHook('onSend', async (req, reply) => {
    if (req.method === 'GET' || req.method === 'HEAD' || reply.statusCode >= 400) return;
    const url = req.routeOptions.url;
    if (!url || !ROUTING_RESOURCES.test(url)) return;
    const tenantId = (req.params as { tenantId?: unknown }).tenantId;
    if (typeof tenantId === 'string') deps.bus.invalidateRouting([tenantId]);
  });
  registerVoiceRoutes(app, deps);
  jobs.handleBatch(PAGES_JOB, engine.pagesHandler);
  jobs.handle(HANDOVER_JOB, handover.handler);
  jobs.handle(SUMMARY_JOB, createPageSummaries({ db: deps.db, notifier, publicUrl }).handler);
  for (const sweep of [engine.startPending, engine.checkSteps, engine.checkOverdue, handover.sweep]) jobs.sweep(sweep);
  // A new alert's escalation is due at once. Created here, or on another instance (PostgreSQL: the bus's NOTIFY), it
  // wakes this worker within NEW_ALERT_WAKE_MS rather than at its next poll.
  deps.bus.onAlertChange((_tenantId, change) => {
    if (change.kind === 'created') jobs.worker.wakeWithin(NEW_ALERT_WAKE_MS);
  });
}

export const pagingPlugin = fp(paging, { name: 'paging', dependencies: ['jobs', 'notifications', 'alert-runtime'] });
