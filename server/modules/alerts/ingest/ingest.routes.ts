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
  PagerDutyAccepted,
  PagerDutyError,
  PagerDutyEvent,
} from '../../../../contract/integrations.ts';
import type { Deps } from '../../../deps.ts';
import { AppError, badRequest, tooMany } from '../../../http/errors.ts';
import { WindowCounter } from '../../../http/rate-limit.ts';
import type { IntegrationAuth, IntegrationKeyCache } from '../../integrations/integration-keys.ts';
import type { IngestService } from './ingest.service.ts';
import { fromAlertmanager, fromGeneric, fromPagerDuty } from './ingest.mappers.ts';

export interface IngestDeps {
  keys: IntegrationKeyCache;
  ingest: IngestService;
}

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
 * answer 202 only once the event is stored, and check in this order: key (401), rate (429), payload (400).
 */
export function registerIngestRoutes(app: FastifyInstance, deps: Deps, ing: IngestDeps) {
  const { ingest: cfg } = deps.config;
  const limiter = new WindowCounter(cfg.rateLimit, cfg.rateWindowMs);

  /** Counts `events` against the key's budget, or throws 429 with Retry-After. */
  const admit = (integration: IntegrationAuth, events: number) => {
    if (cfg.rateLimit <= 0) return;
    const wait = limiter.blockedFor(integration.id);
    if (wait > 0) throw tooMany(INTEGRATION_MSG.rateLimited, wait);
    for (let i = 0; i < events; i++) limiter.hit(integration.id);
  };

  // PagerDuty Events API v2, in its own scope so every error answers in PagerDuty's shape.
  app.register(async (scope) => {
    scope.setErrorHandler((err: FastifyError | AppError, req, reply) => {
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
              : status >= 500
                ? 'Internal server error'
                : err.message;
      const body =
        status === 429
          ? { status: 'throttle event', message }
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
        const integration = await ing.keys.authenticate(key);
        if (!integration) throw unauthorizedKey();
        admit(integration, 1);
        if (req.validationError) {
          const fields = issuesToFields((req.validationError as unknown as { validation: Issue[] }).validation ?? []);
          throw new AppError(400, 'invalid_event', 'Event object is invalid', fields);
        }
        const outcome = await ing.ingest.process(integration, fromPagerDuty(req.body));
        return reply.code(202).send({ status: 'success' as const, message: 'Event processed', dedup_key: outcome.dedupKey });
      },
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const keyParams = z.object({ key: z.string().max(200) });
  const errors = { 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 429: ErrorBody };

  const authenticate = async (req: FastifyRequest, events: () => number) => {
    const key = bearer(req) ?? (req.params as { key?: string }).key ?? null;
    const integration = await ing.keys.authenticate(key);
    if (!integration) throw unauthorizedKey();
    admit(integration, events());
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
    const results = [];
    for (const ev of fromAlertmanager(req.body)) results.push(await ing.ingest.process(integration, ev));
    return reply.code(202).send({ status: 'success' as const, message: 'Event processed', alerts: results });
  };
  const amSchema = {
    tags: ['ingest'],
    summary: 'Prometheus Alertmanager webhook (version 4): the key as `Authorization: Bearer KEY` or as the last path segment',
    security: [],
    body: AlertmanagerWebhook,
    response: { 202: AlertmanagerAccepted, ...errors },
  };
  r.post('/api/ingest/alertmanager', { attachValidation: true, schema: amSchema }, alertmanager);
  r.post('/api/ingest/alertmanager/:key', { attachValidation: true, schema: { ...amSchema, params: keyParams } }, alertmanager);

  const generic = async (req: FastifyRequest<{ Body: GenericEvent }>, reply: FastifyReply) => {
    const integration = await authenticate(req, () => 1);
    const outcome = await ing.ingest.process(integration, fromGeneric(req.body, integration.name));
    return reply.code(202).send({ status: 'success' as const, message: 'Event processed', dedupKey: outcome.dedupKey, alertId: outcome.alertId, result: outcome.result });
  };
  const genericSchema = {
    tags: ['ingest'],
    summary: 'Alertdesk generic event: the key as `Authorization: Bearer KEY` or as the last path segment',
    security: [],
    body: GenericEvent,
    response: { 202: GenericAccepted, ...errors },
  };
  r.post('/api/ingest/events', { bodyLimit: cfg.maxEventBytes, attachValidation: true, schema: genericSchema }, generic);
  r.post('/api/ingest/events/:key', { bodyLimit: cfg.maxEventBytes, attachValidation: true, schema: { ...genericSchema, params: keyParams } }, generic);
}
