import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler } from 'fastify-type-provider-zod';
import { contractSerializerCompiler } from './http/serializer.ts';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import { migrate, openDatabase, ping, type DatabaseHandle } from './db/database.ts';
import type { Deps } from './deps.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerBodyGuard } from './http/body-guard.ts';
import { requestSerializer } from './http/log-redaction.ts';
import { registerSecurity } from './http/security.ts';
import { registerSession } from './http/session.ts';
import { registerTenantContext } from './http/tenant-context.ts';
import { viewPreloader } from './http/view-preload.ts';
import { createMailer, type Mailer } from './notifications/mailer.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { sessionLookup } from './modules/auth/sessions.service.ts';
import { loadTenantContext } from './modules/tenants/tenants.service.ts';
import { seedDefaultPlans } from './modules/pricing/pricing.service.ts';
import { ensureSuperAdmin } from './modules/users/admin.service.ts';
import { registerClientRoutes } from './modules/clients/clients.routes.ts';
import { registerPricingRoutes } from './modules/pricing/pricing.routes.ts';
import { registerSystemRoutes } from './modules/system/system.routes.ts';
import { registerMemberRoutes } from './modules/members/members.routes.ts';
import { registerProfileRoutes } from './modules/profile/profile.routes.ts';
import { registerAlertRoutes } from './modules/alerts/alerts.routes.ts';
import { createAlertBus } from './events/alert-bus.ts';
import { alertRuntimePlugin } from './modules/alerts/alert-runtime.plugin.ts';
import { registerIngestRoutes } from './modules/alerts/ingest/ingest.routes.ts';
import { registerIntegrationRoutes } from './modules/integrations/integrations.routes.ts';
import type { Clock } from './jobs/job-worker.ts';
import { pagingPlugin } from './modules/paging/paging.plugin.ts';
import { jobsPlugin } from './jobs/jobs.plugin.ts';
import { notificationsPlugin } from './notifications/notifications.plugin.ts';
import { resolveVapid } from './notifications/channels/push.ts';
import { approvalsPlugin } from './modules/approvals/approvals.plugin.ts';
import { registerPagingRoutes } from './modules/paging/paging.routes.ts';
import type { Transports } from './notifications/channel.ts';
import { registerEscalationPolicyRoutes } from './modules/escalation/escalation-policies.routes.ts';
import { registerScheduleRoutes } from './modules/schedules/schedules.routes.ts';
import { observabilityPlugin } from './observability/observability.plugin.ts';
import { heartbeatsPlugin } from './modules/heartbeats/heartbeats.plugin.ts';
import { inboundMailPlugin } from './modules/inbound-mail/inbound-mail.plugin.ts';
import { registerReportRoutes } from './modules/reports/reports.routes.ts';
import { maintenancePlugin } from './modules/maintenance/maintenance.plugin.ts';
import { apiTokensPlugin } from './modules/api-tokens/api-tokens.plugin.ts';
import { destinationsPlugin } from './modules/destinations/destinations.plugin.ts';
import { digestPlugin } from './modules/digest/digest.plugin.ts';
import { psaPlugin } from './modules/psa/psa.plugin.ts';

export interface BuiltApp {
  app: FastifyInstance;
  deps: Deps;
}

/**
 * The whole server, without listening: opens and migrates the database, seeds the plans, registers every route.
 * Tests call it with their own config and use `app.inject`.
 */
