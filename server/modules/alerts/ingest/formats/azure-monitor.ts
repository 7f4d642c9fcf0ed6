import { z } from 'zod';
import { boundedJson, JSON_LIMITS } from '../../../../../contract/common.ts';
import { formatPriority } from '../../../../../contract/ingest-formats.ts';
import { clip, nonEmpty } from '../ingest.mappers.ts';
import { clientRefOf, keyed, tagsOf, title, validate, type IngestFormat } from './format.ts';

const str = (max: number) => z.string().max(max).nullish();

/**
 * Azure Monitor's common alert schema (learn.microsoft.com/azure/azure-monitor/alerts/alerts-common-schema):
 * `data.essentials` is the same for every signal type. `essentials.alertId` keys the alert; `monitorCondition`
 * Fired opens it, Resolved resolves it. The client: a `client` custom property of the action group, else the
 * subscription id out of the alert id (an MSP's clients each have their own subscription: add it as an alias).
 */
const AzureAlert = z.object({
  schemaId: z.literal('azureMonitorCommonAlertSchema', { error: "schemaId must be 'azureMonitorCommonAlertSchema' (turn on the common alert schema)" }),
  data: z.object(
    {
      essentials: z.object(
        {
          alertId: z.string({ error: 'alertId is required' }).min(1, 'alertId is required').max(1024),
          alertRule: str(1024),
          severity: str(16),
          signalType: str(64),
          monitorCondition: z.enum(['Fired', 'Resolved'], { error: "monitorCondition must be 'Fired' or 'Resolved'" }),
          monitoringService: str(200),
          alertTargetIDs: z.array(z.string().max(2048)).max(100).nullish(),
          configurationItems: z.array(z.string().max(1024)).max(100).nullish(),
          firedDateTime: str(64),
          resolvedDateTime: str(64),
          description: str(65_536),
        },
        { error: 'essentials is required' },
      ),
      customProperties: boundedJson(z.record(z.string(), z.string().nullable()), JSON_LIMITS.labelsChars).nullish(),
    },
    { error: 'data is required' },
  ),
});

export const azureMonitor: IngestFormat = {
  name: 'azure-monitor',
  summary: 'Azure Monitor action group webhook (common alert schema)',
  count: () => 1,
  parse(body) {
    const { essentials: e, customProperties: props } = validate(AzureAlert, body).data;
    const subscription = /\/subscriptions\/([0-9a-f-]{36})\//i.exec(e.alertId)?.[1] ?? null;
    return [
      {
        action: e.monitorCondition === 'Resolved' ? 'resolve' : 'trigger',
        dedupKey: keyed('azure-monitor', e.alertId),
        title: title(e.alertRule, e.description, 'Azure Monitor alert'),
        description: clip(e.description ?? '', 65_536),
        priority: formatPriority('azure-monitor', e.severity),
        source: clip(e.configurationItems?.[0] || e.monitoringService || 'azure-monitor', 1024),
        clientRef: clientRefOf(props?.client, props?.Client, subscription),
        tags: tagsOf({ severity: e.severity, signalType: e.signalType, service: e.monitoringService }),
        metadata: nonEmpty({ ...(props ?? {}) }, { alertId: e.alertId, subscriptionId: subscription ?? undefined, targets: e.alertTargetIDs?.length ? e.alertTargetIDs : undefined, firedAt: e.firedDateTime, resolvedAt: e.resolvedDateTime }),
      },
    ];
  },
};
