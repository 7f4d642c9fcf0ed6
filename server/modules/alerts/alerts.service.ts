import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { now, parseJson } from '../../db/database.ts';
import { PAGING_MSG } from '../../../contract/paging.ts';
import { ALERT_MSG, type AlertAction, type AlertDetail, type AlertStatus, type BulkAction, type BulkAlertOutcome, type BulkAlertResult, type TimelineEntry } from '../../../contract/alerts.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import type { AlertEventsTable } from '../../db/schema.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { ACTION_FROM, isAlreadyDone } from './alerts.policy.ts';
import { snoozeAlert, unsnoozeAlert } from './alert-snooze.ts';
import { cancelAlertJobs } from '../../jobs/jobs.repository.ts';
import { listPageOutcomes } from '../../notifications/attempts.repository.ts';
import {
  findAlert,
  findEscalationStanding,
  findAlertStatus,
  ESCALATION_ENDS,
  findAssignee,
  insertEvent,
  insertNote,
  listEvents,
  listNotes,
  toAlert,
  updateAlertIfStatus,
  type AlertPatch,
  type AlertRow,
} from './alerts.repository.ts';

export interface AlertServiceDeps {
  db: DB;
  bus: AlertBus;
}

const actorOf = (ctx: TenantContext) => ({ id: ctx.user.id, name: ctx.user.display_name || ctx.user.email });

/** The alert with everything its detail modal shows: names, notes with their authors, the timeline. */
export async function getAlertDetail(db: DB, tenantId: string, alertId: string): Promise<AlertDetail> {
  const row = await findAlert(db, tenantId, alertId);
  if (!row) throw notFound(ALERT_MSG.alertNotFound);
  const [notes, events, pages, standing] = await Promise.all([
    listNotes(db, tenantId, alertId),
    listEvents(db, tenantId, alertId),
    listPageOutcomes(db, tenantId, alertId),
    findEscalationStanding(db, tenantId, alertId),
  ]);
  return presentDetail(row, notes, events, pages, standing);
}

function presentDetail(
  row: AlertRow,
  notes: Awaited<ReturnType<typeof listNotes>>,
  events: Awaited<ReturnType<typeof listEvents>>,
  pages: Awaited<ReturnType<typeof listPageOutcomes>>,
  standing: Awaited<ReturnType<typeof findEscalationStanding>>,
): AlertDetail {
  const alert = toAlert(row);
  // What the monitoring tool did: the integration that sent it, else the source it named.
  const byCreator = { actorType: row.integration_id ? ('integration' as const) : ('system' as const), actorId: row.integration_id, actorName: row.integration_name ? row.integration_name : row.source };
  const timeline: TimelineEntry[] = [{ id: `${row.id}:triggered`, at: row.created_at, kind: 'triggered', ...byCreator, detail: { source: row.source, priority: row.priority } }];
  // Repeats are counted on the alert row rather than logged one by one (a flapping check can repeat thousands of times).
  if (alert.occurrences > 1) timeline.push({ id: `${row.id}:repeated`, at: row.last_seen_at, kind: 'repeated', ...byCreator, detail: { occurrences: alert.occurrences } });
  // Past its priority's acknowledgement target unacknowledged (set once, by the escalation's overdue check): the
  // minutes are those from opening to the check, the target (or more if the check ran late, after a restart).
  if (row.overdue_at) {
    timeline.push({
      id: `${row.id}:overdue`,
      at: row.overdue_at,
      kind: 'overdue',
      actorType: 'system',
      actorId: null,
      actorName: 'Alertdesk',
      detail: { minutes: Math.round((Date.parse(row.overdue_at) - Date.parse(row.created_at)) / 60_000) },
    });
  }
  // Unrouted when its escalation started (no policy, or none for its priority): said from the alert's columns. Alerts
  // started before issue 26 have the entry stored; it is not said twice.
  if (standing?.escalation_state === 'none' && !events.some((e) => e.kind === 'unrouted')) {
    const reason = PAGING_MSG.unrouted(standing.escalation_policy_id ?? null, row.priority);
    timeline.push({
      id: `${row.id}:unrouted`,
      at: row.created_at,
      kind: 'unrouted',
      actorType: 'system',
      actorId: null,
      actorName: 'Alertdesk',
      detail: standing.escalation_policy_id && standing.policy_name ? { reason, policyName: standing.policy_name } : { reason },
    });
  }
  // Opened inside a maintenance window (issue 31): said from its column; its release is a stored entry.
  if (standing?.maintenance_window_id) {
    timeline.push({ id: `${row.id}:maintenance`, at: row.created_at, kind: 'maintenance', actorType: 'system', actorId: null, actorName: 'Alertdesk', detail: { windowId: standing.maintenance_window_id, windowName: standing.maintenance_window_name ?? null } });
  }
  for (const e of events) {
    timeline.push({ id: e.id, at: e.at, kind: e.kind, actorType: e.actor_type, actorId: e.actor_id, actorName: e.actor_name, detail: parseJson(e.detail, {}) });
  }
  // Each page's outcome, from its attempt row (the record of what was sent to whom).
  for (const p of pages) {
    timeline.push({
      id: p.id,
      at: p.updated_at,
      kind: 'paged',
      actorType: 'system',
      actorId: null,
      actorName: 'Alertdesk',
      detail: { channel: p.channel, outcome: p.outcome, reason: p.reason, level: p.level === null ? null : Number(p.level), step: p.step, userId: p.user_id, userName: p.display_name || p.email || 'Unknown User' },
    });
  }
  timeline.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const lastBy = (kind: TimelineEntry['kind']) => {
    for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === kind) return events[i].actor_name;
    return null;
  };
  return {
    alert,
    acknowledgedByName: alert.acknowledgedAt ? lastBy('acknowledged') : null,
    resolvedByName: alert.resolvedAt ? lastBy('resolved') : null,
    closedByName: alert.closedAt ? lastBy('closed') : null,
    notes: notes.map((n) => ({ id: n.id, text: n.text, createdAt: n.created_at, createdBy: n.created_by, createdByName: n.created_by_name })),
    timeline,
  };
}

