import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import * as repo from './psa.repository.ts';
import type { PsaDeps } from './psa-runtime.ts';

/** A `ticket` entry in the alert's timeline, by the PSA (detail.text says what happened). */
export async function timelineEntry(db: DB, tenantId: string, alertId: string, psaName: string, at: string, detail: Record<string, unknown>) {
  await repo.insertTimelineEntry(db, { id: randomUUID(), tenant_id: tenantId, alert_id: alertId, at, kind: 'ticket', actor_type: 'system', actor_id: null, actor_name: psaName, detail: JSON.stringify(detail) });
}

/** Tells the alert's viewers (and every listener) that it changed: its ticket or its timeline. */
export async function publishAlert(deps: Pick<PsaDeps, 'db' | 'bus'>, tenantId: string, alertId: string) {
  const a = await repo.findAlertBasics(deps.db, tenantId, alertId);
  if (a) deps.bus.publish(tenantId, { kind: 'updated', id: a.id, status: a.status, priority: a.priority, dedupKey: a.dedup_key, updatedAt: a.updated_at });
}
