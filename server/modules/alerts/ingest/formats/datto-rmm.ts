import { z } from 'zod';
import { formatPriority } from '../../../../../contract/ingest-formats.ts';
import { clip, nonEmpty } from '../ingest.mappers.ts';
import { clientRefOf, filled, keyed, tagsOf, title, validate, type IngestFormat } from './format.ts';

const str = (max: number) => z.union([z.string().max(max, `Must be at most ${max} characters`), z.number()]).nullish();

/**
 * Datto RMM's monitor webhook (rmm.datto.com/help/en/Content/3NEWUI/Monitors/Webhooks.htm): the JSON body is a
 * template the MSP writes with Datto's variables, one for the alert and (optionally) one for its resolution. The
 * README's template sends alertUid, alertMessage, priority, hostname, siteName and, in the resolution payload,
 * `"resolved": true`; field names are matched without regard to case or underscores (`alert_uid` = `alertUid`).
 */
const DattoAlert = z.object({
  alertUid: z.union([z.string().trim().min(1, 'alertUid is required').max(100), z.number()], { error: 'alertUid is required' }),
  alertMessage: str(65_536),
  priority: str(32),
  hostname: str(255),
  siteName: str(200),
  siteUid: str(100),
  alertType: str(200),
  deviceUid: str(100),
  url: str(4096),
  resolved: z.union([z.boolean(), z.enum(['true', 'false', 'True', 'False', '1', '0', ''])], { error: 'resolved must be true or false' }).nullish(),
});

/** The template's fields by their name without case or underscores (`Alert_UID`, `alertUid`, `alertuid` are one). */
const FIELDS = new Map(
  [...Object.keys(DattoAlert.shape), 'deviceHostname:hostname', 'alertPriority:priority'].map((k) => {
    const [alias, name] = k.includes(':') ? k.split(':') : [k, k];
    return [alias.toLowerCase(), name];
  }),
);

function canonical(body: unknown) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    const name = FIELDS.get(k.replace(/[_\s-]/g, '').toLowerCase());
    if (name) out[name] ??= v;
  }
  return out;
}

export const dattoRmm: IngestFormat = {
  name: 'datto-rmm',
  summary: 'Datto RMM monitor webhook (alert and resolution payloads)',
  count: () => 1,
  parse(body) {
    const a = validate(DattoAlert, canonical(body));
    const resolved = a.resolved === true || (typeof a.resolved === 'string' && /^(true|1)$/i.test(a.resolved));
    const message = filled(a.alertMessage);
    return [
      {
        action: resolved ? 'resolve' : 'trigger',
        dedupKey: keyed('datto-rmm', filled(a.alertUid)),
        title: title(message.split('\n')[0], filled(a.alertType), 'Datto RMM alert'),
        description: clip(message, 65_536),
        priority: formatPriority('datto-rmm', filled(a.priority)),
        source: clip(filled(a.hostname) || 'datto-rmm', 1024),
        clientRef: clientRefOf(a.siteName, a.siteUid),
        tags: tagsOf({ site: a.siteName, priority: a.priority, type: a.alertType }),
        metadata: nonEmpty({ alertUid: filled(a.alertUid), deviceUid: filled(a.deviceUid), siteUid: filled(a.siteUid), url: filled(a.url) }),
      },
    ];
  },
};
