import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../../../../contract/common.ts';
import { AlertmanagerAccepted } from '../../../../../contract/integrations.ts';
import type { IntegrationAuth } from '../../../integrations/integration-keys.ts';
import type { IngestService } from '../ingest.service.ts';
import type { IngestFormat } from './format.ts';

interface FormatRouteDeps {
  /** Key (401), then the key's rate limit counting `events()` alerts (429), then the body guard's refusal (400). */
  authenticate(req: FastifyRequest, events: () => number): Promise<IntegrationAuth>;
  ingest: IngestService;
  formats: IngestFormat[];
  /** The largest body of a single event (INGEST_MAX_EVENT_BYTES); a Grafana group may be as large as any request. */
  maxEventBytes: number;
  /** Keeps the accepted body for the routing rules' preview. */
  record(integration: IntegrationAuth, format: string, body: unknown): void;
}

const keyParams = z.object({ key: z.string().max(200) });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 503: ErrorBody };

/**
 * `POST /api/ingest/{format}` (key as Bearer) and `/api/ingest/{format}/{key}` for every vendor format: the same
 * checks as the other ingestion routes, then the format's parse (400 naming the field; aws-sns: 403 for a forged
 * signature) and its events stored together (a Grafana group in one transaction). 202 once stored.
 */
export function registerFormatRoutes(app: FastifyInstance, deps: FormatRouteDeps) {
  app.register(async (scope) => {
    // SNS posts its JSON as text/plain (and some tools' webhooks do too): such a body is read as JSON here.
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'));
    const r = scope.withTypeProvider<ZodTypeProvider>();
    for (const format of deps.formats) {
      const handler = async (req: FastifyRequest, reply: FastifyReply) => {
        const integration = await deps.authenticate(req, () => format.count(req.body));
        const events = await format.parse(req.body, { integrationName: integration.name });
        const results = events.length ? await deps.ingest.processGroup(integration, events) : [];
        for (const { result } of results) app.metrics.ingested(format.name, result);
        deps.record(integration, format.name, req.body);
        return reply.code(202).send({ status: 'success' as const, message: results.length ? 'Event processed' : 'Accepted, nothing to store', alerts: results });
      };
      const schema = {
        tags: ['ingest'],
        summary: `${format.summary}: the key as \`Authorization: Bearer KEY\` or as the last path segment`,
        security: [],
        response: { 202: AlertmanagerAccepted, ...errors },
      };
      const options = { config: { bodyGuard: 'ingest' as const }, ...(format.name === 'grafana' ? {} : { bodyLimit: deps.maxEventBytes }) };
      r.post(`/api/ingest/${format.name}`, { ...options, schema }, handler);
      r.post(`/api/ingest/${format.name}/:key`, { ...options, schema: { ...schema, params: keyParams } }, handler);
    }
  });
}
