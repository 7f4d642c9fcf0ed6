import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, TenantParam } from '../../../contract/common.ts';
import {
  ActiveAlertsQuery,
  AlertDetail,
  AlertHistoryQuery,
  AlertList,
  AlertParams,
  AlertStats,
  AssignBody,
  AssigneeList,
  NoteBody,
  ACTIVE_ALERT_LIMIT,
} from '../../../contract/alerts.ts';
import type { Deps } from '../../deps.ts';
import { requireTenant } from '../../http/tenant-context.ts';
import { IntegrationKeyCache } from '../integrations/integration-keys.ts';
import { registerIntegrationRoutes } from '../integrations/integrations.routes.ts';
import { createAlertBus, type AlertBus } from './alert-bus.ts';
import { AlertStreams } from './alert-stream.ts';
import { countActiveByPriority, listActiveAlerts, listAlertHistory, listAssignees, toAlert } from './alerts.repository.ts';
import { acknowledgeAlert, addAlertNote, assignAlert, closeAlert, getAlertDetail, resolveAlert, startWorkOnAlert } from './alerts.service.ts';
import { IngestService } from './ingest/ingest.service.ts';
import { registerIngestRoutes } from './ingest/ingest.routes.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** What the alert module shares with the rest of the server (and with tests and benchmarks). */
export interface AlertRuntime {
  bus: AlertBus;
  ingest: IngestService;
  streams: AlertStreams;
}

declare module 'fastify' {
  interface FastifyInstance {
    alerts: AlertRuntime;
  }
}

/** Alerts, integrations, ingestion endpoints and the live event stream (issue 3). */
export function registerAlertRoutes(app: FastifyInstance, deps: Deps) {
  const { db, config } = deps;
  const bus = createAlertBus({ db, dialect: deps.dialect, databaseUrl: config.databaseUrl, schema: config.databaseSchema, log: app.log });
  const keys = new IntegrationKeyCache(db);
  bus.onInvalidateIntegrations((ids) => keys.evict(ids));
  const ingest = new IngestService(db, bus, deps.dialect);
  const streams = new AlertStreams(db, bus);
  app.decorate('alerts', { bus, ingest, streams } satisfies AlertRuntime);
  // Open event streams never end by themselves: close them first, or shutdown would wait for them forever.
  app.addHook('preClose', async () => streams.closeAll());
  app.addHook('onClose', async () => bus.close());

  registerIngestRoutes(app, deps, { keys, ingest });
  registerIntegrationRoutes(app, deps, { db, bus, ingest, publicUrl: () => config.publicUrl });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/tenants/:tenantId/alerts';
  const svc = { db, bus };

  r.get(base, { schema: { tags: ['alerts'], params: TenantParam, querystring: ActiveAlertsQuery, response: { 200: AlertList, ...errors } } }, async (req) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    const { rows, total } = await listActiveAlerts(db, ctx.tenant.id, req.query);
    return { items: rows.map(toAlert), total, page: 1, pageSize: ACTIVE_ALERT_LIMIT };
  });

  r.get(`${base}/stats`, { schema: { tags: ['alerts'], params: TenantParam, response: { 200: AlertStats, ...errors } } }, async (req) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    const by = await countActiveByPriority(db, ctx.tenant.id);
    return { ...by, lowInfo: by.low + by.info, total: by.critical + by.high + by.medium + by.low + by.info };
  });

  r.get(
    `${base}/history`,
    { schema: { tags: ['alerts'], params: TenantParam, querystring: AlertHistoryQuery, response: { 200: AlertList, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      const { rows, total } = await listAlertHistory(db, ctx.tenant.id, req.query);
      return { items: rows.map(toAlert), total, page: req.query.page, pageSize: req.query.pageSize };
    },
  );

  r.get('/api/tenants/:tenantId/assignees', { schema: { tags: ['alerts'], params: TenantParam, response: { 200: AssigneeList, ...errors } } }, async (req) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    const rows = await listAssignees(db, ctx.tenant.id);
    return { items: rows.map((u) => ({ id: u.id, displayName: u.display_name, email: u.email })) };
  });

  r.get(`${base}/:alertId`, { schema: { tags: ['alerts'], params: AlertParams, response: { 200: AlertDetail, ...errors } } }, async (req) => {
    const ctx = await requireTenant(db, req, req.params.tenantId);
    return getAlertDetail(db, ctx.tenant.id, req.params.alertId);
  });

  const action = (path: string, run: typeof acknowledgeAlert) =>
    r.post(`${base}/:alertId/${path}`, { schema: { tags: ['alerts'], params: AlertParams, response: { 200: AlertDetail, ...errors } } }, async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      return run(svc, ctx, req.params.alertId);
    });
  action('acknowledge', acknowledgeAlert);
  action('start', startWorkOnAlert);
  action('resolve', resolveAlert);
  action('close', closeAlert);

  r.post(
    `${base}/:alertId/assign`,
    { schema: { tags: ['alerts'], params: AlertParams, body: AssignBody, response: { 200: AlertDetail, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      return assignAlert(svc, ctx, req.params.alertId, req.body.userId);
    },
  );

  r.post(
    `${base}/:alertId/notes`,
    { schema: { tags: ['alerts'], params: AlertParams, body: NoteBody, response: { 200: AlertDetail, ...errors } } },
    async (req) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      return addAlertNote(svc, ctx, req.params.alertId, req.body.text);
    },
  );

  // Server-sent events: `alert` for every new or changed alert of the tenant, `resync` when events may have been
  // missed (the viewer reloads), `ready` on (re)connection.
  r.get(
    '/api/tenants/:tenantId/events',
    { schema: { tags: ['alerts'], summary: 'Live alert changes of the tenant (text/event-stream)', params: TenantParam } },
    async (req, reply) => {
      const ctx = await requireTenant(db, req, req.params.tenantId);
      return streams.attach(ctx, reply);
    },
  );
}
