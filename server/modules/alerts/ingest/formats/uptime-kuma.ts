import { z } from 'zod';
import { formatPriority } from '../../../../../contract/ingest-formats.ts';
import { clip, nonEmpty } from '../ingest.mappers.ts';
import { clientRefOf, clientTag, fieldError, keyed, tagsOf, title, validate, type IngestFormat } from './format.ts';

const str = (max: number) => z.string().max(max).nullish();

/**
 * Uptime Kuma's webhook notification (server/notification-providers/webhook.js: `{ heartbeat, monitor, msg }`, the
 * heartbeat and monitor as its `toJSON()`; the "Test" button sends `msg` alone). heartbeat.status: 0 down, 1 up,
 * 2 pending, 3 maintenance. One alert per monitor (`uptime-kuma:<monitor id>`): down opens it, up resolves it.
 */
const UptimeKumaBody = z.object({
  msg: z.string({ error: 'msg must be text' }).max(4096).nullish(),
  heartbeat: z
    .object({
      monitorID: z.number().int().optional(),
      status: z.number({ error: 'heartbeat.status must be 0, 1, 2 or 3' }).int().min(0).max(3, 'heartbeat.status must be 0, 1, 2 or 3'),
      msg: str(4096),
      time: str(64),
    })
    .nullish(),
  monitor: z
    .object({
      id: z.number({ error: 'monitor.id is required' }).int(),
      name: str(1024),
      url: str(4096),
      hostname: str(1024),
      type: str(64),
      tags: z.array(z.object({ name: z.string().max(200), value: z.string().max(200).nullish() })).max(100).nullish(),
    })
    .nullish(),
});

export const uptimeKuma: IngestFormat = {
  name: 'uptime-kuma',
  summary: 'Uptime Kuma webhook notification',
  count: () => 1,
  parse(body) {
    const b = validate(UptimeKumaBody, body);
    if (!b.heartbeat || !b.monitor) {
      if (b.heartbeat) throw fieldError('monitor', 'monitor is required with a heartbeat');
      // The notification's "Test" button: an information alert, so the set-up can be seen to work.
      return [{ action: 'trigger', dedupKey: keyed('uptime-kuma', 'test'), title: title(b.msg, 'Uptime Kuma test notification'), description: '', priority: 'info', source: 'uptime-kuma', clientRef: null, tags: [], metadata: {} }];
    }
    const { heartbeat: hb, monitor: m } = b;
    if (hb.status >= 2) return [];
    const tags = (m.tags ?? []).map((t) => clip(t.value ? `${t.name}:${t.value}` : t.name, 200));
    const target = m.url && m.url !== 'https://' ? m.url : m.hostname;
    return [
      {
        action: hb.status === 1 ? 'resolve' : 'trigger',
        dedupKey: keyed('uptime-kuma', m.id),
        title: title(m.name ? `${m.name} is down` : null, b.msg),
        description: clip(hb.msg ?? b.msg ?? '', 65_536),
        priority: formatPriority('uptime-kuma', hb.status),
        source: clip(target || m.name || 'uptime-kuma', 1024),
        clientRef: clientRefOf(clientTag(tags)),
        tags: tagsOf({ monitor: m.name, type: m.type }, tags),
        metadata: nonEmpty({ monitorId: m.id, url: target, time: hb.time, message: b.msg }),
      },
    ];
  },
};
