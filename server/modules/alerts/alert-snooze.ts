import { randomUUID } from 'node:crypto';
import { ALERT_MSG, SNOOZE_MAX_DAYS, SNOOZE_MSG } from '../../../contract/alerts.ts';
import type { DB } from '../../db/database.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { cancelAlertJobs } from '../../jobs/jobs.repository.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { findAlertStatus, insertEvent, snoozeIfNew, unsnoozeIfSnoozed, type ChangedAlert } from './alerts.repository.ts';

interface AlertServiceDeps {
  db: DB;
  bus: AlertBus;
}

// Snooze (issue 31): an unacknowledged alert stops paging until a time, then escalates again from level 1. The hold is
// the escalation's own columns: a running escalation goes back to level 0 with level 1 due at the end of the snooze
// (`next_step_at`, which the step sweep fires) and no overdue check until then (set when level 1 fires). An alert
// acknowledged meanwhile has its next level cleared by the acknowledgement: the snooze ends with nothing to fire.

/** Until when a snooze asked for at `now` lasts, checked: in the future, within SNOOZE_MAX_DAYS. */
export function snoozeEnd(body: { minutes?: number; until?: string }, now: Date): string {
  const end = body.minutes !== undefined ? now.getTime() + body.minutes * 60_000 : Date.parse(body.until ?? '');
  if (Number.isNaN(end)) throw badRequest(SNOOZE_MSG.durationRequired, { minutes: SNOOZE_MSG.durationRequired });
  if (end <= now.getTime()) throw badRequest(SNOOZE_MSG.untilPast, { until: SNOOZE_MSG.untilPast });
  if (end > now.getTime() + SNOOZE_MAX_DAYS * 86_400_000) throw badRequest(SNOOZE_MSG.untilTooFar, { until: SNOOZE_MSG.untilTooFar });
  return new Date(end).toISOString();
}

/**
 * A person's snooze or unsnooze: the guarded update, its pending pages dropped (snooze), the timeline entry, in one
 * transaction; 404 for a missing alert (or another tenant's), 409 with its status when it no longer applies.
 */
async function change(deps: AlertServiceDeps, ctx: TenantContext, alertId: string, kind: 'snoozed' | 'unsnoozed', write: (trx: DB, at: string) => Promise<ChangedAlert | undefined>, detail: Record<string, unknown>, refused: string) {
  const tenantId = ctx.tenant.id;
  const at = new Date().toISOString();
  const changed = await deps.db.transaction().execute(async (trx) => {
    const row = await write(trx, at);
    if (!row) return null;
    if (kind === 'snoozed') await cancelAlertJobs(trx, tenantId, alertId);
    await insertEvent(trx, { id: randomUUID(), tenant_id: tenantId, alert_id: alertId, at, kind, actor_type: 'user', actor_id: ctx.user.id, actor_name: ctx.user.display_name || ctx.user.email, detail: JSON.stringify(detail) });
    return row;
  });
  if (!changed) {
    const current = await findAlertStatus(deps.db, tenantId, alertId);
    if (!current) throw notFound(ALERT_MSG.alertNotFound);
    throw conflict(refused, { status: current.status });
  }
  deps.bus.publish(tenantId, { kind: 'updated', id: changed.id, status: 'new', priority: changed.priority, dedupKey: changed.dedup_key, updatedAt: changed.updated_at });
}

export async function snoozeAlert(deps: AlertServiceDeps, ctx: TenantContext, alertId: string, body: { minutes?: number; until?: string }) {
  const until = snoozeEnd(body, new Date());
  await change(deps, ctx, alertId, 'snoozed', (trx, at) => snoozeIfNew(trx, ctx.tenant.id, alertId, until, at), { until }, SNOOZE_MSG.notSnoozable);
}

export async function unsnoozeAlert(deps: AlertServiceDeps, ctx: TenantContext, alertId: string) {
  await change(deps, ctx, alertId, 'unsnoozed', (trx, at) => unsnoozeIfSnoozed(trx, ctx.tenant.id, alertId, at), {}, SNOOZE_MSG.notSnoozed);
}
