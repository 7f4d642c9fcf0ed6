import type { DB } from '../db/database.ts';

// Scrape-time counts over every tenant (deliberately unscoped, hence `unsafe…`): metrics carry no tenant labels.

/** Open alerts (new, acknowledged, in progress) by priority, over all tenants: one grouped query. */
export async function unsafeCountOpenAlertsByPriority(db: DB) {
  return db
    .selectFrom('alerts')
    .select(['priority', (eb) => eb.fn.countAll<number>().as('count')])
    .where('status', 'in', ['new', 'acknowledged', 'in_progress'])
    .groupBy('priority')
    .execute();
}

/**
 * Timed work due at `now` and not yet done, by kind, with the oldest due time of each kind: the jobs table, and the
 * escalation work kept on the alerts themselves: alerts whose escalation has not started
 * (`escalation.start`, due when created), whose next level is due (`escalation.step`) and whose overdue check is due
 * (`escalation.overdue`), each through its partial index. Counted together with jobs of the same kind scheduled
 * before those columns existed.
 */
export async function unsafeDueJobsByKind(db: DB, now: Date) {
  const at = now.toISOString();
  const dueBy = (column: 'next_step_at' | 'overdue_check_at') =>
    db
      .selectFrom('alerts')
      .select([(eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min(column).as('oldest')])
      .where(column, 'is not', null)
      .where(column, '<=', at)
      .executeTakeFirst();
  const [jobs, start, step, overdue] = await Promise.all([
    db
      .selectFrom('jobs')
      .select(['kind', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min('due_at').as('oldest')])
      .where('due_at', '<=', at)
      .groupBy('kind')
      .execute(),
    db
      .selectFrom('alerts')
      .select([(eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min('created_at').as('oldest')])
      .where('escalation_state', '=', 'pending')
      .executeTakeFirst(),
    dueBy('next_step_at'),
    dueBy('overdue_check_at'),
  ]);
  const byKind = new Map<string, { kind: string; count: number; oldest: string | null }>();
  const add = (kind: string, count: unknown, oldest: unknown) => {
    const n = Number(count ?? 0);
    if (!n) return;
    const o = oldest == null ? null : String(oldest);
    const seen = byKind.get(kind);
    if (!seen) byKind.set(kind, { kind, count: n, oldest: o });
    else byKind.set(kind, { kind, count: seen.count + n, oldest: seen.oldest && o ? (seen.oldest < o ? seen.oldest : o) : (seen.oldest ?? o) });
  };
  for (const j of jobs) add(j.kind, j.count, j.oldest);
  add('escalation.start', start?.count, start?.oldest);
  add('escalation.step', step?.count, step?.oldest);
  add('escalation.overdue', overdue?.count, overdue?.oldest);
  return [...byKind.values()];
}

/** Pages recorded (notification_attempts rows) by channel and outcome, over all tenants. */
export async function unsafeCountNotificationAttempts(db: DB) {
  return db
    .selectFrom('notification_attempts')
    .select(['channel', 'outcome', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy(['channel', 'outcome'])
    .execute();
}
