import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../../contract/common.ts';
import { RulesPreview, RulesPreviewBody, type RoutingRule } from '../../../../contract/ingest-formats.ts';
import { AlertmanagerWebhook, GenericEvent, IntegrationParams, PagerDutyEvent } from '../../../../contract/integrations.ts';
import type { Deps } from '../../../deps.ts';
import { AppError } from '../../../http/errors.ts';
import { rulesPreviewInput } from '../../integrations/integration-rules.service.ts';
import type { IngestFormat } from './formats/format.ts';
import { validate } from './formats/format.ts';
import { fromAlertmanager, fromGeneric, fromPagerDuty, type NormalizedEvent } from './ingest.mappers.ts';
import type { IngestService } from './ingest.service.ts';
import { applyRules, eventFields } from './routing-rules.ts';

/** A kept body → our events, as its route read it (without side effects: no signature check, nothing stored). */
function mapperFor(format: string, formats: IngestFormat[]): ((body: unknown) => NormalizedEvent[]) | null {
  if (format === 'pagerduty') return (b) => [fromPagerDuty(validate(PagerDutyEvent, b))];
  if (format === 'alertmanager') return (b) => fromAlertmanager(validate(AlertmanagerWebhook, b));
  if (format === 'generic') return (b) => [fromGeneric(validate(GenericEvent, b), 'integration')];
  const f = formats.find((x) => x.name === format);
  if (!f) return null;
  return f.preview ?? ((b) => f.parse(b, { integrationName: 'integration' }) as NormalizedEvent[]);
}

/**
 * `POST /api/tenants/{tenantId}/integrations/{integrationId}/rules/preview`: for each of the integration's last raw
 * events, what the rules (the body's, else the saved ones) make of it: client, priority, dedup key, or dropped.
 * Managing integrations is required (403), another tenant's integration answers 404.
 */
export function registerRulesPreview(app: FastifyInstance, deps: Deps, ingest: IngestService, formats: IngestFormat[]) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/tenants/:tenantId/integrations/:integrationId/rules/preview',
    {
      config: { tenantScoped: true },
      schema: { tags: ['integrations'], params: IntegrationParams, body: RulesPreviewBody, response: { 200: RulesPreview, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } },
    },
    async (req) => {
      const tenantId = req.tenantContext.tenant.id;
      const input = await rulesPreviewInput(deps.db, req.tenantContext, req.params.integrationId);
      const rules: RoutingRule[] = req.body.rules ?? input.rules;
      const events = [];
      for (const raw of input.events) {
        const map = mapperFor(raw.format, formats);
        let mapped: NormalizedEvent[] = [];
        let error: string | null = map ? null : `Unknown format ${raw.format}`;
        try {
          if (map) mapped = map(raw.body);
        } catch (err) {
          error = err instanceof AppError ? err.message : 'This event no longer reads';
        }
        const alerts = [];
        for (const ev of mapped) {
          const out = applyRules(rules, ev);
          const client = out.event.clientRef ? await ingest.clientNamed(tenantId, out.event.clientRef) : null;
          alerts.push({
            action: out.event.action,
            title: out.event.title,
            priority: out.event.priority,
            dedupKey: out.event.dedupKey,
            clientId: client?.id ?? null,
            clientName: client?.name ?? null,
            rule: out.rule,
            dropped: out.dropped,
            fields: eventFields(ev),
          });
        }
        events.push({ id: raw.id, format: raw.format, receivedAt: raw.receivedAt, body: JSON.stringify(raw.body), error, alerts });
      }
      return { events };
    },
  );
}
