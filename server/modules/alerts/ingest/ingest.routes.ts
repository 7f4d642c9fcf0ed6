import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../../../contract/common.ts';
import {
  AlertmanagerAccepted,
  AlertmanagerWebhook,
  GenericAccepted,
  GenericEvent,
  INTEGRATION_MSG,
  IntegrationParams,
  PagerDutyAccepted,
  PagerDutyError,
  PagerDutyEvent,
  TestAlertResponse,
} from '../../../../contract/integrations.ts';
import type { Deps } from '../../../deps.ts';
import { AppError, badRequest, serviceUnavailable, tooMany } from '../../../http/errors.ts';
import { isDatabaseUnavailable } from '../../../db/database.ts';
import type { IntegrationAuth } from '../../integrations/integration-keys.ts';
import { fromAlertmanager, fromGeneric, fromPagerDuty } from './ingest.mappers.ts';
import { EventBudget } from './event-budget.ts';
import { sendTestAlert } from './test-alert.service.ts';
import { ingestFormats } from './formats/index.ts';
import { registerFormatRoutes } from './formats/format-routes.ts';
import { RawEventRecorder } from '../../integrations/integration-rules.service.ts';
import { registerRulesPreview } from './rules-preview.ts';

type Issue = { instancePath?: string; message?: string };

/** Validation issues as `{dotted.path: message}`, first message per field. */
function issuesToFields(validation: Issue[]) {
  const fields: Record<string, string> = {};
  for (const v of validation) {
    const key = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || 'body';
    if (!fields[key]) fields[key] = v.message ?? 'Invalid value';
  }
  return fields;
}

const bearer = (req: FastifyRequest) => {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^(?:Bearer|Token)\s+(.+)$/i.exec(h.trim());
  return m ? m[1].trim() : null;
};

const unauthorizedKey = () => new AppError(401, 'invalid_key', INTEGRATION_MSG.invalidKey);

/**
 * The three ingestion endpoints. They authenticate by integration key (never by cookie, so CSRF does not apply),
 * answer 202 only once the event is stored, and check in this order: key (401), rate (429), payload (400). Then the
 * Integrations tab's test alert, a signed-in tenant route that ingests through one of the tenant's integrations.
 */