/**
 * One status-guarded change made by a person, with its timeline entry, in one transaction. A missing alert (or one
 * of another tenant) answers 404; one whose status no longer allows the action answers 409.
 */
async function applyUserAction(
  deps: AlertServiceDeps,
  ctx: TenantContext,
  alertId: string,
  action: AlertAction,
  patch: (at: string) => AlertPatch,
  event: { kind: AlertEventsTable['kind']; detail?: Record<string, unknown> },
) {
  // From a chat: the entry says where ("Acknowledged from Slack by Jane").
  const detail = ctx.via ? { ...event.detail, via: ctx.via } : event.detail;
  return applyActionAs(deps, ctx.tenant.id, actorOf(ctx), alertId, action, patch, { ...event, detail });
}

/** Actions that end the alert's escalation: its timers are cleared and its pending jobs deleted in the same transaction. */
const STOPS_ESCALATION: ReadonlySet<AlertAction> = new Set(['acknowledge', 'startWork', 'resolve', 'close']);

/**
 * A status-guarded change by a person, with its timeline entry, in one transaction; `also` runs inside it once the
 * change is made (a throw undoes everything).
 */
async function applyActionAs(
  deps: AlertServiceDeps,
  tenantId: string,
  actor: { id: string; name: string },
  alertId: string,
  action: AlertAction,
  patch: (at: string) => AlertPatch,
  event: { kind: AlertEventsTable['kind']; detail?: Record<string, unknown> },
  also?: (trx: DB, at: string) => Promise<void>,
) {
  const at = now();
  const changed = await deps.db.transaction().execute(async (trx) => {
    const ends = STOPS_ESCALATION.has(action);
    const row = await updateAlertIfStatus(trx, tenantId, alertId, ACTION_FROM[action], { ...patch(at), updated_at: at, ...(ends ? ESCALATION_ENDS : {}) });
    if (!row) return null;
    if (ends) await cancelAlertJobs(trx, tenantId, alertId);
    if (also) await also(trx, at);
    await insertEvent(trx, {
      id: randomUUID(),
      tenant_id: tenantId,
      alert_id: alertId,
      at,
      kind: event.kind,
      actor_type: 'user',
      actor_id: actor.id,
      actor_name: actor.name,
      detail: JSON.stringify(event.detail ?? {}),
    });
    return row;
  });
  if (!changed) {
    const current = await findAlertStatus(deps.db, tenantId, alertId);
    if (!current) throw notFound(ALERT_MSG.alertNotFound);
    throw conflict(ALERT_MSG.noLongerAllowed, { status: current.status });
  }
  deps.bus.publish(tenantId, { kind: 'updated', id: changed.id, status: changed.status, priority: changed.priority, dedupKey: changed.dedup_key, updatedAt: changed.updated_at });
  return getAlertDetail(deps.db, tenantId, alertId);
}

