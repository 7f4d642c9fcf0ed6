import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { Transports } from './channel.ts';
import type { Mailer } from './mailer.ts';
import { createNotifier, type Notifier } from './notifier.ts';
import { createTransports } from './transports.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: { notifier: Notifier; transports: Transports };
  }
}

export interface NotificationsOptions {
  db: DB;
  config: Config;
  mailer: Mailer;
  /** Tests: local stand-ins of the providers. */
  transports?: Transports;
}

/** The notifier every sender uses (`app.notifications.notifier`), over the configured providers. */
async function notifications(app: FastifyInstance, opts: NotificationsOptions) {
  const transports = opts.transports ?? createTransports(opts.config, opts.config.vapid!, opts.mailer);
  app.decorate('notifications', { notifier: createNotifier({ db: opts.db, transports }), transports });
}

export const notificationsPlugin = fp(notifications, { name: 'notifications' });
