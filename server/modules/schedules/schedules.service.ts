import { randomUUID } from 'node:crypto';
import ical from 'ical-generator';
import { DateTime } from 'luxon';
import {
  SCHEDULE_LIMITS,
  SCHEDULE_MSG,
  WEEKDAY_KEYS,
  type MyShift,
  type OnCallNow,
  type OverrideInput,
  type ScheduleInput,
  type Timeline,
} from '../../../contract/schedules.ts';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { findTenantForUser, lockTenant } from '../tenants/tenants.service.ts';
import { nextHandover, onCallAt, pieces, timeline, type OverrideSpec, type ScheduleSpec } from './oncall.ts';
import { onCallCacheOf, type OnCallInputs } from './oncall-cache.ts';
import * as repo from './schedules.repository.ts';
import { timelineRows } from './timeline-rows.ts';
import { canCreateOverride, canDeleteOverride } from './schedules.policy.ts';
import { removeScheduleFromPolicies } from '../escalation/escalation-policies.service.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';

const DAY_MS = 86_400_000;
/** How far ahead "next handover" looks: a week of rotation and a day more. */
const HANDOVER_HORIZON_MS = 8 * DAY_MS;

export const scheduleNotFound = () => notFound(SCHEDULE_MSG.notFound);
const iso = (ms: number) => new Date(ms).toISOString();

async function loadSchedule(db: DB, tenantId: string, id: string) {
  const row = await repo.findSchedule(db, tenantId, id);
  if (!row) throw scheduleNotFound();
  return row;
}

export async function listSchedules(db: DB, ctx: TenantContext) {
  return { items: (await repo.listSchedules(db, ctx.tenant.id)).map(repo.toSchedule) };
}

export async function getSchedule(db: DB, ctx: TenantContext, id: string) {
  return repo.toSchedule(await loadSchedule(db, ctx.tenant.id, id));
}

/** 400 naming each shift whose primary or secondary is not an active member of the tenant. */
async function assertMembers(db: DB, tenantId: string, input: ScheduleInput) {
  const ids = [
    ...WEEKDAY_KEYS.flatMap((k) => input.rotations[k].flatMap((s) => [s.primaryOnCall, s.secondaryOnCall].filter((x): x is string => !!x))),
    ...input.layers.flatMap((l) => l.participants),
  ];
  const members = await repo.activeMemberIds(db, tenantId, ids);
  const fields: Record<string, string> = {};
  for (const k of WEEKDAY_KEYS) {
    input.rotations[k].forEach((s, i) => {
      if (!members.has(s.primaryOnCall)) fields[`rotations.${k}.${i}.primaryOnCall`] = SCHEDULE_MSG.notAMember;
      if (s.secondaryOnCall && !members.has(s.secondaryOnCall)) fields[`rotations.${k}.${i}.secondaryOnCall`] = SCHEDULE_MSG.notAMember;
    });
  }
  input.layers.forEach((l, i) =>
    l.participants.forEach((id, j) => {
      if (!members.has(id)) fields[`layers.${i}.participants.${j}`] = SCHEDULE_MSG.notAMember;
    }),
  );
  if (Object.keys(fields).length) throw new AppError(400, 'validation_failed', SCHEDULE_MSG.notAMember, fields);
}

/**
 * Writes a schedule and, when it is the new default, clears the old default in the same transaction. The tenant's
 * lock makes concurrent saves run one after the other, so two defaults saved at once leave exactly one (the later).
 */
async function saveSchedule(db: DB, ctx: TenantContext, id: string | null, input: ScheduleInput): Promise<string> {
  const tenantId = ctx.tenant.id;
  await assertMembers(db, tenantId, input);
  const scheduleId = id ?? randomUUID();
  await db.transaction().execute(async (trx) => {
    if (!(await lockTenant(trx, tenantId))) throw scheduleNotFound();
    const existing = id ? await repo.findSchedule(trx, tenantId, id) : undefined;
    if (id && !existing) throw scheduleNotFound();
    // Spec section 4: a new default first clears the existing one (on edit, only when it was not already default).
    if (input.isDefault && !existing?.is_default) await repo.clearDefaultSchedule(trx, tenantId);
    const at = now();
    if (existing) await repo.updateSchedule(trx, tenantId, scheduleId, { ...repo.scheduleColumns(input), updated_at: at });
    else await repo.insertSchedule(trx, { id: scheduleId, tenant_id: tenantId, ...repo.scheduleColumns(input), created_by: ctx.user.id, created_at: at, updated_at: at });
  });
  return scheduleId;
}