export function registerIngestRoutes(app: FastifyInstance, deps: Deps) {
  const { ingest: cfg } = deps.config;
  const { keys, ingest } = app.alerts;
  const budget = new EventBudget(cfg.rateLimit, cfg.rateWindowMs);
  // The last raw events of each integration, for the routing rules' preview.
  const rawEvents = new RawEventRecorder(deps.db);

  /**
   * Counts every one of `events` against the key's budget, or (when they do not all fit in what is left of the
   * window) counts none and throws 429 with Retry-After. Then a body the guard refused answers 400.
   */
  const admit = (req: FastifyRequest, integration: IntegrationAuth, events: number) => {
    if (cfg.rateLimit > 0) {
      const wait = budget.take(integration.id, events);
      if (wait > 0) throw tooMany(INTEGRATION_MSG.rateLimited, wait);
    }
    if (req.bodyProblem) throw req.bodyProblem;
  };

  // PagerDuty Events API v2, in its own scope so every error answers in PagerDuty's shape.
  app.register(async (scope) => {
    scope.setErrorHandler((error: FastifyError | AppError, req, reply) => {
      const err = isDatabaseUnavailable(error) ? serviceUnavailable() : error;
      const status = err instanceof AppError ? err.statusCode : typeof err.statusCode === 'number' && err.statusCode < 500 ? err.statusCode : 500;
      if (err instanceof AppError && err.headers) reply.headers(err.headers);
      if (status >= 500) req.log.error({ err }, 'PagerDuty event failed');
      const message =
        status === 413
          ? INTEGRATION_MSG.tooLarge
          : status === 415
            ? 'Unsupported content type; send application/json'
            : status === 400 && !(err instanceof AppError)
              ? 'Malformed JSON body'
              : status >= 500 && !(err instanceof AppError)
                ? 'Internal server error'
                : err.message;
      const body =
        status === 429
          ? { status: 'throttle event', message }
          : status === 503
            ? { status: 'unavailable', message }
          : status === 401
            ? { status: 'unauthorized', message, errors: ['routing_key: invalid or revoked'] }
            : { status: 'invalid event', message, errors: err instanceof AppError && err.fields ? Object.entries(err.fields).map(([k, v]) => `${k}: ${v}`) : [message] };
      return reply.code(status).send(body);
    });

    scope.withTypeProvider<ZodTypeProvider>().post(
      '/v2/enqueue',
      {
        bodyLimit: cfg.maxEventBytes,
        attachValidation: true,
        config: { bodyGuard: 'ingest' },
        schema: {
          tags: ['ingest'],
          summary: 'PagerDuty Events API v2: the integration key goes in routing_key',
          security: [],
          body: PagerDutyEvent,
          response: { 202: PagerDutyAccepted, 400: PagerDutyError, 401: PagerDutyError, 413: PagerDutyError, 429: PagerDutyError },
        },
      },
      async (req, reply) => {
        const raw = req.body as unknown as { routing_key?: unknown } | null;
        const key = raw && typeof raw === 'object' && typeof raw.routing_key === 'string' ? raw.routing_key : null;
        const integration = await keys.authenticate(key);
        if (!integration) throw unauthorizedKey();
        admit(req, integration, 1);
        if (req.validationError) {
          const fields = issuesToFields((req.validationError as unknown as { validation: Issue[] }).validation ?? []);
          throw new AppError(400, 'invalid_event', 'Event object is invalid', fields);
        }
        const outcome = await ingest.process(integration, fromPagerDuty(req.body));
        app.metrics.ingested('pagerduty', outcome.result);
        rawEvents.record(integration, 'pagerduty', req.body);
        return reply.code(202).send({ status: 'success' as const, message: 'Event processed', dedup_key: outcome.dedupKey });
      },
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const keyParams = z.object({ key: z.string().max(200) });
  const errors = { 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 429: ErrorBody };

  const authenticate = async (req: FastifyRequest, events: () => number) => {
    const key = bearer(req) ?? (req.params as { key?: string }).key ?? null;
    const integration = await keys.authenticate(key);
    if (!integration) throw unauthorizedKey();
    admit(req, integration, events());
    if (req.validationError) {
      const fields = issuesToFields((req.validationError as unknown as { validation: Issue[] }).validation ?? []);
      throw badRequest(Object.values(fields)[0] ?? 'Invalid event', fields);
    }
    return integration;
  };

  const alertmanager = async (req: FastifyRequest<{ Body: AlertmanagerWebhook }>, reply: FastifyReply) => {
    const integration = await authenticate(req, () => {
      const alerts = (req.body as { alerts?: unknown } | null)?.alerts;
      return Array.isArray(alerts) ? Math.max(1, alerts.length) : 1;
    });
    // The whole group was validated above; it is stored in one transaction (all of it, or on failure none).
    const results = await ingest.processGroup(integration, fromAlertmanager(req.body));
    for (const { result } of results) app.metrics.ingested('alertmanager', result);
    rawEvents.record(integration, 'alertmanager', req.body);
    return reply.code(202).send({ status: 'success' as const, message: 'Event processed', alerts: results });
  };
  const amSchema = {
    tags: ['ingest'],
    summary: 'Prometheus Alertmanager webhook (version 4): the key as `Authorization: Bearer KEY` or as the last path segment',
    security: [],
    body: AlertmanagerWebhook,
    response: { 202: AlertmanagerAccepted, ...errors },
  };
  const ingestion = { attachValidation: true, config: { bodyGuard: 'ingest' as const } };
  r.post('/api/ingest/alertmanager', { ...ingestion, schema: amSchema }, alertmanager);
  r.post('/api/ingest/alertmanager/:key', { ...ingestion, schema: { ...amSchema, params: keyParams } }, alertmanager);

  const generic = async (req: FastifyRequest<{ Body: GenericEvent }>, reply: FastifyReply) => {
    const integration = await authenticate(req, () => 1);
    const outcome = await ingest.process(integration, fromGeneric(req.body, integration.name));
    app.metrics.ingested('generic', outcome.result);
    rawEvents.record(integration, 'generic', req.body);
    return reply.code(202).send({ status: 'success' as const, message: 'Event processed', dedupKey: outcome.dedupKey, alertId: outcome.alertId, result: outcome.result });
  };
  const genericSchema = {
    tags: ['ingest'],
    summary: 'Alertdesk generic event: the key as `Authorization: Bearer KEY` or as the last path segment',
    security: [],
    body: GenericEvent,
    response: { 202: GenericAccepted, ...errors },
  };
  r.post('/api/ingest/events', { ...ingestion, bodyLimit: cfg.maxEventBytes, schema: genericSchema }, generic);
  r.post('/api/ingest/events/:key', { ...ingestion, bodyLimit: cfg.maxEventBytes, schema: { ...genericSchema, params: keyParams } }, generic);

  // Grafana, Zabbix, Uptime Kuma, NinjaOne, Datto RMM, Azure Monitor, Datadog and AWS SNS: one route pair each
  // (formats/), with the same key, rate and body checks.
  const formats = ingestFormats(deps.config);
  registerFormatRoutes(app, { authenticate, ingest, formats, maxEventBytes: cfg.maxEventBytes, record: (integration, format, body) => rawEvents.record(integration, format, body) });
  registerRulesPreview(app, deps, ingest, formats);

  const testErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };
  r.post(
    '/api/tenants/:tenantId/integrations/:integrationId/test',
    { config: { tenantScoped: true }, schema: { tags: ['integrations'], params: IntegrationParams, response: { 201: TestAlertResponse, ...testErrors } } },
    async (req, reply) => reply.code(201).send(await sendTestAlert(deps.db, ingest, req.tenantContext, req.params.integrationId)),
  );
}
