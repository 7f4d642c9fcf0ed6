import { randomUUID } from 'node:crypto';
import { HEARTBEAT_LIMITS, HEARTBEAT_MSG, type Heartbeat, type HeartbeatInput, type HeartbeatWithPingUrl } from '../../../contract/heartbeats.ts';
import type { DB } from '../../db/database.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import type { Clock } from '../../jobs/job-worker.ts';
import { newToken } from '../../lib/tokens.ts';
import { existingClientIds } from '../clients/clients.service.ts';
import { emailAddressOf, looksLikeEmailToken, newEmailToken } from '../integrations/integration-email.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { lockTenant } from '../tenants/tenants.service.ts';
import { fieldsOf, stateColumns } from './heartbeat-monitor.ts';
import { deadlines, pause, reschedule, resume, type MonitorFields } from './heartbeat-state.ts';
import * as repo from './heartbeats.repository.ts';

export interface HeartbeatServiceDeps {
  db: DB;
  /** The job worker's clock: deadlines written here are the ones its sweep compares with. */
  clock: Clock;
  /** Read at each call: the public URL can be settled after start (tests learn their port only once listening). */
  publicUrl: () => string;
  /** The domain of the monitors' mail addresses (INBOUND_EMAIL_DOMAIN); null while mail is off (no address shown). */
  mailDomain: string | null;
}

/**
 * Who may do what: every member sees the monitors (the client details show them); owners and admins, who keep the
 * integrations (the other way alerts come in), create, change, pause and delete them (ability manageIntegrations).
 */
const MANAGE = 'manageIntegrations' as const;

const heartbeatNotFound = () => notFound(HEARTBEAT_MSG.notFound);

export function toHeartbeat(row: repo.HeartbeatRow, mailDomain: string | null = null): Heartbeat {
  const m = fieldsOf(row);
  const { lateAt, downAt } = deadlines(m);
  return {
    id: row.id,
    name: row.name,
    clientId: row.client_id,
    clientName: row.client_name,
    intervalMinutes: Number(row.interval_minutes),
    graceMinutes: Number(row.grace_minutes),
    priority: row.priority,
    state: row.state,
    tokenPrefix: row.token_prefix,
    emailAddress: mailDomain ? emailAddressOf(row.email_token, mailDomain) : null,
    lastPingAt: row.last_ping_at,
    runStartedAt: row.run_started_at,
    lastFailAt: row.last_fail_at,
    nextDueAt: lateAt?.toISOString() ?? null,
    downAt: downAt?.toISOString() ?? null,
    alertId: m.state === 'down' || m.alertWanted ? row.alert_id : null,
    createdAt: row.created_at,
    createdByName: row.created_by_name,
    updatedAt: row.updated_at,
  };
}

const pingUrl = (deps: HeartbeatServiceDeps, token: string) => `${deps.publicUrl()}/api/heartbeat/${token}`;

async function checkClient(db: DB, tenantId: string, clientId: string | null) {
  if (clientId && !(await existingClientIds(db, tenantId, [clientId])).has(clientId)) {
    throw badRequest(HEARTBEAT_MSG.unknownClient, { clientId: HEARTBEAT_MSG.unknownClient });
  }
}

async function load(db: DB, tenantId: string, id: string) {
  const row = await repo.findHeartbeat(db, tenantId, id);
  if (!row) throw heartbeatNotFound();
  return row;
}

export async function listTenantHeartbeats(deps: HeartbeatServiceDeps, ctx: TenantContext, query: { clientId?: string }) {
  const rows = await repo.listHeartbeats(deps.db, ctx.tenant.id, query);
  return { items: rows.map((r) => toHeartbeat(r, deps.mailDomain)), total: rows.length, page: 1, pageSize: Math.max(rows.length, 1) };
}

export async function getHeartbeat(deps: HeartbeatServiceDeps, ctx: TenantContext, id: string) {
  return toHeartbeat(await load(deps.db, ctx.tenant.id, id), deps.mailDomain);
}

