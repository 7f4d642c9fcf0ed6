import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import webpush from 'web-push';
import type { Deps } from '../../deps.ts';
import type { DB } from '../../db/database.ts';
import { JobWorker, systemClock, type Clock } from '../../jobs/job-worker.ts';
import { createEscalationEngine } from './escalation-engine.ts';
import { createHandoverNotifier, HANDOVER_JOB } from './handover.ts';
import { findServerKey, saveServerKey } from './paging.repository.ts';
import { createTransports, type Transports } from './transports.ts';

/** What the paging runtime shares as `app.paging` (tests drive the worker by hand with a moved clock). */
export interface PagingRuntime {
  worker: JobWorker;
  engine: ReturnType<typeof createEscalationEngine>;
  transports: Transports;
  /** The time the worker runs on (tests move it); modules scheduling jobs read time here too. */
  clock: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    paging: PagingRuntime;
  }
}

export interface PagingOptions {
  deps: Deps;
  /** Tests: a clock they move, and transports pointed at local fakes. */
  clock?: Clock;
  transports?: Transports;
}

/** VAPID keys from the environment, else the pair this server generated at first start (any instance), kept in server_keys. */
export async function resolveVapid(db: DB, configured: Deps['config']['vapid'], subject: string) {
  if (configured) return configured;
  const stored = await findServerKey(db, 'vapid');
  if (stored) return { ...(JSON.parse(stored) as { publicKey: string; privateKey: string }), subject };
  const fresh = webpush.generateVAPIDKeys();
  const kept = JSON.parse(await saveServerKey(db, 'vapid', JSON.stringify(fresh), new Date().toISOString())) as { publicKey: string; privateKey: string };
  return { ...kept, subject };
}

/**
 * The paging runtime, one plugin with its lifecycle: the transports, the escalation engine and this instance's job
 * worker, started when the server is ready (unless JOB_WORKER=false) and stopped before it closes.
 */
async function paging(app: FastifyInstance, opts: PagingOptions) {
  const { deps } = opts;
  const transports = opts.transports ?? createTransports(deps.config, deps.config.vapid!, deps.mailer);
  const engine = createEscalationEngine({ db: deps.db, dialect: deps.dialect, transports, publicUrl: () => deps.config.publicUrl, bus: deps.bus, log: app.log });
  const handover = createHandoverNotifier({ db: deps.db, transports, publicUrl: () => deps.config.publicUrl, log: app.log });
  const clock = opts.clock ?? systemClock;
  const worker = new JobWorker({
    db: deps.db,
    dialect: deps.dialect,
    clock,
    handlers: { ...engine.handlers, [HANDOVER_JOB]: handover.handler },
    batchHandlers: { ...engine.batchHandlers },
    sweeps: [engine.startPending, engine.checkSteps, engine.checkOverdue, handover.sweep],
    log: app.log,
    pollMs: 500,
  });
  app.decorate('paging', { worker, engine, transports, clock } satisfies PagingRuntime);
  if (deps.config.jobWorker) app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
}

export const pagingPlugin = fp(paging, { name: 'paging' });
