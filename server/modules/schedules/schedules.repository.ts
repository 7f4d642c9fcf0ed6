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

/**
 * Everything "who is on call" needs, in one round trip: the schedule, its overrides overlapping [from, to), and the
 * tenant's active members (a plan holds at most a few dozen). Undefined when the tenant has no such schedule.
 */
export async function loadOnCallInputs(db: DB, tenantId: string, scheduleId: string, range: { from: string; to: string }) {
  const text = (v: string | null) => (v === null ? sql<string | null>`null` : sql<string | null>`${v}`);
  const rows = await db
    .selectFrom('oncall_schedules')
    .select((eb) => [
      text('s').as('kind'),
      eb.ref('time_zone').$castTo<string | null>().as('a'),
      eb.ref('start_date').$castTo<string | null>().as('b'),
      eb.ref('end_date').$castTo<string | null>().as('c'),
      eb.ref('rotations').$castTo<string | null>().as('d'),
      eb.ref('layers').$castTo<string | null>().as('e'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', scheduleId)
    .unionAll(
      db
        .selectFrom('oncall_overrides')
        .select((eb) => [
          text('o').as('kind'),
          eb.ref('replaced_user_id').$castTo<string | null>().as('a'),
          eb.ref('user_id').$castTo<string | null>().as('b'),
          eb.ref('starts_at').$castTo<string | null>().as('c'),
          eb.ref('ends_at').$castTo<string | null>().as('d'),
          eb.ref('created_at').$castTo<string | null>().as('e'),
        ])
        .where('tenant_id', '=', tenantId)
        .where('schedule_id', '=', scheduleId)
        .where('ends_at', '>', range.from)
        .where('starts_at', '<', range.to),
    )
    .unionAll(
      db
        .selectFrom('tenant_members')
        .select([text('m').as('kind'), 'user_id as a', text(null).as('b'), text(null).as('c'), text(null).as('d'), text(null).as('e')])
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'active')
        .where('user_id', 'is not', null),
    )
    .execute();
  const schedule = rows.find((r) => r.kind === 's');
  if (!schedule) return undefined;
  const spec: ScheduleSpec = {
    timeZone: schedule.a!,
    startDate: schedule.b!,
    endDate: schedule.c!,
    rotations: rotationsOf({ rotations: schedule.d! }),
    layers: layerSpecs(layersOf({ layers: schedule.e ?? '[]' })),
  };
  const overrides = rows
    .filter((r) => r.kind === 'o')
    .map((r) => toOverrideSpec({ replaced_user_id: r.a!, user_id: r.b!, starts_at: r.c!, ends_at: r.d!, created_at: r.e! }))
    // By start, then creation: the order the resolver breaks ties in (a union has none of its own).
    .sort((x, y) => x.startsAt - y.startsAt || x.createdAt.localeCompare(y.createdAt));
  const members = new Set(rows.filter((r) => r.kind === 'm').map((r) => r.a!));
  return { spec, overrides, members };
}

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
