import { randomUUID } from 'node:crypto';
import type { AlertChange, AlertDetail } from '../../../contract/alerts.ts';
import { PSA_LIMITS, PSA_MSG, PSA_NAMES } from '../../../contract/psa.ts';
import type { JobsTable, PsaActionsTable, PsaConnectionsTable, PsaTicketsTable } from '../../db/schema.ts';
import type { JobContext } from '../../jobs/job-worker.ts';
import { enqueueJobs } from '../../jobs/jobs.repository.ts';
import { timeOrderedUuid } from '../../lib/ids.ts';
import { getAlertDetail } from '../alerts/alerts.service.ts';
import { noteRef, ticketRef } from './psa-adapter.ts';
import { PsaError } from './psa-http.ts';
import { adapterFor, errorText, rulesOf, type PsaDeps } from './psa-runtime.ts';
import * as repo from './psa.repository.ts';
import { publishAlert, timelineEntry } from './psa-timeline.ts';

export const ACTION_JOB = 'psa.action';

/** A person's timeline entries that become ticket notes. */
const NOTED_KINDS = new Set(['acknowledged', 'assigned', 'note']);

type Connection = PsaConnectionsTable;

/**
 * Hears every alert change (every instance hears each one) and plans, for each enabled connection of the tenant, the
 * calls it needs: each is an action row unique per alert and what it is for, so what two instances plan at once is
 * planned once, and a job per new action. Nothing here calls a PSA.
 */
export function alertListener(deps: PsaDeps, log: { warn(o: object, m: string): void }) {
  const onChange = async (tenantId: string, change: AlertChange) => {
    const connections = await deps.connections.list(tenantId);
    if (connections.length === 0) return;
    const detail = await getAlertDetail(deps.db, tenantId, change.id);
    for (const conn of connections) await planFor(deps, conn, detail, change.kind === 'created');
  };
  return (tenantId: string, change: AlertChange) => void onChange(tenantId, change).catch((err: unknown) => log.warn({ err, tenantId }, 'psa: an alert change was not planned'));
}

