import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { IntegrationKeyCache } from '../integrations/integration-keys.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { AlertStreams } from './alert-stream.ts';
import { IngestService } from './ingest/ingest.service.ts';

/** What the alert module shares with the rest of the server (routes, tests, benchmarks) as `app.alerts`. */
export interface AlertRuntime {
  /** The same bus as `deps.bus`: alert changes, key invalidations and access revocations to every instance. */
  bus: AlertBus;
  /** Integration keys by hash; an invalidation on the bus (from any instance) evicts them. */
  keys: IntegrationKeyCache;
  ingest: IngestService;
  streams: AlertStreams;
}

declare module 'fastify' {
  interface FastifyInstance {
    alerts: AlertRuntime;
  }
}

/**
 * The alert runtime, one server plugin with its whole lifecycle here. app.ts registers it before the routes that
 * use it (ingestion, integrations, alerts):
 * - on register: the key cache (listening to the bus for evictions), ingestion and the live streams, as `app.alerts`;
 * - preClose: ends the open event streams, which never end by themselves and would keep `app.close()` waiting.
 * The bus is not its own: it is on Deps for every module (sign-out, member removal… revoke streams through it), and
 * app.ts closes it after the server, with the database.
 */
async function alertRuntime(app: FastifyInstance, deps: Deps) {
  const { db, bus, dialect } = deps;
  const keys = new IntegrationKeyCache(db);
  bus.onInvalidateIntegrations((ids) => keys.evict(ids));
  const ingest = new IngestService(db, bus, dialect);
  const streams = new AlertStreams(db, bus);
  app.decorate('alerts', { bus, keys, ingest, streams } satisfies AlertRuntime);
  app.addHook('preClose', async () => streams.closeAll());
}

export const alertRuntimePlugin = fp(alertRuntime, { name: 'alert-runtime', fastify: '5.x' });
