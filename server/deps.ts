import type { Config } from './config.ts';
import type { DB, Dialect } from './db/database.ts';
import type { Mailer } from './notifications/mailer.ts';
import type { AlertBus } from './events/alert-bus.ts';

/**
 * What route modules need from the running server; built once in buildApp. Long-lived runtimes with a lifecycle of
 * their own (the alert runtime: key cache, ingestion, live streams) are plugins decorating the app (`app.alerts`).
 */
export interface Deps {
  db: DB;
  dialect: Dialect;
  config: Config;
  mailer: Mailer;
  /** Alert changes, cache invalidations and access revocations, to every instance. */
  bus: AlertBus;
}
