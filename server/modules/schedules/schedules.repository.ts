import { sql, type Insertable, type Updateable } from 'kysely';
import { minutesOf, WEEKDAY_KEYS, type Layer, type Override, type Rotations, type Schedule, type ScheduleInput } from '../../../contract/schedules.ts';
import type { DB } from '../../db/database.ts';
import { namedTenantRow, parseJson } from '../../db/database.ts';
import type { CalendarFeedsTable, OncallOverridesTable, OncallSchedulesTable } from '../../db/schema.ts';
import type { OverrideSpec, ScheduleSpec } from './oncall.ts';
import type { LayerSpec } from './layers.ts';

/**
 * The stored end date of a schedule without an end (issue 27: `endTime` null). end_date stays a NOT NULL date on both
 * databases (SQLite cannot relax the column in place): the last calendar date, so "still covering" comparisons and
 * the who-is-on-call arithmetic hold unchanged; the contract shows it as null.
 */
export const NO_END_DATE = '9999-12-31';

/** The columns a person edits. */
export function scheduleColumns(input: ScheduleInput) {
  return {
    name: input.name,
    description: input.description,
    is_default: input.isDefault ? 1 : 0,
    start_date: input.startTime,
    end_date: input.endTime ?? NO_END_DATE,
    time_zone: input.timeZone,
    rotations: JSON.stringify(input.rotations),
    layers: JSON.stringify(input.layers),
  } satisfies Updateable<OncallSchedulesTable>;
}

function layersOf(row: Pick<OncallSchedulesTable, 'layers'>): Layer[] {
  return parseJson<Layer[]>(row.layers ?? '[]', []);
}

/** Stored layers as the who-is-on-call computation takes them (a layer of unparseable times is left out). */
function layerSpecs(layers: readonly Layer[]): LayerSpec[] {
  return layers
    .map((l) => ({
      name: l.name,
      participants: l.participants,
      start: Date.parse(l.start),
      unit: l.shiftLength.unit,
      count: l.shiftLength.count,
      restrictions: l.restrictions.map((r) => ({ days: r.days, from: minutesOf(r.from), to: minutesOf(r.to) })),
    }))
    .filter((l) => Number.isFinite(l.start) && l.count > 0);
}

function rotationsOf(row: Pick<OncallSchedulesTable, 'rotations'>): Rotations {
  const raw = parseJson<Partial<Rotations>>(row.rotations, {});
  return Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, raw[k] ?? []])) as Rotations;
}

