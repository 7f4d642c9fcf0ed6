import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, TenantParam } from '../../../contract/common.ts';
import {
  ActiveAlertsQuery,
  AlertDetail,
  AlertHistoryExportQuery,
  AlertHistoryQuery,
  AlertList,
  AlertParams,
  AlertStats,
  AssignBody,
  AssigneeList,
  BulkAlertBody,
  BulkAlertResult,
  NoteBody,
  SnoozeBody,
  ASSIGNEE_ME,
  PAGED_NOBODY_WINDOW_HOURS,
} from '../../../contract/alerts.ts';
import type { Deps } from '../../deps.ts';
import { countActiveByPriority, countPagedNobodySince, hasAnyAlert, listActiveAlerts, toAlert } from './alerts.repository.ts';
import { listAlertHistory } from './alert-history.repository.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { exportAlertHistory } from './alert-export.ts';
import { snoozeAlert, unsnoozeAlert } from './alert-snooze.ts';
import { acknowledgeAlert, addAlertNote, assignAlert, bulkAlertAction, closeAlert, getAlertDetail, resolveAlert, startWorkOnAlert } from './alerts.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** Alerts and their live event stream; the streams themselves are the alert runtime's (`app.alerts`). */
export function registerAlertRoutes(app: FastifyInstance, deps: Deps) {
  const { db, bus, dialect } = deps;
  const { streams } = app.alerts;

  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/tenants/:tenantId/alerts';
  const svc = { db, bus };

  r.get(
    base,
    {
      config: { tenantScoped: true },
      schema: { tags: ['alerts'], params: TenantParam, querystring: ActiveAlertsQuery, response: { 200: AlertList, ...errors } },
    },
    async (req) => {
      const { user, tenant } = req.tenantContext;
      const { assignee, ...query } = req.query;
      // Before the query: a change heard after it may be missing from the answer (issue 33, alert-read-stamp.ts).
      const readStamp = streams.readStamps.stamp();
      const { rows, total } = await listActiveAlerts(db, tenant.id, { ...query, assignee: assignee === ASSIGNEE_ME ? user.id : assignee });
      return { items: rows.map(toAlert), total, page: query.page, pageSize: query.pageSize, readStamp };
    },
  );

  r.get(
    `${base}/stats`,
    { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: TenantParam, response: { 200: AlertStats, ...errors } } },
    async (req) => {
      const tenantId = req.tenantContext.tenant.id;
      const since = new Date(Date.now() - PAGED_NOBODY_WINDOW_HOURS * 3_600_000).toISOString();
      const readStamp = streams.readStamps.stamp();
      const [by, pagedNobody] = await Promise.all([countActiveByPriority(db, tenantId), countPagedNobodySince(db, tenantId, since)]);
      const total = by.critical + by.high + by.medium + by.low + by.info;
      return { ...by, lowInfo: by.low + by.info, total, hasAlerts: total > 0 || (await hasAnyAlert(db, tenantId)), pagedNobody, readStamp };
    },
  );

  r.get(
    `${base}/history`,
    {
      config: { tenantScoped: true },
      schema: { tags: ['alerts'], params: TenantParam, querystring: AlertHistoryQuery, response: { 200: AlertList, ...errors } },
    },
    async (req) => {
      const { rows, total, totalCapped } = await listAlertHistory(db, dialect, req.tenantContext.tenant.id, req.query);
      return { items: rows.map(toAlert), total, totalCapped, page: req.query.page, pageSize: req.query.pageSize };
    },
  );

  // The filtered history as a CSV file, streamed (alert-export.ts); `x-total-count` says how many rows will come.
  r.get(
    `${base}/history/export`,
    {
      config: { tenantScoped: true },
      schema: { tags: ['alerts'], summary: 'The filtered history as CSV (text/csv, streamed)', params: TenantParam, querystring: AlertHistoryExportQuery },
    },
    async (req, reply) => {
      const { total, filename, body } = await exportAlertHistory(db, dialect, req.tenantContext.tenant, req.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('x-total-count', String(total))
        .send(body);
    },
  );

  r.get(
    '/api/tenants/:tenantId/assignees',
    { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: TenantParam, response: { 200: AssigneeList, ...errors } } },
    async (req) => {
      // Who may be assigned: active members of the tenant with an account.
      const rows = await listActiveMemberAccounts(db, req.tenantContext.tenant.id);
      return { items: rows.map((u) => ({ id: u.id, displayName: u.display_name, email: u.email })) };
    },
  );

  r.get(
    `${base}/:alertId`,
    { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: AlertParams, response: { 200: AlertDetail, ...errors } } },
    async (req) => getAlertDetail(db, req.tenantContext.tenant.id, req.params.alertId),
  );

  const action = (path: string, run: typeof acknowledgeAlert) =>
    r.post(
      `${base}/:alertId/${path}`,
      { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: AlertParams, response: { 200: AlertDetail, ...errors } } },
      async (req) => run(svc, req.tenantContext, req.params.alertId),
    );
  action('acknowledge', acknowledgeAlert);
  action('start', startWorkOnAlert);
  action('resolve', resolveAlert);
  action('close', closeAlert);

  // Several alerts at once, each exactly as its single action (its own transaction, timeline entry and live update);
  // what could not be done to one alert is reported for that alert.
  r.post(
    `${base}/bulk`,
    { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: TenantParam, body: BulkAlertBody, response: { 200: BulkAlertResult, ...errors } } },
    async (req) => bulkAlertAction(svc, req.tenantContext, req.body),
  );

  r.post(
    `${base}/:alertId/assign`,
    { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: AlertParams, body: AssignBody, response: { 200: AlertDetail, ...errors } } },
    async (req) => assignAlert(svc, req.tenantContext, req.params.alertId, req.body.userId),
  );

  // Snooze (issue 31): every member, as the other actions; the answer is the alert as it is now.
  r.post(
    `${base}/:alertId/snooze`,
    { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: AlertParams, body: SnoozeBody, response: { 200: AlertDetail, ...errors } } },
    async (req) => {
      await snoozeAlert(svc, req.tenantContext, req.params.alertId, req.body);
      return getAlertDetail(db, req.tenantContext.tenant.id, req.params.alertId);
    },
  );
  r.post(
    `${base}/:alertId/unsnooze`,
    { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: AlertParams, response: { 200: AlertDetail, ...errors } } },
    async (req) => {
      await unsnoozeAlert(svc, req.tenantContext, req.params.alertId);
      return getAlertDetail(db, req.tenantContext.tenant.id, req.params.alertId);
    },
  );

  r.post(
    `${base}/:alertId/notes`,
    { config: { tenantScoped: true }, schema: { tags: ['alerts'], params: AlertParams, body: NoteBody, response: { 200: AlertDetail, ...errors } } },
    async (req) => addAlertNote(svc, req.tenantContext, req.params.alertId, req.body.text),
  );

  // Server-sent events: `alert` for every new or changed alert of the tenant, `resync` when events may have been
  // missed (the viewer reloads), `ready` on (re)connection.
  r.get(
    '/api/tenants/:tenantId/events',
    // Never compressed: a compressor holds events back until its buffer fills.
    { config: { tenantScoped: true }, compress: false, schema: { tags: ['alerts'], summary: 'Live alert changes of the tenant (text/event-stream)', params: TenantParam } },
    async (req, reply) => streams.attach(req.tenantContext, reply),
  );
}
