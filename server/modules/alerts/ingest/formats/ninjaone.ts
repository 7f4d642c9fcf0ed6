import { z } from 'zod';
import { formatPriority } from '../../../../../contract/ingest-formats.ts';
import { clip, nonEmpty } from '../ingest.mappers.ts';
import { clientRefOf, fieldError, keyed, tagsOf, title, validate, type IngestFormat } from './format.ts';

const str = (max: number) => z.string().max(max).nullish();
const id = z.union([z.number(), z.string().max(100)]).nullish();

/**
 * A NinjaOne webhook activity (NinjaOne public API 2.0, "Webhooks": the activity object of `GET /v2/activities`:
 * id, activityTime, deviceId, seriesUid, severity, priority, activityType, statusCode, status, sourceConfigUid,
 * sourceName, subject, message, data). A condition's TRIGGERED and RESET share its `seriesUid`: RESET resolves.
 * The organization (id or name, when the webhook carries it, or its device's) names the client.
 */
const NinjaActivity = z.object({
  id: id,
  activityTime: z.number().nullish(),
  deviceId: id,
  seriesUid: str(100),
  severity: str(32),
  priority: str(32),
  activityType: z.string({ error: 'activityType is required' }).max(100),
  statusCode: z.string({ error: 'statusCode is required' }).min(1, 'statusCode is required').max(100),
  status: str(200),
  sourceConfigUid: str(100),
  sourceName: str(1024),
  subject: str(1024),
  message: str(65_536),
  organizationId: id,
  organizationName: str(200),
  device: z.object({ systemName: str(255), displayName: str(255), dnsName: str(255), organizationId: id }).nullish(),
});

export const ninjaOne: IngestFormat = {
  name: 'ninjaone',
  summary: 'NinjaOne webhook (activities)',
  count: () => 1,
  parse(body) {
    const a = validate(NinjaActivity, body);
    const host = a.device?.displayName || a.device?.systemName || a.device?.dnsName;
    const seriesKey = a.seriesUid || (a.sourceConfigUid && a.deviceId !== null && a.deviceId !== undefined ? `${a.sourceConfigUid}:${a.deviceId}` : null) || a.id;
    if (seriesKey === null || seriesKey === undefined) throw fieldError('seriesUid', 'seriesUid or id is required');
    return [
      {
        action: a.statusCode.toUpperCase() === 'RESET' ? 'resolve' : 'trigger',
        dedupKey: keyed('ninjaone', seriesKey),
        title: title(a.sourceName, a.subject, a.message, `${a.activityType} ${a.statusCode}`),
        description: clip(a.message ?? '', 65_536),
        priority: formatPriority('ninjaone', a.severity),
        source: clip(host || (a.deviceId !== null && a.deviceId !== undefined ? `device ${a.deviceId}` : 'ninjaone'), 1024),
        clientRef: clientRefOf(a.organizationName, a.organizationId, a.device?.organizationId),
        tags: tagsOf({ activityType: a.activityType, severity: a.severity, priority: a.priority }),
        metadata: nonEmpty({ activityId: a.id, deviceId: a.deviceId, seriesUid: a.seriesUid, statusCode: a.statusCode, status: a.status, activityTime: a.activityTime, organizationId: a.organizationId }),
      },
    ];
  },
};
