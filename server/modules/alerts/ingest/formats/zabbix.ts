import { z } from 'zod';
import { formatPriority } from '../../../../../contract/ingest-formats.ts';
import { clip, nonEmpty } from '../ingest.mappers.ts';
import { clientRefOf, clientTag, filled, keyed, tagsOf, title, validate, type IngestFormat } from './format.ts';

const macro = (max = 1024) => z.union([z.string().max(max, `Must be at most ${max} characters`), z.number()]).optional();

/**
 * What ops/zabbix/alertdesk-media-type.yaml's script posts: the macros of the Zabbix webhook media type
 * (zabbix.com/documentation/current/en/manual/config/notifications/media/webhook, macro list in
 * manual/appendix/macros/supported_by_location). `{EVENT.ID}` is the problem's id in its recovery message too, so
 * the recovery (`{EVENT.VALUE}` 0) resolves the alert its problem (1) opened.
 */
const ZabbixEvent = z.object({
  event_id: z.union([z.string().trim().min(1, 'event_id is required').max(64), z.number()], { error: 'event_id is required' }),
  event_value: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.enum(['0', '1'], { error: "event_value must be '1' (problem) or '0' (recovery)" })),
  event_nseverity: macro(8),
  event_severity: macro(64),
  event_name: macro(),
  trigger_name: macro(),
  trigger_description: macro(65_536),
  event_opdata: macro(4096),
  host_name: macro(),
  host_ip: macro(255),
  host_group: macro(),
  event_tags: z.union([z.string().max(65_536), z.array(z.object({ tag: z.string().max(255), value: z.string().max(1024).optional() }))]).optional(),
  event_update_status: macro(8),
  trigger_url: macro(4096),
  zabbix_url: macro(4096),
});

/** `{EVENT.TAGSJSON}`: `[{"tag":"client","value":"Acme"}]` as text (the script may also pass it parsed). */
function tagList(v: z.output<typeof ZabbixEvent>['event_tags']): Array<{ tag: string; value?: string }> {
  if (Array.isArray(v)) return v;
  if (!v || !filled(v)) return [];
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed.filter((t): t is { tag: string; value?: string } => !!t && typeof t === 'object' && typeof (t as { tag?: unknown }).tag === 'string') : [];
  } catch {
    return [];
  }
}

export const zabbix: IngestFormat = {
  name: 'zabbix',
  summary: 'Zabbix webhook media type (ops/zabbix/alertdesk-media-type.yaml)',
  count: () => 1,
  parse(body) {
    const e = validate(ZabbixEvent, body);
    const tags = tagList(e.event_tags).map((t) => clip(t.value ? `${t.tag}:${t.value}` : t.tag, 200));
    return [
      {
        action: e.event_value === '0' ? 'resolve' : 'trigger',
        dedupKey: keyed('zabbix', filled(e.event_id)),
        title: title(filled(e.event_name), filled(e.trigger_name), `Zabbix problem on ${filled(e.host_name) || 'a host'}`),
        description: clip(filled(e.trigger_description) || filled(e.event_opdata), 65_536),
        priority: formatPriority('zabbix', filled(e.event_nseverity)),
        source: clip(filled(e.host_name) || filled(e.host_ip) || 'zabbix', 1024),
        clientRef: clientRefOf(clientTag(tags), filled(e.host_group)),
        tags: tagsOf({ host: e.host_name, severity: e.event_severity }, tags),
        metadata: nonEmpty({
          eventId: filled(e.event_id),
          severity: filled(e.event_severity),
          hostIp: filled(e.host_ip),
          hostGroup: filled(e.host_group),
          operationalData: filled(e.event_opdata),
          triggerUrl: filled(e.trigger_url),
          zabbixUrl: filled(e.zabbix_url),
          update: filled(e.event_update_status) === '1' || undefined,
        }),
      },
    ];
  },
};