export async function createSchedule(db: DB, ctx: TenantContext, input: ScheduleInput) {
  authorize(ctx, 'manageEscalation', SCHEDULE_MSG.manageForbidden);
  return getSchedule(db, ctx, await saveSchedule(db, ctx, null, input));
}

export async function updateSchedule(db: DB, ctx: TenantContext, id: string, input: ScheduleInput) {
  authorize(ctx, 'manageEscalation', SCHEDULE_MSG.manageForbidden);
  return getSchedule(db, ctx, await saveSchedule(db, ctx, id, input));
}

export async function deleteSchedule(db: DB, ctx: TenantContext, id: string) {
  authorize(ctx, 'manageEscalation', SCHEDULE_MSG.manageForbidden);
  // Policies that page its people stop naming it in the same transaction (as a deleted policy leaves its integrations).
  const deleted = await db.transaction().execute(async (trx) => {
    if (!(await repo.deleteSchedule(trx, ctx.tenant.id, id))) return false;
    await removeScheduleFromPolicies(trx, ctx.tenant.id, id, new Date().toISOString());
    return true;
  });
  if (!deleted) throw scheduleNotFound();
}

/**
 * Who is on call on one of the tenant's schedules at `at`, overrides applied; null when there is no such schedule.
 * Nobody (nulls) outside the schedule's dates, in a gap, or where the person is no longer an active member of the
 * tenant. The escalation engine pages through this.
 */
export async function whoIsOnCall(
  db: DB,
  tenantId: string,
  scheduleId: string,
  at: Date,
): Promise<{ primary: string | null; secondary: string | null; shiftEndsAt: string | null } | null> {
  const t = at.getTime();
  // Its overrides that have not ended by `at` (those in force and those that may cut the current shift short).
  const inputs = await onCallInputs(db, tenantId, scheduleId, { from: at.toISOString(), to: iso(t + 2 * DAY_MS) });
  if (!inputs.schedule) return null;
  const r = onCallAt(inputs.schedule.spec, inputs.overrides.map((o) => o.spec), t);
  // Someone who has left the tenant is never paged: their slot answers null until the schedule is edited. Someone
  // the cached members lack is looked up (they may have just joined again).
  const unknown = [r.primary, r.secondary].filter((id): id is string => !!id && !inputs.members.has(id));
  const joined = unknown.length ? await repo.activeMemberIds(db, tenantId, unknown) : new Set<string>();
  const member = (id: string | null) => (id && (inputs.members.has(id) || joined.has(id)) ? id : null);
  return { primary: member(r.primary), secondary: member(r.secondary), shiftEndsAt: r.endsAt === null ? null : iso(r.endsAt) };
}

/**
 * A schedule of the tenant, its overrides overlapping the range and the tenant's active members: from the app's
 * on-call cache where it holds them, else in one round trip.
 */
async function onCallInputs(db: DB, tenantId: string, scheduleId: string, range: { from: string; to: string }): Promise<OnCallInputs> {
  const cached = await onCallCacheOf(db)?.read(tenantId, scheduleId, range);
  if (cached) return cached;
  const rows = await repo.loadOnCallRows(db, tenantId, scheduleId, range, true);
  return { schedule: rows.schedule, overrides: rows.overrides, members: rows.members! };
}

export interface UpcomingHandover {
  tenantId: string;
  scheduleId: string;
  scheduleName: string;
  /** When the new primary takes over (epoch milliseconds). */
  at: number;
  primary: string;
}

/**
 * The next change of primary within `horizonMs` of `at` on every current schedule of every tenant, overrides applied
 * (deliberately across tenants: the handover notifier's sweep). Who takes over is as planned; whether they are still
 * a member is for the moment itself (whoIsOnCall).
 */