export async function buildApp(
  config: Config,
  /** `logger`: false for none; `{ stream }` writes the log lines there (tests read them) instead of stdout. */
  opts: {
    mailer?: Mailer;
    logger?: boolean | { stream: { write(line: string): void } };
    /** Tests: the escalation engine's clock and delivery transports (local fakes of the providers). */
    clock?: Clock;
    transports?: Transports;
    /** Tests: the job worker's longest sleep between passes (default 500 ms). */
    pollMs?: number;
  } = {},
): Promise<BuiltApp> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            // Secrets in URLs (integration keys, invitation and reset tokens) are logged as [redacted].
            serializers: { req: requestSerializer },
            redact: ['req.headers.cookie', 'req.headers.authorization'],
            ...(typeof opts.logger === 'object' ? { stream: opts.logger.stream } : {}),
          },
    trustProxy: config.trustProxy,
    // Unique across instances and restarts: the id on every log line, in x-request-id and in error reports.
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(contractSerializerCompiler);
  // JSON only: any other body type answers 415.
  app.removeContentTypeParser(['text/plain']);

  const onConnectionError = (err: Error) => app.log.warn({ err }, 'lost a database connection; it is replaced on next use');
  let handle: DatabaseHandle;
  const searchPath = config.databaseSchema ?? undefined;
  if (/^postgres/.test(config.databaseUrl)) {
    // The schema, then the migrations (an index over a million alerts may take longer than any request may), on a
    // connection of their own without the statement timeout. A search_path naming a schema not there yet is allowed.
    const migrating = openDatabase(config.databaseUrl, { poolSize: 1, searchPath, onConnectionError });
    try {
      if (config.databaseSchema) await sql`create schema if not exists ${sql.id(config.databaseSchema)}`.execute(migrating.db);
      await migrate(migrating.db, config.databaseSchema);
    } finally {
      await migrating.close();
    }
    handle = openDatabase(config.databaseUrl, { searchPath, onConnectionError, timeoutMs: config.databaseTimeoutMs });
  } else {
    handle = openDatabase(config.databaseUrl, { onConnectionError });
    await migrate(handle.db, null);
  }
  await seedDefaultPlans(handle.db);
  if (await ensureSuperAdmin(handle.db, config.admin)) app.log.info(`created super admin ${config.admin?.email}`);
  // Web push works out of the box: without VAPID_* the keys generated at first start are used.
  config = { ...config, vapid: await resolveVapid(handle.db, config.vapid, config.vapidSubject) };

  const deps: Deps = {
    db: handle.db,
    dialect: handle.dialect,
    config,
    mailer: opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log, production: config.production, connections: config.pageSendsInFlight }),
    bus: createAlertBus({ db: handle.db, dialect: handle.dialect, databaseUrl: config.databaseUrl, schema: config.databaseSchema, log: app.log }),
  };
  app.addHook('onClose', async () => handle.close());
  app.addHook('onClose', async () => deps.bus.close());
  app.addHook('onClose', async () => deps.mailer.close?.());

  registerErrorHandling(app);
  await app.register(observabilityPlugin, { deps, pool: handle.pool });
  // JSON answers above 1 KiB go out brotli- or gzip-compressed when the client accepts it; live streams and
  // attachment downloads opt out per route (`compress: false`), built assets are compressed at build time.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(cookie);
  registerSecurity(app, {
    publicUrl: config.publicUrl,
    csrfExempt: (url) => url.startsWith('/v2/') || url.startsWith('/api/ingest/') || url.startsWith('/api/heartbeat/') || url.startsWith('/api/digest/off/') || url === '/api/slack/interactions',
    // The browser reports only in production mode (as /api/config says), so only then is its service allowed.
    webDsn: config.production ? config.sentry.webDsn : null,
  });
  // The session and tenant hooks are infrastructure: the auth and tenants modules give them their look-ups.
  registerSession(app, sessionLookup(deps.db));
  registerTenantContext(app, (user, tenantId, standing) => loadTenantContext(deps.db, user, tenantId, standing));
  registerBodyGuard(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Alertdesk API', version: '1.0.0', description: 'Multi-tenant alert management for MSPs' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'alertdesk_session' },
          // Issue 29: `Authorization: Bearer adk_…` on a tenant's routes (/api/tenants/{tenantId}/…) with the token's role.
          apiToken: { type: 'http', scheme: 'bearer', bearerFormat: 'adk_…', description: "An organization's API token: read (GET only) or write; tenant routes only, never members, API tokens, destinations, profile, account or system routes." },
        },
      },
      security: [{ session: [] }, { apiToken: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.get('/api/health', { schema: { hide: true } }, async (_req, reply) =>
    (await ping(deps.db)) ? { status: 'ok' } : reply.code(503).send({ status: 'unavailable' }),
  );

  // Runtimes: plugins that own long-lived state and its lifecycle (hooks in their file), before the routes using them.
  await app.register(alertRuntimePlugin, deps);
  await app.register(jobsPlugin, { db: deps.db, dialect: deps.dialect, start: config.jobWorker, clock: opts.clock, pollMs: opts.pollMs });
  await app.register(notificationsPlugin, { db: deps.db, config, mailer: deps.mailer, transports: opts.transports });

  registerAuthRoutes(app, deps);
  registerPricingRoutes(app, deps);
  registerSystemRoutes(app, deps);
  registerMemberRoutes(app, deps);
  registerProfileRoutes(app, deps);
  registerClientRoutes(app, deps);
  registerIngestRoutes(app, deps);
  registerIntegrationRoutes(app, deps);
  registerAlertRoutes(app, deps);
  registerEscalationPolicyRoutes(app, deps);
  registerScheduleRoutes(app, deps);
  await app.register(pagingPlugin, deps);
  registerPagingRoutes(app, deps);
  await app.register(approvalsPlugin, deps);
  await app.register(heartbeatsPlugin, deps);
  await app.register(inboundMailPlugin, deps);
  registerReportRoutes(app, deps);
  await app.register(maintenancePlugin, deps);
  await app.register(apiTokensPlugin, deps);
  await app.register(destinationsPlugin, deps);
  await app.register(digestPlugin, deps);
  await app.register(psaPlugin, deps);

  registerWeb(app, config);
  return { app, deps };
}

/**
 * The built web app: static files, the host rule for `/` (the marketing page's home.html, or a redirect to the
 * dashboard on the app host), and the SPA's index.html for every other page.
 */
function registerWeb(app: FastifyInstance, config: Config) {
  app.addHook('onRequest', async (req, reply) => {
    if (req.method === 'GET' && (req.url === '/' || req.url.startsWith('/?')) && req.hostname.startsWith(config.appHostPrefix)) {
      return reply.redirect('/app/dashboard');
    }
    // The query goes along: the dashboard links a client's name to /clients?client=… (its details).
    if (req.method === 'GET' && (req.url === '/clients' || req.url.startsWith('/clients?'))) return reply.redirect(`/app/clients${req.url.slice('/clients'.length)}`);
  });
  const dir = config.webDir;
  const index = dir ? path.join(dir, 'index.html') : null;
  if (!dir || !index || !fs.existsSync(index)) return;
  // preCompressed: the .br/.gz files written next to each asset at build time (vite.config.ts) are sent as they are.
  // Hashed assets (assets/) never change content: a year, immutable; every other file (sw.js, theme-init.js) is
  // revalidated on each use.
  const assetsDir = path.join(dir, 'assets') + path.sep;
  app.register(fastifyStatic, {
    root: dir,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    // The logo (favicon.svg, shown twice in the app's frame) a day: each copy is not asked for again on a first visit.
    setHeaders: (reply, file) =>
      void reply.header('cache-control', file.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : file.endsWith(`${path.sep}favicon.svg`) ? 'public, max-age=86400' : 'no-cache'),
  });
  const preload = viewPreloader(dir);
  const sendHtml = (reply: import('fastify').FastifyReply, file: string, urlPath = '') =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(preload(urlPath, fs.readFileSync(file, 'utf8')));
  const sendIndex = (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => sendHtml(reply, index, req.url.split('?')[0]);
  // `/` on the marketing host (the app host was redirected above): the home page's own entry, without the app's
  // router and query code. A build without home.html has its app draw the page at `/`.
  const home = path.join(dir, 'home.html');
  app.get('/', { schema: { hide: true } }, (_req, reply) => sendHtml(reply, fs.existsSync(home) ? home : index));
  app.get('/assets/*', { schema: { hide: true } }, (req, reply) => {
    const file = (req.params as { '*': string })['*'];
    return reply.sendFile(`assets/${file}`);
  });
  app.get('/*', { schema: { hide: true } }, (req, reply) => {
    const p = (req.params as { '*': string })['*'];
    if (p.startsWith('api/') || p.startsWith('v2/')) {
      return reply.code(404).send({ error: { code: 'not_found', message: 'Not found' } });
    }
    const file = path.join(dir, p);
    if (p && file.startsWith(dir) && fs.existsSync(file) && fs.statSync(file).isFile()) return reply.sendFile(p);
    return sendIndex(req, reply);
  });
}
