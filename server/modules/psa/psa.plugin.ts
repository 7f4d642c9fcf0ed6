import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { ACTION_JOB, alertListener, runActionBatch } from './psa-tickets.ts';
import { autotaskPollSweep, pollConnection, POLL_JOB } from './psa-inbound.ts';
import { connectionCache, type PsaDeps } from './psa-runtime.ts';
import { registerPsaRoutes } from './psa.routes.ts';
import { registerInbound, REGISTER_JOB } from './psa.service.ts';

/**
 * PSA connections (issue 30): tickets in ConnectWise PSA, Autotask and HaloPSA. Alert changes heard on the bus are planned as
 * actions (one row per alert and call, written before the call); each is a durable job (`psa.action`) retried with
 * the worker's backoff; the PSAs tell us of closed tickets at a signed URL.
 */
async function psa(app: FastifyInstance, deps: Deps) {
  const psaDeps: PsaDeps = {
    db: deps.db,
    bus: deps.bus,
    jobs: app.jobs,
    outbound: { allowPrivate: deps.config.outbound.allowPrivate, allowed: deps.config.outbound.allowCidrs },
    // Read when used: a server listening on a port chosen at start learns its address afterwards.
    get publicUrl() {
      return deps.config.publicUrl;
    },
    connections: connectionCache(deps.db),
    autotaskZoneLookupUrl: deps.config.psa.autotaskZoneLookupUrl,
  };
  deps.bus.onAlertChange(alertListener(psaDeps, app.log));
  app.jobs.handleBatch(ACTION_JOB, (items) => runActionBatch(psaDeps, items));
  app.jobs.handle(REGISTER_JOB, async (job, ctx) => {
    const { connectionId } = ctx.payload as { connectionId: string };
    if (job.tenant_id) await registerInbound(psaDeps, job.tenant_id, connectionId, ctx.finalAttempt);
  });
  app.jobs.sweep(autotaskPollSweep(psaDeps, app.log));
  app.jobs.handle(POLL_JOB, async (job, ctx) => {
    const { connectionId } = ctx.payload as { connectionId: string };
    if (job.tenant_id) await pollConnection(psaDeps, job.tenant_id, connectionId);
  });
  registerPsaRoutes(app, psaDeps);
}

export const psaPlugin = fp(psa, { name: 'psa', dependencies: ['jobs', 'alert-runtime'] });
