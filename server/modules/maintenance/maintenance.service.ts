import { randomUUID } from 'node:crypto';
import { MAINTENANCE_LIMITS, MAINTENANCE_MSG, type MaintenanceListQuery, type MaintenanceWindow, type MaintenanceWindowValues } from '../../../contract/maintenance.ts';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import type { Clock } from '../../jobs/job-worker.ts';
import { existingClientIds } from '../clients/clients.service.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { lockTenant } from '../tenants/tenants.service.ts';
import { covers, occurrenceAt, occurrencesBetween, windowState, type WindowSpec } from './maintenance-windows.ts';
import * as repo from './maintenance.repository.ts';

export interface MaintenanceServiceDeps {
  db: DB;
  /** The job worker's clock: the step sweep that releases held alerts compares with the same time. */
  clock: Clock;
}

/** Owners and admins plan windows (they keep the escalation the windows hold); every member sees them. */
const MANAGE = 'manageEscalation' as const;

const windowNotFound = () => notFound(MAINTENANCE_MSG.notFound);
const ids = (text: string) => {
  const v = parseJson<unknown>(text, []);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
};

export function specOf(row: repo.WindowRow): WindowSpec {
  const days = parseJson<unknown>(row.days, []);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    days: Array.isArray(days) ? days.filter((d): d is number => typeof d === 'number') : [],
    from: row.from_time,
    to: row.to_time,
    timeZone: row.time_zone,
    until: row.until_at,
    clientIds: ids(row.client_ids),
    integrationIds: ids(row.integration_ids),
    endedAt: row.ended_at,
  };
}

export function toWindow(row: repo.WindowRow, at: Date): MaintenanceWindow {
  const spec = specOf(row);
  const { state, activeUntil, next } = windowState(spec, at.getTime());
  const weekly = row.kind === 'weekly';
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    start: weekly ? null : row.starts_at,
    end: weekly ? null : row.ends_at,
    recurrence: weekly ? { days: spec.days, from: row.from_time ?? '00:00', to: row.to_time ?? '00:00', timeZone: row.time_zone ?? 'UTC' } : null,
    until: row.until_at,
    scope: { clientIds: spec.clientIds, integrationIds: spec.integrationIds },
    endedAt: row.ended_at,
    state,
    activeUntil,
    nextStart: next ? new Date(next.start).toISOString() : null,
    nextEnd: next ? new Date(next.end).toISOString() : null,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns a window's input gives (one-off or weekly), times normalised to ISO UTC. */
function columnsOf(input: MaintenanceWindowValues) {
  const iso = (s: string | null | undefined) => (s ? new Date(s).toISOString() : null);
  const r = input.recurrence;
  return {
    name: input.name,
    kind: r ? ('weekly' as const) : ('one_off' as const),
    starts_at: r ? null : iso(input.start),
    ends_at: r ? null : iso(input.end),
    days: JSON.stringify(r?.days ?? []),
    from_time: r?.from ?? null,
    to_time: r?.to ?? null,
    time_zone: r?.timeZone ?? null,
    until_at: r ? iso(input.until) : null,
    client_ids: JSON.stringify(input.scope.clientIds),
    integration_ids: JSON.stringify(input.scope.integrationIds),
  };
}

/** Every id of the scope must be one of the tenant's clients or integrations (another tenant's is as unknown). */
async function checkScope(db: DB, tenantId: string, scope: MaintenanceWindowValues['scope']) {
  const clients = await existingClientIds(db, tenantId, scope.clientIds);
  if (scope.clientIds.some((id) => !clients.has(id))) throw badRequest(MAINTENANCE_MSG.unknownClient, { 'scope.clientIds': MAINTENANCE_MSG.unknownClient });
  const integrations = await repo.existingIntegrationIds(db, tenantId, scope.integrationIds);
  if (scope.integrationIds.some((id) => !integrations.has(id))) throw badRequest(MAINTENANCE_MSG.unknownIntegration, { 'scope.integrationIds': MAINTENANCE_MSG.unknownIntegration });
}

async function load(db: DB, tenantId: string, id: string) {
  const row = await repo.findWindow(db, tenantId, id);
  if (!row) throw windowNotFound();
  return row;
}

export async function listMaintenanceWindows(deps: MaintenanceServiceDeps, ctx: TenantContext, query: MaintenanceListQuery) {
  const at = deps.clock();
  let items = (await repo.listWindows(deps.db, ctx.tenant.id)).map((row) => ({ row, w: toWindow(row, at) }));
  if (query.clientId) items = items.filter(({ row }) => covers(specOf(row), { client_id: query.clientId!, integration_id: null }));
  if (query.current === 'true') items = items.filter(({ w }) => w.state !== 'ended');
  const windows = items.map(({ w }) => w);
  return { items: windows, total: windows.length, page: 1, pageSize: Math.max(windows.length, 1) };
}

export async function getMaintenanceWindow(deps: MaintenanceServiceDeps, ctx: TenantContext, id: string) {
  return toWindow(await load(deps.db, ctx.tenant.id, id), deps.clock());
}

export async function createMaintenanceWindow(deps: MaintenanceServiceDeps, ctx: TenantContext, input: MaintenanceWindowValues) {
  authorize(ctx, MANAGE);
  const tenantId = ctx.tenant.id;
  await checkScope(deps.db, tenantId, input.scope);
  const id = randomUUID();
  const at = deps.clock().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    // Two concurrent creates count one after the other and cannot both take the last place.
    if (!(await lockTenant(trx, tenantId))) throw windowNotFound();
    if ((await repo.countWindows(trx, tenantId)) >= MAINTENANCE_LIMITS.perTenant) throw new AppError(409, 'limit_reached', MAINTENANCE_MSG.tooMany);
    await repo.insertWindow(trx, { id, tenant_id: tenantId, ...columnsOf(input), ended_at: null, created_by: ctx.user.id, created_by_name: ctx.user.display_name || ctx.user.email, created_at: at, updated_at: at });
  });
  return getMaintenanceWindow(deps, ctx, id);
}

