import { z } from 'zod';
import { formatPriority } from '../../../../../contract/ingest-formats.ts';
import { clip, nonEmpty } from '../ingest.mappers.ts';
import { clientRefOf, clientTag, filled, keyed, tagsOf, title, validate, type IngestFormat } from './format.ts';

const str = (max: number) => z.union([z.string().max(max, `Must be at most ${max} characters`), z.number()]).nullish();

/**
 * Datadog's webhook integration (docs.datadoghq.com/integrations/webhooks/): the payload is a template of its
 * variables; the README's template sends `alert_cycle_key` ($ALERT_CYCLE_KEY: the same from trigger to recovery,
 * our dedup key), `alert_transition` ($ALERT_TRANSITION: Triggered, Re-Triggered, Warn, No Data, Recovered…;
 * Recovered resolves), `alert_priority` ($ALERT_PRIORITY P1-P5), `alert_type`, `title`, `body`, `hostname`,
 * `tags` ($TAGS: comma-separated; `client:<name>` names the client), `org_name` and `link`.
 */
const DatadogEvent = z.object({
  alert_cycle_key: z.union([z.string().trim().min(1, 'alert_cycle_key is required').max(255), z.number()], { error: 'alert_cycle_key is required' }),
  alert_transition: z.string({ error: 'alert_transition is required' }).trim().min(1, 'alert_transition is required').max(64),
  alert_priority: str(16),
  alert_type: str(32),
  alert_id: str(64),
  id: str(64),
  title: str(4096),
  body: str(65_536),
  hostname: str(1024),
  tags: z.union([z.string().max(20_000), z.array(z.string().max(200)).max(200)]).nullish(),
  org_name: str(200),
  link: str(4096),
});

export const datadog: IngestFormat = {
  name: 'datadog',
  summary: 'Datadog webhook (README template with $ALERT_CYCLE_KEY)',
  count: () => 1,
  parse(body) {
    const e = validate(DatadogEvent, body);
    const given = Array.isArray(e.tags) ? e.tags : (e.tags ?? '').split(',');
    const ddTags = given.map((t) => t.trim()).filter((t) => t && filled(t));
    const transition = e.alert_transition.toLowerCase();
    return [
      {
        action: transition === 'recovered' ? 'resolve' : 'trigger',
        dedupKey: keyed('datadog', filled(e.alert_cycle_key)),
        title: title(filled(e.title), 'Datadog alert'),
        description: clip(filled(e.body), 65_536),
        priority: formatPriority('datadog', filled(e.alert_priority) || filled(e.alert_type)),
        source: clip(filled(e.hostname) || 'datadog', 1024),
        clientRef: clientRefOf(clientTag(ddTags), e.org_name),
        tags: tagsOf({ transition: e.alert_transition }, ddTags.slice(0, 50).map((t) => clip(t, 200))),
        metadata: nonEmpty({ monitorId: filled(e.alert_id), eventId: filled(e.id), priority: filled(e.alert_priority), alertType: filled(e.alert_type), link: filled(e.link), org: filled(e.org_name) }),
      },
    ];
  },
};
