import { randomUUID } from 'node:crypto';
import { PSA_MSG, PSA_NAMES } from '../../../contract/psa.ts';
import { notFound } from '../../http/errors.ts';
import { cancelAlertJobs, enqueueJobs } from '../../jobs/jobs.repository.ts';
import type { PsaConnectionsTable } from '../../db/schema.ts';
import { adapterFor, errorText, inboundSignatureValid, rulesOf, type PsaDeps } from './psa-runtime.ts';
import { timelineEntry } from './psa-timeline.ts';
import * as repo from './psa.repository.ts';

/** The ticket id a PSA's notice names: ConnectWise's callback `ID`, HaloPSA's webhook ticket `id`. */
function ticketIdOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const nested = b.ticket && typeof b.ticket === 'object' ? (b.ticket as Record<string, unknown>) : null;
  const id = b.ID ?? b.id ?? b.ticket_id ?? nested?.id;
  return typeof id === 'number' || (typeof id === 'string' && /^\d{1,20}$/.test(id)) ? String(id) : null;
}

/**
 * A PSA says a ticket changed (at our signed URL). The notice is a trigger only: the ticket is read back from the PSA,
 * and when it is closed there, each open alert it belongs to is resolved (or acknowledged, as the connection says)
 * with an entry saying why. A wrong signature answers 404 like a missing connection.
 */
export async function handleInbound(deps: PsaDeps, token: string, body: unknown): Promise<{ ok: true }> {
  const dot = token.lastIndexOf('.');
  const connectionId = token.slice(0, Math.max(0, dot));
  if (dot <= 0 || !(await inboundSignatureValid(deps.db, connectionId, token.slice(dot + 1)))) throw notFound();
  const conn = await repo.unsafeGetConnectionById(deps.db, connectionId);
  if (!conn) throw notFound();
  const ticketId = ticketIdOf(body);
  if (!conn.enabled || !ticketId) return { ok: true };
  // Notices come for every ticket of the PSA: only ours still open are read back.
  const ours = await repo.ticketsByPsaId(deps.db, conn.tenant_id, conn.id, ticketId);
  if (!ours.some((t) => t.status === 'open')) return { ok: true };
  if (!(await (await adapterFor(deps, conn)).isClosed(ticketId))) return { ok: true };
  await closedInPsa(deps, conn, ticketId);
  return { ok: true };
}

/**
 * A ticket found closed in the PSA: each open alert it belongs to is resolved (or acknowledged, as the connection
 * says) with an entry saying why; its ticket row is closed, so the resolution does not close the ticket again.
 */
export async function closedInPsa(deps: PsaDeps, conn: PsaConnectionsTable, ticketId: string) {
  const tenantId = conn.tenant_id;
  const open = (await repo.ticketsByPsaId(deps.db, tenantId, conn.id, ticketId)).filter((t) => t.status === 'open');
  const psa = PSA_NAMES[conn.type];
  const to = rulesOf(conn).inboundClose === 'acknowledge' ? 'acknowledged' : 'resolved';
  for (const ticket of open) {
    const at = deps.jobs.clock().toISOString();
    const number = ticket.ticket_number ?? ticketId;
    const changed = await deps.db.transaction().execute(async (trx) => {
      await repo.updateTicket(trx, tenantId, ticket.id, { status: 'closed', closed_at: at, updated_at: at });
      const row = await repo.settleAlertFromPsa(trx, tenantId, ticket.alert_id, to, at);
      if (!row) return null;
      await cancelAlertJobs(trx, tenantId, ticket.alert_id);
      await repo.insertTimelineEntry(trx, { id: randomUUID(), tenant_id: tenantId, alert_id: ticket.alert_id, at, kind: to, actor_type: 'system', actor_id: null, actor_name: psa, detail: '{}' });
      await timelineEntry(trx, tenantId, ticket.alert_id, psa, at, { text: to === 'resolved' ? PSA_MSG.closedInPsaResolved(psa, number) : PSA_MSG.closedInPsaAcknowledged(psa, number), number, url: ticket.ticket_url });
      return row;
    });
    if (changed) deps.bus.publish(tenantId, { kind: 'updated', id: changed.id, status: changed.status, priority: changed.priority, dedupKey: changed.dedup_key, updatedAt: changed.updated_at });
  }
}

/** How often Autotask is asked which of our tickets were closed there. */
export const POLL_EVERY_MS = 60_000;
export const POLL_JOB = 'psa.poll';

/**
 * The sweep that schedules Autotask's polls (it has no webhook for us): once a minute, a job per enabled Autotask
 * connection with open tickets, unique per connection and minute, so one instance polls each minute.
 */
export function autotaskPollSweep(deps: PsaDeps, log: { warn(o: object, m: string): void }) {
  let lastSweep = 0;
  return async (now: Date): Promise<number> => {
    if (now.getTime() - lastSweep < POLL_EVERY_MS) return 0;
    lastSweep = now.getTime();
    const minute = Math.floor(now.getTime() / POLL_EVERY_MS);
    try {
      const jobs = (await repo.unsafePolledConnectionsWithOpenTickets(deps.db)).map((c) => ({ kind: POLL_JOB, uniqueKey: `${POLL_JOB}:${c.id}:${minute}`, dueAt: now, tenantId: c.tenant_id, payload: { connectionId: c.id }, maxAttempts: 1 }));
      await enqueueJobs(deps.db, jobs, now);
    } catch (err) {
      // The database away: the next minute tries again, and the worker's other work goes on meanwhile.
      log.warn({ err }, 'psa: Autotask polls were not scheduled');
    }
    return 0;
  };
}

/**
 * One poll of a connection: of its open tickets, those closed in Autotask since the last poll (a minute's overlap) are
 * closed here, their alerts resolved or acknowledged. A failure is the connection's last error; the next minute retries.
 */
export async function pollConnection(deps: PsaDeps, tenantId: string, connectionId: string) {
  const conn = await repo.getConnection(deps.db, tenantId, connectionId);
  if (!conn || !conn.enabled) return;
  const now = deps.jobs.clock();
  const ticketIds = await repo.openTicketIds(deps.db, tenantId, connectionId);
  const since = conn.polled_at ? new Date(Date.parse(conn.polled_at) - POLL_EVERY_MS).toISOString() : null;
  try {
    const closed = (await (await adapterFor(deps, conn)).closedAmong?.(ticketIds, since)) ?? [];
    for (const id of closed) await closedInPsa(deps, conn, id);
    await repo.updateConnection(deps.db, tenantId, connectionId, { polled_at: now.toISOString() });
  } catch (err) {
    await repo.updateConnection(deps.db, tenantId, connectionId, { last_error: errorText(err), last_error_at: now.toISOString() });
  }
}