/** A new monitor, state new (it waits for its first ping); its ping URL is in this answer and nowhere else. */
export async function createHeartbeat(deps: HeartbeatServiceDeps, ctx: TenantContext, input: HeartbeatInput): Promise<HeartbeatWithPingUrl> {
  authorize(ctx, MANAGE);
  const tenantId = ctx.tenant.id;
  await checkClient(deps.db, tenantId, input.clientId);
  const { token, hash } = newToken();
  const id = randomUUID();
  const at = deps.clock().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    // Two concurrent creates count one after the other and cannot both take the last place.
    if (!(await lockTenant(trx, tenantId))) throw heartbeatNotFound();
    if ((await repo.countHeartbeats(trx, tenantId)) >= HEARTBEAT_LIMITS.perTenant) throw new AppError(409, 'limit_reached', HEARTBEAT_MSG.tooMany);
    await repo.insertHeartbeat(trx, {
      id,
      tenant_id: tenantId,
      client_id: input.clientId,
      name: input.name,
      interval_minutes: input.intervalMinutes,
      grace_minutes: input.graceMinutes,
      priority: input.priority,
      token_hash: hash,
      token_prefix: token.slice(0, 6),
      email_token: newEmailToken(),
      state: 'new',
      period_start_at: null,
      run_started_at: null,
      last_ping_at: null,
      last_fail_at: null,
      next_check_at: null,
      version: 0,
      alert_wanted: 0,
      alert_seq: 0,
      alert_sync_due_at: null,
      alert_id: null,
      created_by: ctx.user.id,
      created_by_name: ctx.user.display_name,
      created_at: at,
      updated_at: at,
    });
  });
  return { ...toHeartbeat(await load(deps.db, tenantId, id), deps.mailDomain), pingUrl: pingUrl(deps, token) };
}

/**
 * Applies `change` to the monitor's fields and writes them with the next check they give, conditional on the version
 * read (a ping or the sweep in between: read again and retry). 404 when it is gone.
 */
async function rewrite(deps: HeartbeatServiceDeps, tenantId: string, id: string, change: (m: MonitorFields, row: repo.HeartbeatRow) => { fields: MonitorFields; extra?: repo.HeartbeatChange }) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await load(deps.db, tenantId, id);
    const now = deps.clock();
    const { fields, extra } = change(fieldsOf(row), row);
    const set = { ...stateColumns(row, fields, null, now), ...extra, updated_at: now.toISOString() };
    if (await repo.updateHeartbeatIf(deps.db, tenantId, id, { version: Number(row.version) }, set)) return toHeartbeat(await load(deps.db, tenantId, id), deps.mailDomain);
  }
  throw new AppError(409, 'conflict', 'The monitor changed meanwhile. Please retry.');
}

/** The whole monitor (PUT): a changed interval or grace moves its deadlines at once; its open alert keeps its text. */
export async function updateHeartbeat(deps: HeartbeatServiceDeps, ctx: TenantContext, id: string, input: HeartbeatInput) {
  authorize(ctx, MANAGE);
  await checkClient(deps.db, ctx.tenant.id, input.clientId);
  return rewrite(deps, ctx.tenant.id, id, (m) => ({
    fields: reschedule(m, input.intervalMinutes, input.graceMinutes, deps.clock()),
    extra: { name: input.name, client_id: input.clientId, priority: input.priority, interval_minutes: input.intervalMinutes, grace_minutes: input.graceMinutes },
  }));
}

export async function pauseHeartbeat(deps: HeartbeatServiceDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  return rewrite(deps, ctx.tenant.id, id, (m) => ({ fields: pause(m) }));
}

export async function resumeHeartbeat(deps: HeartbeatServiceDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  return rewrite(deps, ctx.tenant.id, id, (m) => ({ fields: resume(m, deps.clock()) }));
}

/** A new ping URL and mail address; the old ones stop working at once (either one lets anyone report the job done). */
export async function renewPingUrl(deps: HeartbeatServiceDeps, ctx: TenantContext, id: string): Promise<HeartbeatWithPingUrl> {
  authorize(ctx, MANAGE);
  const { token, hash } = newToken();
  const heartbeat = await rewrite(deps, ctx.tenant.id, id, (m) => ({ fields: m, extra: { token_hash: hash, token_prefix: token.slice(0, 6), email_token: newEmailToken() } }));
  return { ...heartbeat, pingUrl: pingUrl(deps, token) };
}

/** Deletes the monitor: its URL stops working; an alert it opened stays (it is the people's to resolve). */
export async function deleteHeartbeat(deps: HeartbeatServiceDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  if (!(await repo.deleteHeartbeat(deps.db, ctx.tenant.id, id))) throw heartbeatNotFound();
}

/**
 * The monitor a mail address's local part belongs to, as the hash of its ping URL's secret (any tenant: the address is
 * all a mail names); null when none. A mail to it is a ping (inbound-mail).
 */
export async function findHeartbeatMailbox(db: DB, token: string): Promise<string | null> {
  if (!looksLikeEmailToken(token)) return null;
  return repo.unsafeFindHeartbeatTokenHashByEmailToken(db, token);
}