export async function upcomingHandovers(db: DB, at: Date, horizonMs: number): Promise<UpcomingHandover[]> {
  const t = at.getTime();
  const schedules = await repo.unsafeListCurrentSchedules(db, iso(t - DAY_MS).slice(0, 10));
  const byTenant = new Map<string, typeof schedules>();
  for (const s of schedules) {
    const list = byTenant.get(s.tenant_id);
    if (list) list.push(s);
    else byTenant.set(s.tenant_id, [s]);
  }
  const out: UpcomingHandover[] = [];
  for (const [tenantId, list] of byTenant) {
    const overrides = await repo.listOverrides(db, tenantId, list.map((s) => s.id), { from: iso(t), to: iso(t + horizonMs) });
    for (const s of list) {
      const next = nextHandover(repo.toScheduleSpec(s), overrides.filter((o) => o.schedule_id === s.id).map(repo.toOverrideSpec), t, horizonMs);
      if (next?.primary) out.push({ tenantId, scheduleId: s.id, scheduleName: s.name, at: next.at, primary: next.primary });
    }
  }
  return out;
}

function describeOnCall(row: { id: string; name: string; isDefault: boolean }, spec: ScheduleSpec, overrides: OverrideSpec[], t: number): OnCallNow {
  const r = onCallAt(spec, overrides, t);
  const next = nextHandover(spec, overrides, t, HANDOVER_HORIZON_MS);
  return {
    scheduleId: row.id,
    scheduleName: row.name,
    isDefault: row.isDefault,
    at: iso(t),
    primary: r.primary,
    secondary: r.secondary,
    shiftEndsAt: r.endsAt === null ? null : iso(r.endsAt),
    next: next ? { at: iso(next.at), primary: next.primary, secondary: next.secondary } : null,
  };
}

export async function onCallForSchedule(db: DB, ctx: TenantContext, id: string, at: Date) {
  const t = at.getTime();
  const { schedule, overrides } = await onCallInputs(db, ctx.tenant.id, id, { from: iso(t), to: iso(t + HANDOVER_HORIZON_MS) });
  if (!schedule) throw scheduleNotFound();
  return describeOnCall(schedule, schedule.spec, overrides.map((o) => o.spec), t);
}

/** Every schedule of the tenant: who is on call at `at` and who takes over next. */
export async function onCallForTenant(db: DB, ctx: TenantContext, at: Date) {
  const t = at.getTime();
  const [rows, overrides] = await Promise.all([
    repo.listSchedules(db, ctx.tenant.id),
    repo.listOverrides(db, ctx.tenant.id, null, { from: iso(t), to: iso(t + HANDOVER_HORIZON_MS) }),
  ]);
  const bySchedule = groupOverrides(overrides);
  return { at: iso(t), items: rows.map((row) => describeOnCall({ id: row.id, name: row.name, isDefault: row.is_default === 1 }, repo.toScheduleSpec(row), bySchedule.get(row.id) ?? [], t)) };
}

function groupOverrides(rows: Awaited<ReturnType<typeof repo.listOverrides>>) {
  const map = new Map<string, OverrideSpec[]>();
  for (const o of rows) {
    const list = map.get(o.schedule_id) ?? [];
    list.push(repo.toOverrideSpec(o));
    map.set(o.schedule_id, list);
  }
  return map;
}

/**
 * SCHEDULE_LIMITS.timelineDays from the start of `from`'s day in the schedule's zone: the final schedule (shifts,
 * overrides and gaps) and the rows it is made of (each layer, the weekday template, the overrides).
 */
