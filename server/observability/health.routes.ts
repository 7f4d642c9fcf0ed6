import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pendingMigrations, ping } from '../db/database.ts';
import type { Deps } from '../deps.ts';

const Live = z.object({ status: z.literal('ok') });
const Ready = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({
    database: z.enum(['ok', 'failed']),
    /** `unknown` while the database cannot be read. */
    migrations: z.enum(['ok', 'pending', 'unknown']),
    /** `disabled`: JOB_WORKER=false, another instance runs the jobs; that counts as ready. */
    jobWorker: z.enum(['ok', 'stopped', 'disabled']),
  }),
});

/**
 * Probes for orchestrators and load balancers. Live: the process answers (no database involved, so an outage does not
 * get it restarted). Ready: the database answers, every migration has run, and this instance's job worker runs.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/health/live', { schema: { tags: ['health'], security: [], response: { 200: Live } } }, async () => ({ status: 'ok' as const }));

  r.get('/api/health/ready', { schema: { tags: ['health'], security: [], response: { 200: Ready, 503: Ready } } }, async (_req, reply) => {
    const database = (await ping(deps.db)) ? ('ok' as const) : ('failed' as const);
    const pending = database === 'ok' ? await pendingMigrations(deps.db, deps.dialect === 'postgres' ? deps.config.databaseSchema : null).catch(() => null) : null;
    const migrations = pending === null ? ('unknown' as const) : pending === 0 ? ('ok' as const) : ('pending' as const);
    const jobWorker = !deps.config.jobWorker ? ('disabled' as const) : app.jobs.worker.isRunning ? ('ok' as const) : ('stopped' as const);
    const ready = database === 'ok' && migrations === 'ok' && jobWorker !== 'stopped';
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks: { database, migrations, jobWorker } });
  });
}
