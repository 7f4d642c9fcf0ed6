import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Ok, TenantParam } from '../../../contract/common.ts';
import { Heartbeat, HeartbeatInput, HeartbeatList, HeartbeatListQuery, HeartbeatParams, HeartbeatWithPingUrl, HEARTBEAT_LIMITS, PingParams } from '../../../contract/heartbeats.ts';
import { signedIn } from '../../http/session.ts';
import { clip } from '../alerts/ingest/ingest.mappers.ts';
import type { HeartbeatMonitor } from './heartbeat-monitor.ts';
import type { PingKind } from './heartbeat-state.ts';
import * as svc from './heartbeats.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Heartbeat monitors of a tenant under /api/tenants/:tenantId/heartbeats: every member reads them, owners and admins
 * write (the service checks); another tenant's monitor answers 404 like a missing one.
 */
export function registerHeartbeatRoutes(app: FastifyInstance, deps: svc.HeartbeatServiceDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/tenants/:tenantId/heartbeats';
  const one = `${base}/:heartbeatId`;
  const scoped = { onRequest: signedIn, config: { tenantScoped: true } };
  const tags = ['heartbeats'];

  r.get(base, { ...scoped, schema: { tags, params: TenantParam, querystring: HeartbeatListQuery, response: { 200: HeartbeatList, ...errors } } }, async (req) =>
    svc.listTenantHeartbeats(deps, req.tenantContext, req.query),
  );
  r.post(base, { ...scoped, schema: { tags, params: TenantParam, body: HeartbeatInput, response: { 201: HeartbeatWithPingUrl, ...errors } } }, async (req, reply) =>
    reply.code(201).send(await svc.createHeartbeat(deps, req.tenantContext, req.body)),
  );
  r.get(one, { ...scoped, schema: { tags, params: HeartbeatParams, response: { 200: Heartbeat, ...errors } } }, async (req) =>
    svc.getHeartbeat(deps, req.tenantContext, req.params.heartbeatId),
  );
  r.put(one, { ...scoped, schema: { tags, params: HeartbeatParams, body: HeartbeatInput, response: { 200: Heartbeat, ...errors } } }, async (req) =>
    svc.updateHeartbeat(deps, req.tenantContext, req.params.heartbeatId, req.body),
  );
  r.delete(one, { ...scoped, schema: { tags, params: HeartbeatParams, response: { 200: Ok, ...errors } } }, async (req) => {
    await svc.deleteHeartbeat(deps, req.tenantContext, req.params.heartbeatId);
    return { ok: true as const };
  });
  r.post(`${one}/pause`, { ...scoped, schema: { tags, params: HeartbeatParams, response: { 200: Heartbeat, ...errors } } }, async (req) =>
    svc.pauseHeartbeat(deps, req.tenantContext, req.params.heartbeatId),
  );
  r.post(`${one}/resume`, { ...scoped, schema: { tags, params: HeartbeatParams, response: { 200: Heartbeat, ...errors } } }, async (req) =>
    svc.resumeHeartbeat(deps, req.tenantContext, req.params.heartbeatId),
  );
  r.post(`${one}/renew`, { ...scoped, schema: { tags, params: HeartbeatParams, response: { 200: HeartbeatWithPingUrl, ...errors } } }, async (req) =>
    svc.renewPingUrl(deps, req.tenantContext, req.params.heartbeatId),
  );
}

const PING_KINDS: Array<[string, PingKind, string]> = [
  ['', 'success', 'Heartbeat ping: the job ran (healthchecks.io style; GET, HEAD or POST, no session)'],
  ['/start', 'start', 'Heartbeat ping: a run started, and must finish (ping or /fail) within the grace time'],
  ['/fail', 'fail', 'Heartbeat ping: the run failed; the monitor is down at once (a POST body is kept as the output)'],
];

/**
 * The ping URLs, /api/heartbeat/<secret>[/start|/fail]: the secret is the only credential (no cookie is read, no CSRF
 * check applies: app.ts exempts the prefix), every method a scheduler's one-liner may use is taken, and whatever body
 * comes is read as text (curl's --data, PowerShell's -Body) up to HEARTBEAT_LIMITS.pingBodyBytes (413 beyond), NUL
 * characters stripped. In a scope of their own, so no other route accepts bodies that are not JSON.
 */
export async function registerPingRoutes(app: FastifyInstance, monitor: HeartbeatMonitor) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    const r = scope.withTypeProvider<ZodTypeProvider>();
    for (const [suffix, kind, summary] of PING_KINDS) {
      r.route({
        method: ['GET', 'HEAD', 'POST'],
        url: `/api/heartbeat/:token${suffix}`,
        exposeHeadRoute: false,
        bodyLimit: HEARTBEAT_LIMITS.pingBodyBytes,
        config: { bodyGuard: 'ingest' },
        schema: { tags: ['heartbeats'], summary, security: [], params: PingParams, response: { 404: ErrorBody, 413: ErrorBody, 429: ErrorBody } },
        handler: async (req, reply) => {
          const body = typeof req.body === 'string' && req.body.trim() ? clip(req.body.trim(), HEARTBEAT_LIMITS.failOutputChars) : null;
          await monitor.ping(req.params.token, kind, body);
          // healthchecks.io's answer, as text: a shell script may print it; nothing to serialize.
          return (reply as FastifyReply).type('text/plain; charset=utf-8').send(req.method === 'HEAD' ? '' : 'OK');
        },
      });
    }
  });
}
