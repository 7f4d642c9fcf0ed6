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

/** Jobs due at `now` (not yet run, whoever holds them) by kind, with the oldest due time of each kind. */
export async function unsafeDueJobsByKind(db: DB, now: Date) {
  return db
    .selectFrom('jobs')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min('due_at').as('oldest')])
    .where('due_at', '<=', now.toISOString())
    .groupBy('kind')
    .execute();
}

/** Pages recorded (notification_attempts rows) by channel and outcome, over all tenants. */
export async function unsafeCountNotificationAttempts(db: DB) {
  return db
    .selectFrom('notification_attempts')
    .select(['channel', 'outcome', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy(['channel', 'outcome'])
    .execute();
}