export function toSchedule(row: OncallSchedulesTable): Schedule {
  return {
    ...namedTenantRow(row),
    startTime: row.start_date,
    endTime: row.end_date === NO_END_DATE ? null : row.end_date,
    timeZone: row.time_zone,
    rotations: rotationsOf(row),
    layers: layersOf(row),
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What the who-is-on-call computation needs of a row. */
export const toScheduleSpec = (row: OncallSchedulesTable): ScheduleSpec => ({
  timeZone: row.time_zone,
  startDate: row.start_date,
  endDate: row.end_date,
  rotations: rotationsOf(row),
  layers: layerSpecs(layersOf(row)),
});

export function toOverride(row: OncallOverridesTable): Override {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    replacedUserId: row.replaced_user_id,
    userId: row.user_id,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    note: row.note,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

export const toOverrideSpec = (row: Pick<OncallOverridesTable, 'replaced_user_id' | 'user_id' | 'starts_at' | 'ends_at' | 'created_at'>): OverrideSpec => ({
  replacedUserId: row.replaced_user_id,
  userId: row.user_id,
  startsAt: Date.parse(row.starts_at),
  endsAt: Date.parse(row.ends_at),
  createdAt: row.created_at,
});

/** The tenant's schedules, the default first, then by name. */
export async function listSchedules(db: DB, tenantId: string): Promise<OncallSchedulesTable[]> {
  return db.selectFrom('oncall_schedules').selectAll().where('tenant_id', '=', tenantId).orderBy('is_default', 'desc').orderBy('name').orderBy('id').execute();
}

export async function findSchedule(db: DB, tenantId: string, id: string): Promise<OncallSchedulesTable | undefined> {
  return db.selectFrom('oncall_schedules').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function insertSchedule(db: DB, row: Insertable<OncallSchedulesTable>): Promise<void> {
  await db.insertInto('oncall_schedules').values(row).execute();
}

/** False when the tenant has no such schedule. */
export async function updateSchedule(db: DB, tenantId: string, id: string, values: Updateable<OncallSchedulesTable>): Promise<boolean> {
  const r = await db.updateTable('oncall_schedules').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Clears the default flag on the tenant's schedules (spec section 4: saving a new default clears the old one). */
export async function clearDefaultSchedule(db: DB, tenantId: string): Promise<void> {
  await db.updateTable('oncall_schedules').set({ is_default: 0 }).where('tenant_id', '=', tenantId).where('is_default', '=', 1).execute();
}

/** False when the tenant has no such schedule; its overrides go with it (on delete cascade). */
export async function deleteSchedule(db: DB, tenantId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('oncall_schedules').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A schedule as who-is-on-call reads it: what its card shows and what the computation takes, parsed once. */
export interface OnCallSchedule {
  id: string;
  name: string;
  isDefault: boolean;
  spec: ScheduleSpec;
}

/** An override with its stored times, so a range can be applied to it exactly as the database compares them. */
export interface OnCallOverride {
  id: string;
  starts_at: string;
  ends_at: string;
  spec: OverrideSpec;
}

/** The overrides of a list that overlap [from, to), compared as the database compares the stored text. */
export const overlapping = (list: readonly OnCallOverride[], range: { from: string; to: string }) =>
  list.filter((o) => o.ends_at > range.from && o.starts_at < range.to);

/**
 * Everything "who is on call" needs, in one round trip: the schedule (only the columns it needs), its overrides
 * overlapping [from, to) by start, creation and id (listOverrides' order), and, when asked, the tenant's active
 * members (a plan holds at most a few dozen). A null schedule when the tenant has no such schedule.
 */
export async function loadOnCallRows(db: DB, tenantId: string, scheduleId: string, range: { from: string; to: string }, withMembers: boolean) {
  const text = (v: string | null) => (v === null ? sql<string | null>`null` : sql<string | null>`${v}`);
  const col = (name: string) => sql<string | null>`${sql.ref(name)}`;
  let q = db
    .selectFrom('oncall_schedules')
    .select([
      text('s').as('kind'),
      col('id').as('a'),
      col('name').as('b'),
      sql<string | null>`cast(${sql.ref('is_default')} as text)`.as('c'),
      col('time_zone').as('d'),
      col('start_date').as('e'),
      col('end_date').as('f'),
      col('rotations').as('g'),
      col('layers').as('h'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', scheduleId)
    .unionAll(
      db
        .selectFrom('oncall_overrides')
        .select([
          text('o').as('kind'),
          col('id').as('a'),
          col('replaced_user_id').as('b'),
          col('user_id').as('c'),
          col('starts_at').as('d'),
          col('ends_at').as('e'),
          col('created_at').as('f'),
          text(null).as('g'),
          text(null).as('h'),
        ])
        .where('tenant_id', '=', tenantId)
        .where('schedule_id', '=', scheduleId)
        .where('ends_at', '>', range.from)
        .where('starts_at', '<', range.to),
    );
  if (withMembers) {
    q = q.unionAll(
      db
        .selectFrom('tenant_members')
        .select([text('m').as('kind'), col('user_id').as('a'), ...(['b', 'c', 'd', 'e', 'f', 'g', 'h'] as const).map((k) => text(null).as(k))])
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'active')
        .where('user_id', 'is not', null),
    );
  }
  const rows = await q.execute();
  const s = rows.find((r) => r.kind === 's');
  const schedule: OnCallSchedule | null = s
    ? {
        id: s.a!,
        name: s.b!,
        isDefault: s.c === '1',
        spec: { timeZone: s.d!, startDate: s.e!, endDate: s.f!, rotations: rotationsOf({ rotations: s.g! }), layers: layerSpecs(layersOf({ layers: s.h ?? '[]' })) },
      }
    : null;
  const overrides: OnCallOverride[] = rows
    .filter((r) => r.kind === 'o')
    .map((r) => ({ id: r.a!, starts_at: r.d!, ends_at: r.e!, spec: toOverrideSpec({ replaced_user_id: r.b!, user_id: r.c!, starts_at: r.d!, ends_at: r.e!, created_at: r.f! }) }))
    // The order listOverrides reads them in (a union has none of its own): the resolver breaks ties by it.
    .sort((x, y) => cmp(x.starts_at, y.starts_at) || cmp(x.spec.createdAt, y.spec.createdAt) || cmp(x.id, y.id));
  const members = withMembers ? new Set(rows.filter((r) => r.kind === 'm').map((r) => r.a!)) : null;
  return { schedule, overrides, members };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every tenant's schedules still covering `fromDate` or later (deliberately unscoped: the worker that tells people
 * their shift starts looks at all of them).
 */
export async function unsafeListCurrentSchedules(db: DB, fromDate: string) {
  return db.selectFrom('oncall_schedules').selectAll().where('end_date', '>=', fromDate).orderBy('tenant_id').execute();
}

/** Overrides of the tenant's schedules (one, or all when scheduleIds is null) that overlap [from, to). */
export async function listOverrides(db: DB, tenantId: string, scheduleIds: string[] | null, range: { from?: string; to?: string } = {}) {
  if (scheduleIds && scheduleIds.length === 0) return [];
  let q = db.selectFrom('oncall_overrides').selectAll().where('tenant_id', '=', tenantId);
  if (scheduleIds) q = q.where('schedule_id', 'in', scheduleIds);
  if (range.from) q = q.where('ends_at', '>', range.from);
  if (range.to) q = q.where('starts_at', '<', range.to);
  return q.orderBy('starts_at').orderBy('created_at').orderBy('id').execute();
}

export async function findOverride(db: DB, tenantId: string, scheduleId: string, id: string) {
  return db.selectFrom('oncall_overrides').selectAll().where('tenant_id', '=', tenantId).where('schedule_id', '=', scheduleId).where('id', '=', id).executeTakeFirst();
}

export async function insertOverride(db: DB, row: Insertable<OncallOverridesTable>): Promise<void> {
  await db.insertInto('oncall_overrides').values(row).execute();
}

export async function deleteOverride(db: DB, tenantId: string, scheduleId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('oncall_overrides').where('tenant_id', '=', tenantId).where('schedule_id', '=', scheduleId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Which of the given user ids are active members of the tenant. */
export async function activeMemberIds(db: DB, tenantId: string, userIds: string[]): Promise<Set<string>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Set();
  const rows = await db.selectFrom('tenant_members').select('user_id').where('tenant_id', '=', tenantId).where('status', '=', 'active').where('user_id', 'in', unique).execute();
  return new Set(rows.map((r) => r.user_id).filter((id): id is string => !!id));
}

export async function findCalendarFeed(db: DB, tenantId: string, userId: string) {
  return db.selectFrom('calendar_feeds').selectAll().where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
}

/** Replaces the person's feed of the tenant (the old URL stops working) inside the caller's transaction. */
export async function replaceCalendarFeed(trx: DB, row: CalendarFeedsTable): Promise<void> {
  await trx.deleteFrom('calendar_feeds').where('tenant_id', '=', row.tenant_id).where('user_id', '=', row.user_id).execute();
  await trx.insertInto('calendar_feeds').values(row).execute();
}

export async function deleteCalendarFeed(db: DB, tenantId: string, userId: string): Promise<boolean> {
  const r = await db.deleteFrom('calendar_feeds').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The feed a secret URL names (deliberately unscoped: the URL is all a calendar app sends). */
export async function unsafeFindCalendarFeedByHash(db: DB, tokenHash: string) {
  return db.selectFrom('calendar_feeds').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}