export async function scheduleTimeline(db: DB, ctx: TenantContext, id: string, from: Date): Promise<Timeline> {
  const row = await loadSchedule(db, ctx.tenant.id, id);
  const start = DateTime.fromJSDate(from, { zone: row.time_zone }).startOf('day');
  const end = start.plus({ days: SCHEDULE_LIMITS.timelineDays });
  const [a, b] = [start.toMillis(), end.toMillis()];
  const overrides = (await repo.listOverrides(db, ctx.tenant.id, [id], { from: iso(a), to: iso(b) })).map(repo.toOverrideSpec);
  const spec = repo.toScheduleSpec(row);
  const t = timeline(spec, overrides, a, b);
  return {
    scheduleId: row.id,
    timeZone: row.time_zone,
    from: iso(a),
    to: iso(b),
    days: Array.from({ length: SCHEDULE_LIMITS.timelineDays }, (_, i) => {
      const d = start.plus({ days: i });
      return { date: d.toISODate()!, label: d.setLocale('en-US').toFormat('ccc, LLL d'), start: iso(d.toMillis()), end: iso(d.plus({ days: 1 }).startOf('day').toMillis()) };
    }),
    segments: t.segments.map((s) => ({
      start: iso(s.start),
      end: iso(s.end),
      primary: s.primary!,
      secondary: s.secondary,
      primaryOverride: s.primaryOverride,
      secondaryOverride: s.secondaryOverride,
    })),
    gaps: t.gaps.map((g) => ({ start: iso(g.start), end: iso(g.end), label: g.label })),
    rows: timelineRows(spec, overrides, a, b).map((r) => ({ ...r, segments: r.segments.map((s) => ({ ...s, start: iso(s.start), end: iso(s.end) })) })),
  };
}

export async function listScheduleOverrides(db: DB, ctx: TenantContext, id: string) {
  await loadSchedule(db, ctx.tenant.id, id);
  // Past overrides are history nobody acts on; the list shows what is in force or still to come.
  return { items: (await repo.listOverrides(db, ctx.tenant.id, [id], { from: now() })).map(repo.toOverride) };
}

export async function createOverride(db: DB, ctx: TenantContext, id: string, input: OverrideInput) {
  await loadSchedule(db, ctx.tenant.id, id);
  if (!canCreateOverride(ctx, input)) throw forbidden(SCHEDULE_MSG.overrideForbidden);
  const members = await repo.activeMemberIds(db, ctx.tenant.id, [input.replacedUserId, input.userId]);
  const fields: Record<string, string> = {};
  if (!members.has(input.replacedUserId)) fields.replacedUserId = SCHEDULE_MSG.notAMember;
  if (!members.has(input.userId)) fields.userId = SCHEDULE_MSG.notAMember;
  if (Object.keys(fields).length) throw new AppError(400, 'validation_failed', SCHEDULE_MSG.notAMember, fields);
  const row = {
    id: randomUUID(),
    tenant_id: ctx.tenant.id,
    schedule_id: id,
    replaced_user_id: input.replacedUserId,
    user_id: input.userId,
    starts_at: input.startsAt,
    ends_at: input.endsAt,
    note: input.note,
    created_by: ctx.user.id,
    created_at: now(),
  };
  await repo.insertOverride(db, row);
  return repo.toOverride(row);
}

export async function deleteOverride(db: DB, ctx: TenantContext, id: string, overrideId: string) {
  const row = await repo.findOverride(db, ctx.tenant.id, id, overrideId);
  if (!row) throw notFound(SCHEDULE_MSG.overrideNotFound);
  if (!canDeleteOverride(ctx, row)) throw forbidden(SCHEDULE_MSG.overrideDeleteForbidden);
  await repo.deleteOverride(db, ctx.tenant.id, id, overrideId);
}

/** Active members of the tenant with an account: who can be put on call. */
export async function listMembersForOnCall(db: DB, ctx: TenantContext) {
  const rows = await listActiveMemberAccounts(db, ctx.tenant.id);
  return { items: rows.map((u) => ({ userId: u.id, displayName: u.display_name || u.email, email: u.email })) };
}

/**
 * The user's stretches on call across the tenant's schedules that are not over by `since`, up to the end of the day
 * `days` after `at`, soonest first. Each schedule is read in whole days of its own zone, so a shift is never cut at
 * the moment of the request (the calendar feed's events keep the same start and UID on every poll).
 */
