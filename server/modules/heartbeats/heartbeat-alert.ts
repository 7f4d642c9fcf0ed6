import { HEARTBEAT_MSG, heartbeatDedupKey } from '../../../contract/heartbeats.ts';
import type { HeartbeatsTable } from '../../db/schema.ts';
import type { IntegrationAuth } from '../integrations/integration-keys.ts';
import type { NormalizedEvent } from '../alerts/ingest/ingest.mappers.ts';

type Monitor = Pick<HeartbeatsTable, 'id' | 'tenant_id' | 'client_id' | 'name' | 'priority' | 'interval_minutes' | 'grace_minutes' | 'last_ping_at' | 'last_fail_at'>;

/**
 * Who a monitor's alerts come from, for ingestion: the monitor itself stands where an integration would (its id is the
 * alert's integration id, so (tenant, monitor, `heartbeat:<id>`) deduplicates its alerts; no integration has that id,
 * so the escalation policy is its client's, else the default), with its client.
 */
export const heartbeatSource = (m: Monitor): IntegrationAuth => ({ id: m.id, tenantId: m.tenant_id, clientId: m.client_id, name: `Heartbeat '${m.name}'` });

/** A time as the alert's text gives it: the same for every reader, so UTC and said so. */
export const utcText = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never');

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The alert a monitor opens when it goes down: missed (no ping in time) or failed (a /fail ping, with the start of the
 * output the job sent along, if any). The last ping's time is in the description either way.
 */
export function downEvent(m: Monitor, failed: { output: string | null } | null): NormalizedEvent {
  const expectation = `It is expected every ${plural(m.interval_minutes, 'minute')}, with ${plural(m.grace_minutes, 'minute')} of grace.`;
  const description = failed
    ? [`The job reported a failure at ${utcText(m.last_fail_at)}.`, `Last successful ping: ${utcText(m.last_ping_at)}.`, expectation, failed.output ? `Output:\n${failed.output}` : null]
        .filter(Boolean)
        .join('\n\n')
    : [`No ping in time. Last ping: ${utcText(m.last_ping_at)}.`, expectation].join('\n\n');
  return {
    action: 'trigger',
    dedupKey: heartbeatDedupKey(m.id),
    title: failed ? HEARTBEAT_MSG.alertTitleFailed(m.name) : HEARTBEAT_MSG.alertTitleMissed(m.name),
    description,
    priority: m.priority,
    source: HEARTBEAT_MSG.alertSource,
    clientRef: null,
    tags: ['heartbeat'],
    metadata: { heartbeatId: m.id, heartbeat: m.name, reason: failed ? 'failed' : 'missed', lastPingAt: m.last_ping_at, intervalMinutes: m.interval_minutes, graceMinutes: m.grace_minutes },
  };
}

/** A success ping resolves the monitor's open alert, through the same path a monitoring tool's resolve takes. */
export function resolveEvent(m: Monitor): NormalizedEvent {
  return { action: 'resolve', dedupKey: heartbeatDedupKey(m.id), title: '', description: '', priority: m.priority, source: HEARTBEAT_MSG.alertSource, clientRef: null, tags: [], metadata: {} };
}