/**
 * Applies a change to a window and moves the level 1 of the alerts it holds to its new end (or to now when the change
 * leaves no occurrence in progress): a window made longer keeps holding them, one ended or deleted lets them go.
 */
async function changeAndRelease(deps: MaintenanceServiceDeps, tenantId: string, id: string, change: (trx: DB, at: string) => Promise<repo.WindowRow | null>) {
  const now = deps.clock();
  const at = now.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const after = await change(trx, at);
    const occurrence = after ? occurrenceAt(specOf(after), now.getTime()) : null;
    await repo.moveHeldAlerts(trx, tenantId, id, at, occurrence ? new Date(occurrence.end).toISOString() : at);
    return after;
  });
}

export async function updateMaintenanceWindow(deps: MaintenanceServiceDeps, ctx: TenantContext, id: string, input: MaintenanceWindowValues) {
  authorize(ctx, MANAGE);
  const tenantId = ctx.tenant.id;
  await load(deps.db, tenantId, id);
  await checkScope(deps.db, tenantId, input.scope);
  await changeAndRelease(deps, tenantId, id, async (trx, at) => {
    if (!(await repo.updateWindow(trx, tenantId, id, { ...columnsOf(input), updated_at: at }))) throw windowNotFound();
    return (await repo.findWindow(trx, tenantId, id)) ?? null;
  });
  return getMaintenanceWindow(deps, ctx, id);
}

/** "End now": the occurrence in progress ends at once (a weekly window's later occurrences stay planned). */
export async function endMaintenanceWindow(deps: MaintenanceServiceDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  const tenantId = ctx.tenant.id;
  const row = await load(deps.db, tenantId, id);
  if (!occurrenceAt(specOf(row), deps.clock().getTime())) throw conflict(MAINTENANCE_MSG.alreadyEnded);
  await changeAndRelease(deps, tenantId, id, async (trx, at) => {
    await repo.updateWindow(trx, tenantId, id, { ended_at: at, updated_at: at });
    return (await repo.findWindow(trx, tenantId, id)) ?? null;
  });
  return getMaintenanceWindow(deps, ctx, id);
}

/** Deleting a window lets the alerts it holds go at once. */
export async function deleteMaintenanceWindow(deps: MaintenanceServiceDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  const tenantId = ctx.tenant.id;
  await changeAndRelease(deps, tenantId, id, async (trx) => {
    if (!(await repo.deleteWindow(trx, tenantId, id))) throw windowNotFound();
    return null;
  });
}

/** A tenant's windows that may be on now or later, for ingestion's cache (paging's escalation routing). */
export async function currentWindowSpecs(db: DB, tenantId: string, at: string): Promise<WindowSpec[]> {
  return (await repo.listCurrentWindows(db, tenantId, at)).map(specOf);
}

/** How many occurrences a report lists at most (a weekly window over a quarter has 13; several windows, more). */
export const MAINTENANCE_DONE_MAX = 100;

/**
 * The maintenance a period saw, for the client report (issue 31: "maintenance done"): each occurrence of the tenant's
 * windows that took in the client (its own or the whole tenant's; a window scoped to integrations only is named in the
 * tenant's report) and overlapped [from, min(to, now)): what is still to come is not done. Oldest first, at most
 * MAINTENANCE_DONE_MAX.
 */
export async function maintenanceDone(db: DB, tenantId: string, clientId: string | null, from: string, to: string, now: Date) {
  const until = Math.min(Date.parse(to), now.getTime());
  const specs = (await repo.listWindows(db, tenantId)).map(specOf);
  const inScope = (w: WindowSpec) => clientId === null || (w.clientIds.length === 0 && w.integrationIds.length === 0) || w.clientIds.includes(clientId);
  return specs
    .filter(inScope)
    .flatMap((w) => occurrencesBetween(w, Date.parse(from), until).map((o) => ({ windowId: w.id, name: w.name, start: new Date(o.start).toISOString(), end: new Date(o.end).toISOString() })))
    .sort((a, b) => a.start.localeCompare(b.start) || a.name.localeCompare(b.name))
    .slice(0, MAINTENANCE_DONE_MAX);
}