async function shiftsOf(db: DB, tenantId: string, userId: string, at: number, opts: { since: number; days: number }): Promise<MyShift[]> {
  const to = at + opts.days * DAY_MS;
  const [rows, overrides] = await Promise.all([repo.listSchedules(db, tenantId), repo.listOverrides(db, tenantId, null, { from: iso(opts.since - DAY_MS), to: iso(to + 2 * DAY_MS) })]);
  const bySchedule = groupOverrides(overrides);
  const out: MyShift[] = [];
  for (const row of rows) {
    const from = DateTime.fromMillis(opts.since, { zone: row.time_zone }).startOf('day').toMillis();
    const until = DateTime.fromMillis(to, { zone: row.time_zone }).plus({ days: 1 }).startOf('day').toMillis();
    let prev: MyShift | undefined;
    for (const p of pieces(repo.toScheduleSpec(row), bySchedule.get(row.id) ?? [], from, until)) {
      const role = p.primary === userId ? 'primary' : p.secondary === userId ? 'secondary' : null;
      if (!role) continue;
      const override = role === 'primary' ? p.primaryOverride : p.secondaryOverride;
      // Stretches that only differ in the other person are one shift of mine.
      if (prev && prev.role === role && prev.override === override && prev.end === iso(p.start)) prev.end = iso(p.end);
      else out.push((prev = { scheduleId: row.id, scheduleName: row.name, role, start: iso(p.start), end: iso(p.end), override }));
    }
  }
  return out.filter((s) => Date.parse(s.end) > opts.since).sort((a, b) => a.start.localeCompare(b.start) || a.scheduleName.localeCompare(b.scheduleName));
}

/** "My on-call" of the profile: my shifts of the next 90 days in this tenant and whether my calendar feed is on. */
export async function myOnCall(db: DB, ctx: TenantContext, at: Date) {
  const [shifts, feed] = await Promise.all([
    shiftsOf(db, ctx.tenant.id, ctx.user.id, at.getTime(), { since: at.getTime(), days: SCHEDULE_LIMITS.feedDays }),
    repo.findCalendarFeed(db, ctx.tenant.id, ctx.user.id),
  ]);
  return { shifts, feed: feed ? { createdAt: feed.created_at } : null };
}

const feedUrl = (publicUrl: string, token: string) => `${publicUrl}/api/calendarFeeds/${token}.ics`;

/** Makes (or renews: the old URL stops working) the caller's secret calendar URL for this tenant; shown once. */
export async function createCalendarFeed(db: DB, ctx: TenantContext, publicUrl: string) {
  const { token, hash } = newToken();
  const createdAt = now();
  await db.transaction().execute((trx) => repo.replaceCalendarFeed(trx, { id: randomUUID(), tenant_id: ctx.tenant.id, user_id: ctx.user.id, token_hash: hash, created_at: createdAt }));
  return { url: feedUrl(publicUrl, token), createdAt };
}

export async function revokeCalendarFeed(db: DB, ctx: TenantContext) {
  if (!(await repo.deleteCalendarFeed(db, ctx.tenant.id, ctx.user.id))) throw notFound();
}

/**
 * The .ics text of a secret feed URL (`<token>.ics`), or null (404) when the URL was revoked, renewed or never
 * existed, or its owner is no longer a member of the tenant.
 */
export async function calendarFeedIcs(db: DB, file: string, at: Date): Promise<string | null> {
  const m = /^([A-Za-z0-9_-]{20,100})\.ics$/.exec(file);
  if (!m) return null;
  const feed = await repo.unsafeFindCalendarFeedByHash(db, hashToken(m[1]));
  if (!feed) return null;
  const found = await findTenantForUser(db, feed.tenant_id, feed.user_id);
  if (!found || (!found.memberRole && found.tenant.owner_id !== feed.user_id)) return null;
  // The past week too: a calendar keeps showing the shifts just done.
  const shifts = await shiftsOf(db, feed.tenant_id, feed.user_id, at.getTime(), { since: at.getTime() - 7 * DAY_MS, days: SCHEDULE_LIMITS.feedDays });
  const cal = ical({ name: `On call – ${found.tenant.name}`, prodId: { company: 'Alertdesk', product: 'On-call', language: 'EN' } });
  for (const s of shifts) {
    cal.createEvent({
      id: `${s.scheduleId}-${s.role}-${s.start}@alertdesk`,
      start: new Date(s.start),
      end: new Date(s.end),
      summary: `On call (${s.role}${s.override ? ', override' : ''}): ${s.scheduleName}`,
      description: s.override ? 'You cover for someone through an override.' : null,
    });
  }
  return cal.toString();
}