async function addAction(deps: PsaDeps, conn: Connection, alertId: string, action: PsaActionsTable['action'], key: string, payload: Record<string, unknown>, dueAt?: Date) {
  const now = deps.jobs.clock();
  const row: PsaActionsTable = {
    id: timeOrderedUuid(),
    tenant_id: conn.tenant_id,
    connection_id: conn.id,
    alert_id: alertId,
    action,
    unique_key: key,
    payload: JSON.stringify(payload),
    status: 'pending',
    attempts: 0,
    last_error: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  if (!(await repo.insertAction(deps.db, row))) return;
  // No alert id on the job: an alert's jobs are deleted when it is acknowledged or resolved, its ticket's calls are not.
  await enqueueJobs(deps.db, [{ kind: ACTION_JOB, uniqueKey: `${ACTION_JOB}:${row.id}`, dueAt: dueAt ?? now, tenantId: conn.tenant_id, payload: { actionId: row.id }, maxAttempts: PSA_LIMITS.attempts }], now);
  deps.jobs.worker.wakeWithin(100);
}

/** The calls an alert's present state needs on one connection (recurrences, a person's actions, its resolution). */
export async function planFor(deps: PsaDeps, conn: Connection, detail: AlertDetail, created: boolean) {
  const { alert } = detail;
  const rules = rulesOf(conn);
  const ticket = await repo.findTicket(deps.db, conn.tenant_id, conn.id, alert.id);
  if (!ticket) {
    // Planned on any change of an open alert opened since the connection exists (its creation's notice may have been
    // missed, or its priority raised since): the action's key makes it once.
    const open = alert.status === 'new' || alert.status === 'acknowledged' || alert.status === 'in_progress';
    if (!rules.priorities.includes(alert.priority) || !(created || (open && alert.createdAt >= conn.created_at))) return;
    const delayed = rules.triggerMode === 'unacknowledged_after';
    const dueAt = delayed ? new Date(Date.parse(alert.createdAt) + (rules.unacknowledgedMinutes ?? 0) * 60_000) : undefined;
    await addAction(deps, conn, alert.id, 'create', `create:${alert.id}`, {}, dueAt);
    return;
  }
  if (ticket.status === 'failed') return;
  if (alert.occurrences > ticket.noted_occurrences && (await repo.advanceNotedOccurrences(deps.db, conn.tenant_id, ticket.id, alert.occurrences))) {
    await addAction(deps, conn, alert.id, 'note', `occ:${alert.id}:${alert.occurrences}`, { text: PSA_MSG.noteRecurrence(alert.occurrences) });
  }
  for (const e of detail.timeline) {
    if (e.actorType !== 'user' || !NOTED_KINDS.has(e.kind) || e.at < ticket.created_at) continue;
    const text =
      e.kind === 'acknowledged'
        ? PSA_MSG.noteAcknowledged(e.actorName)
        : e.kind === 'assigned'
          ? PSA_MSG.noteAssigned(e.actorName, String(e.detail.assigneeName ?? ''))
          : PSA_MSG.noteText(e.actorName, detail.notes.find((n) => n.id === e.detail.noteId)?.text ?? '');
    await addAction(deps, conn, alert.id, 'note', `event:${e.id}`, { text });
  }
  if ((alert.status === 'resolved' || alert.status === 'closed') && ticket.status !== 'closed') {
    await addAction(deps, conn, alert.id, 'close', `close:${alert.id}`, { text: PSA_MSG.noteResolved(detail.resolvedByName ?? detail.closedByName ?? 'Alertdesk') });
  }
}

/** The PSA company of an alert: its client's mapped company, else the catch-all; null with the reason when none. */
async function companyFor(deps: PsaDeps, conn: Connection, clientId: string | null) {
  const rules = rulesOf(conn);
  const mapped = clientId ? await repo.findCompanyOf(deps.db, conn.tenant_id, conn.id, clientId) : undefined;
  if (mapped) return { companyId: mapped.company_id };
  if (rules.catchAllCompanyId) return { companyId: rules.catchAllCompanyId };
  const psa = PSA_NAMES[conn.type];
  return { companyId: null, reason: clientId ? PSA_MSG.noTicketUnmapped(psa) : PSA_MSG.noTicketNoClient(psa) };
}

function newTicketRow(conn: Connection, detail: AlertDetail, companyId: string, at: string, from?: PsaTicketsTable): PsaTicketsTable {
  const { alert } = detail;
  return {
    id: randomUUID(),
    tenant_id: conn.tenant_id,
    connection_id: conn.id,
    alert_id: alert.id,
    dedup_key: alert.dedupKey,
    integration_id: alert.integrationId,
    company_id: companyId,
    ticket_id: from?.ticket_id ?? null,
    ticket_number: from?.ticket_number ?? null,
    ticket_url: from?.ticket_url ?? null,
    status: from ? 'open' : 'opening',
    noted_occurrences: alert.occurrences,
    closed_at: null,
    created_at: at,
    updated_at: at,
  };
}

const summaryOf = (detail: AlertDetail) => {
  const s = `[${detail.alert.priority.toUpperCase()}] ${detail.alert.title}`;
  return s.length > PSA_LIMITS.summaryChars ? `${s.slice(0, PSA_LIMITS.summaryChars - 1)}…` : s;
};

function descriptionOf(deps: PsaDeps, detail: AlertDetail, linkedTo?: string | null) {
  const a = detail.alert;
  return [
    a.description || a.title,
    '',
    `Priority: ${a.priority}`,
    `Source: ${a.source}`,
    a.clientName ? `Client: ${a.clientName}` : null,
    `Occurrences: ${a.occurrences}`,
    `Opened: ${a.createdAt}`,
    linkedTo ? `Follows ticket #${linkedTo} (the same problem, closed within 24 hours)` : null,
    `Alertdesk: ${deps.publicUrl}/app/dashboard?alert=${encodeURIComponent(a.id)}`,
    `Reference: ${ticketRef(a.id)}`,
  ]
    .filter((l) => l !== null)
    .join('\n');
}

/**
 * Opens the alert's ticket: decides (unacknowledged in time? a company? the same problem's ticket open, or closed
 * within 24 h?), writes the ticket row before the call, and after an earlier try (its answer perhaps lost) looks for our
 * reference in the PSA before creating again; then plans what happened to the alert meanwhile.
 */
async function openTicket(deps: PsaDeps, conn: Connection, action: PsaActionsTable, retried: boolean) {
  const detail = await getAlertDetail(deps.db, conn.tenant_id, action.alert_id);
  const { alert } = detail;
  const rules = rulesOf(conn);
  const psa = PSA_NAMES[conn.type];
  const at = deps.jobs.clock().toISOString();
  const say = (text: string) => timelineEntry(deps.db, conn.tenant_id, alert.id, psa, at, { text });
  const previous = alert.dedupKey ? await repo.latestTicketOfProblem(deps.db, conn.tenant_id, conn.id, alert.integrationId, alert.dedupKey, alert.id) : undefined;
  const closedRecently = previous?.status === 'closed' && !!previous.closed_at && Date.parse(at) - Date.parse(previous.closed_at) <= PSA_LIMITS.reopenWindowMs;
  let ticket = await repo.findTicket(deps.db, conn.tenant_id, conn.id, alert.id);
  if (!ticket) {
    if (rules.triggerMode === 'unacknowledged_after' && alert.status !== 'new') {
      if (alert.acknowledgedAt) await say(PSA_MSG.noTicketAcknowledged(psa, rules.unacknowledgedMinutes ?? 0));
      return 'skipped' as const;
    }
    const company = await companyFor(deps, conn, alert.clientId);
    if (!company.companyId) {
      await say(company.reason ?? '');
      return 'skipped' as const;
    }
    if (previous && (previous.status === 'open' || (closedRecently && rules.recurrence === 'reopen'))) {
      // The same problem: its ticket carries on (reopened when it was closed), never a second one.
      const row = newTicketRow(conn, detail, previous.company_id, at, previous);
      if (await repo.insertTicket(deps.db, row)) {
        if (previous.status === 'closed') await addAction(deps, conn, alert.id, 'reopen', `reopen:${alert.id}`, { text: PSA_MSG.noteReopened(alert.occurrences) });
        else await addAction(deps, conn, alert.id, 'note', `again:${alert.id}`, { text: PSA_MSG.noteRecurrence(alert.occurrences) });
      }
      await planFor(deps, conn, await getAlertDetail(deps.db, conn.tenant_id, alert.id), false);
      return 'done' as const;
    }
    await repo.insertTicket(deps.db, newTicketRow(conn, detail, company.companyId, at));
    ticket = (await repo.findTicket(deps.db, conn.tenant_id, conn.id, alert.id))!;
  }
  if (ticket.ticket_id) return 'done' as const;
  const adapter = await adapterFor(deps, conn);
  const ref = ticketRef(alert.id);
  let created = retried ? await adapter.findTicket(ref) : null;
  const linkedTo = closedRecently ? previous.ticket_number : null;
  created ??= await adapter.createTicket({ ref, summary: summaryOf(detail), description: descriptionOf(deps, detail, linkedTo), companyId: ticket.company_id, priority: alert.priority });
  const done = deps.jobs.clock().toISOString();
  await repo.updateTicket(deps.db, conn.tenant_id, ticket.id, { ticket_id: created.id, ticket_number: created.number, ticket_url: created.url, status: 'open', updated_at: done });
  const text = linkedTo ? PSA_MSG.ticketLinked(psa, created.number, linkedTo) : PSA_MSG.ticketOpened(psa, created.number);
  await timelineEntry(deps.db, conn.tenant_id, alert.id, psa, done, { text, number: created.number, url: created.url });
  await publishAlert(deps, conn.tenant_id, alert.id);
  // What happened while the ticket was being opened (acknowledged, resolved) follows now.
  await planFor(deps, conn, await getAlertDetail(deps.db, conn.tenant_id, alert.id), false);
  return 'done' as const;
}

/**
 * The job of one action: in order after the alert's earlier calls, marked `sending` before the call (a crash or a
 * lost answer leaves it so, and the next try reconciles), `done` after; a failure is the connection's last error and
 * retried with backoff, and on the last try (or one retrying cannot fix) the alert's timeline says so.
 */
export async function runAction(deps: PsaDeps, tenantId: string, actionId: string, finalAttempt: boolean) {
  const action = await repo.getAction(deps.db, tenantId, actionId);
  if (!action || (action.status !== 'pending' && action.status !== 'sending')) return;
  const conn = await repo.getConnection(deps.db, tenantId, action.connection_id);
  const at = () => deps.jobs.clock().toISOString();
  if (!conn || !conn.enabled) {
    await repo.updateAction(deps.db, tenantId, action.id, { status: 'skipped', updated_at: at() });
    return;
  }
  if (await repo.hasEarlierUnfinished(deps.db, tenantId, action)) {
    if (!finalAttempt) throw new Error('waiting for an earlier call of this alert');
  }
  const retryAfterLoss = action.status === 'sending';
  // Any earlier try may have reached the PSA (its answer lost, refused after acting, or the server stopped mid-call):
  // this one looks in the PSA for what that try did before doing it again.
  const retried = action.attempts > 0;
  await repo.updateAction(deps.db, tenantId, action.id, { status: 'sending', attempts: action.attempts + 1, updated_at: at() });
  const psa = PSA_NAMES[conn.type];
  try {
    let outcome: 'done' | 'skipped' = 'done';
    if (action.action === 'create') outcome = await openTicket(deps, conn, action, retried);
    else {
      const ticket = await repo.findTicket(deps.db, tenantId, conn.id, action.alert_id);
      const text = (JSON.parse(action.payload) as { text: string }).text;
      if (!ticket?.ticket_id) outcome = 'skipped';
      else {
        const adapter = await adapterFor(deps, conn);
        const id = ticket.ticket_id;
        const note = { text, ref: noteRef(action.id) };
        // A note once: after an earlier try, only if the ticket has no note with this action's reference.
        const addNote = async () => {
          if (!(retried && (await adapter.hasNote(id, note.ref)))) await adapter.addNote(id, note);
        };
        // A status change is the same whenever made: after an earlier try, the ticket's status is re-read and the
        // change sent only if it is not there yet (no second status change in the ticket's history).
        const setStatus = async (to: 'open' | 'closed') => {
          if (!(retried && (await adapter.isClosed(id)) === (to === 'closed'))) await adapter.setStatus(id, to);
        };
        if (action.action === 'note') await addNote();
        else if (action.action === 'reopen') {
          await setStatus('open');
          await addNote();
          await timelineEntry(deps.db, tenantId, action.alert_id, psa, at(), { text: PSA_MSG.ticketReopened(psa, ticket.ticket_number ?? ''), number: ticket.ticket_number, url: ticket.ticket_url });
          await publishAlert(deps, tenantId, action.alert_id);
        } else {
          await addNote();
          await setStatus('closed');
          await repo.updateTicket(deps.db, tenantId, ticket.id, { status: 'closed', closed_at: at(), updated_at: at() });
          await timelineEntry(deps.db, tenantId, action.alert_id, psa, at(), { text: PSA_MSG.ticketClosed(psa, ticket.ticket_number ?? ''), number: ticket.ticket_number, url: ticket.ticket_url });
          await publishAlert(deps, tenantId, action.alert_id);
        }
      }
    }
    await repo.updateAction(deps.db, tenantId, action.id, { status: outcome, last_error: null, updated_at: at() });
    if (conn.last_error) await repo.updateConnection(deps.db, tenantId, conn.id, { last_error: null, last_error_at: null });
  } catch (err) {
    const message = errorText(err);
    const lost = err instanceof PsaError && err.opts.lost === true;
    const givenUp = finalAttempt || (err instanceof PsaError && err.opts.permanent === true);
    // An answer lost leaves the record `sending`: the next try looks for what the PSA may have done.
    await repo.updateAction(deps.db, tenantId, action.id, { status: givenUp ? 'failed' : lost || retryAfterLoss ? 'sending' : 'pending', last_error: message, updated_at: at() });
    await repo.updateConnection(deps.db, tenantId, conn.id, { last_error: message, last_error_at: at() });
    // The first failure of a call is said on the alert too (once: its retries are on the connection).
    if (!givenUp && action.attempts === 0) await timelineEntry(deps.db, tenantId, action.alert_id, psa, at(), { text: PSA_MSG.ticketRetrying(psa, message) });
    if (!givenUp) throw err;
    if (action.action === 'create') {
      const ticket = await repo.findTicket(deps.db, tenantId, conn.id, action.alert_id);
      if (ticket && !ticket.ticket_id) await repo.updateTicket(deps.db, tenantId, ticket.id, { status: 'failed', updated_at: at() });
    }
    await timelineEntry(deps.db, tenantId, action.alert_id, psa, at(), { text: PSA_MSG.ticketFailed(psa, message) });
  }
}

/**
 * The claimed action jobs of a pass: those of one alert run one after another in the order they were planned (a note
 * waits for its ticket), different alerts side by side. Each job's outcome is its own: null, or what it failed with.
 */
export async function runActionBatch(deps: PsaDeps, items: Array<{ job: JobsTable; ctx: JobContext }>): Promise<unknown[]> {
  const outcomes = new Map<JobsTable, unknown>();
  const rows = await Promise.all(items.map(async (item) => ({ item, action: item.job.tenant_id ? await repo.getAction(deps.db, item.job.tenant_id, String(item.ctx.payload.actionId)) : undefined })));
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    const key = r.action ? `${r.action.connection_id}:${r.action.alert_id}` : r.item.job.id;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  await Promise.all(
    [...groups.values()].map(async (group) => {
      group.sort((a, b) => ((a.action?.id ?? '') < (b.action?.id ?? '') ? -1 : 1));
      for (const { item, action } of group) {
        try {
          if (action) await runAction(deps, action.tenant_id, action.id, item.ctx.finalAttempt);
          outcomes.set(item.job, null);
        } catch (err) {
          outcomes.set(item.job, err ?? new Error('PSA action failed'));
        }
      }
    }),
  );
  return items.map((i) => outcomes.get(i.job) ?? null);
}