export const acknowledgeAlert = (deps: AlertServiceDeps, ctx: TenantContext, alertId: string) =>
  applyUserAction(deps, ctx, alertId, 'acknowledge', (at) => ({ status: 'acknowledged', acknowledged_by: ctx.user.id, acknowledged_at: at }), { kind: 'acknowledged' });

/** Acknowledges as a person known otherwise than by a session (an acknowledge link); `also` runs in the transaction. */
export const acknowledgeAlertAs = (deps: AlertServiceDeps, tenantId: string, actor: { id: string; name: string }, alertId: string, also?: (trx: DB, at: string) => Promise<void>) =>
  applyActionAs(deps, tenantId, actor, alertId, 'acknowledge', (at) => ({ status: 'acknowledged', acknowledged_by: actor.id, acknowledged_at: at }), { kind: 'acknowledged' }, also);

export const startWorkOnAlert = (deps: AlertServiceDeps, ctx: TenantContext, alertId: string) =>
  applyUserAction(deps, ctx, alertId, 'startWork', () => ({ status: 'in_progress' }), { kind: 'started' });

export const resolveAlert = (deps: AlertServiceDeps, ctx: TenantContext, alertId: string) =>
  applyUserAction(deps, ctx, alertId, 'resolve', (at) => ({ status: 'resolved', resolved_by: ctx.user.id, resolved_at: at }), { kind: 'resolved' });

export const closeAlert = (deps: AlertServiceDeps, ctx: TenantContext, alertId: string) =>
  applyUserAction(deps, ctx, alertId, 'close', (at) => ({ status: 'closed', closed_by: ctx.user.id, closed_at: at }), { kind: 'closed' });

export async function assignAlert(deps: AlertServiceDeps, ctx: TenantContext, alertId: string, userId: string) {
  const assignee = await findAssignee(deps.db, ctx.tenant.id, userId);
  if (!assignee) {
    // An alert of another tenant must still answer 404 before we say anything about the person.
    if (!(await findAlertStatus(deps.db, ctx.tenant.id, alertId))) throw notFound(ALERT_MSG.alertNotFound);
    throw badRequest(ALERT_MSG.assigneeNotMember, { userId: ALERT_MSG.assigneeNotMember });
  }
  return applyUserAction(deps, ctx, alertId, 'assign', () => ({ assigned_to: assignee.id }), {
    kind: 'assigned',
    detail: { assigneeId: assignee.id, assigneeName: assignee.display_name },
  });
}

/** Appends a note (any status) and marks the alert updated. */
export async function addAlertNote(deps: AlertServiceDeps, ctx: TenantContext, alertId: string, text: string) {
  const tenantId = ctx.tenant.id;
  const actor = actorOf(ctx);
  const at = now();
  const noteId = randomUUID();
  const changed = await deps.db.transaction().execute(async (trx) => {
    const row = await updateAlertIfStatus(trx, tenantId, alertId, ACTION_FROM.addNote, { updated_at: at });
    if (!row) return null;
    await insertNote(trx, { id: noteId, tenant_id: tenantId, alert_id: alertId, text, created_by: actor.id, created_by_name: actor.name, created_at: at });
    await insertEvent(trx, {
      id: randomUUID(),
      tenant_id: tenantId,
      alert_id: alertId,
      at,
      kind: 'note',
      actor_type: 'user',
      actor_id: actor.id,
      actor_name: actor.name,
      detail: JSON.stringify({ noteId }),
    });
    return row;
  });
  if (!changed) throw notFound(ALERT_MSG.alertNotFound);
  deps.bus.publish(tenantId, { kind: 'updated', id: changed.id, status: changed.status as AlertStatus, priority: changed.priority, dedupKey: changed.dedup_key, updatedAt: changed.updated_at });
  return getAlertDetail(deps.db, tenantId, alertId);
}

