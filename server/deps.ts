import type { Config } from './config.ts';
import type { DB, Dialect } from './db/database.ts';
import type { Mailer } from './modules/mail/mailer.ts';

/** What route modules need from the running server; built once in buildApp. */
export interface Deps {
  db: DB;
  dialect: Dialect;
  config: Config;
  mailer: Mailer;
}