/** What a bulk outcome says of an alert that was already where its action leads. */
const ALREADY: Partial<Record<BulkAction, NonNullable<BulkAlertOutcome['unchanged']>>> = {
  acknowledge: { code: 'already_acknowledged', message: ALERT_MSG.alreadyAcknowledged },
  resolve: { code: 'already_resolved', message: ALERT_MSG.alreadyResolved },
};

/**
 * One action on several alerts (the dashboard's selection), in the given order. Each alert goes through the very
 * function of its single action, so each change is its own status-guarded transaction with its timeline entry, its
 * escalation stopped and its live update, and the caller needs exactly the rights of the single action (every
 * member). What an alert refuses (404 missing or another tenant's, 409 changed meanwhile, 400 an assignee who is
 * not a member) is reported for that alert and the others go on; anything else (a bug, the database away) ends the
 * request with its own status, the changes made until then staying made. An alert found already where the action
 * leads (a colleague acknowledged it meanwhile, or the selection was made on a stale list) is done, not refused.
 */
export async function bulkAlertAction(
  deps: AlertServiceDeps,
  ctx: TenantContext,
  body: { action: BulkAction; alertIds: string[]; userId?: string; minutes?: number; until?: string },
): Promise<BulkAlertResult> {
  const apply: Record<BulkAction, (alertId: string) => Promise<AlertDetail>> = {
    acknowledge: (id) => acknowledgeAlert(deps, ctx, id),
    resolve: (id) => resolveAlert(deps, ctx, id),
    // The body schema requires userId with assign; an empty one is refused by the assignee check like any non-member.
    assign: (id) => assignAlert(deps, ctx, id, body.userId ?? ''),
    snooze: async (id) => {
      await snoozeAlert(deps, ctx, id, body);
      return getAlertDetail(deps.db, ctx.tenant.id, id);
    },
    unsnooze: async (id) => {
      await unsnoozeAlert(deps, ctx, id);
      return getAlertDetail(deps.db, ctx.tenant.id, id);
    },
  };
  const run = apply[body.action];
  const results: BulkAlertOutcome[] = [];
  for (const id of body.alertIds) {
    try {
      results.push({ id, ok: true, alert: (await run(id)).alert });
    } catch (err) {
      // Only an alert's own refusal is an outcome; a 5xx AppError (the database away) is the request's.
      if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
      // A 409 carries the status the alert was found in: one already where the action leads is loaded as it is now.
      const unchanged = err.statusCode === 409 && isAlreadyDone(body.action, err.fields?.status ?? '') ? ALREADY[body.action] : undefined;
      const current = unchanged ? await findAlert(deps.db, ctx.tenant.id, id) : undefined;
      if (unchanged && current) results.push({ id, ok: true, alert: toAlert(current), unchanged });
      else results.push({ id, ok: false, error: { status: err.statusCode, code: err.code, message: err.message } });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}

// Platform analytics (system module): new alerts per day and per priority, over every tenant.
export { unsafeCountAlertsByPriority, unsafeCountAlertsPerDay } from './alerts.repository.ts';

/**
 * A timeline entry another module writes about one of the tenant's alerts, as the system under `actorName` (a chat
 * post: "Posted to Slack #noc"). Nothing is written for an alert the tenant does not have.
 */
export async function recordAlertEvent(db: DB, tenantId: string, alertId: string, entry: { kind: AlertEventsTable['kind']; actorName: string; detail: Record<string, unknown>; at: string }) {
  if (!(await findAlertStatus(db, tenantId, alertId))) return;
  await insertEvent(db, { id: randomUUID(), tenant_id: tenantId, alert_id: alertId, at: entry.at, kind: entry.kind, actor_type: 'system', actor_id: null, actor_name: entry.actorName, detail: JSON.stringify(entry.detail) });
}
