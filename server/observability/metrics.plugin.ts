import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ALERT_PRIORITIES } from '../../contract/alerts.ts';
import { INGEST_FORMATS, type IngestFormatName } from '../../contract/ingest-formats.ts';
import type { Deps } from '../deps.ts';
import { unsafeCountNotificationAttempts, unsafeCountOpenAlertsByPriority, unsafeDueJobsByKind } from './metrics.repository.ts';

/** The `format` label of ingested events: each route's format, each vendor format, mail and heartbeat monitors (issue 28). */
export type IngestFormat = 'pagerduty' | 'alertmanager' | 'generic' | IngestFormatName | 'email' | 'heartbeat';

/** What the metrics plugin shares as `app.metrics`: the registry, and the one counter other modules feed. */
export interface Metrics {
  registry: Registry;
  /** Counts `n` ingested events of `format` that were stored: a new alert (or an action) or a repeat of an open one. */
  ingested(format: IngestFormat, result: string, n?: number): void;
  /** Counts `n` events of `format` refused before they were stored (ingestion's HTTP routes are counted here already). */
  refused(format: IngestFormat, reason: string, n?: number): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Ingestion routes by their pattern; any answer but 202 from them is a refused event. */
const INGEST_ROUTES: Record<string, IngestFormat> = {
  '/v2/enqueue': 'pagerduty',
  '/api/ingest/alertmanager': 'alertmanager',
  '/api/ingest/alertmanager/:key': 'alertmanager',
  '/api/ingest/events': 'generic',
  '/api/ingest/events/:key': 'generic',
  // Each vendor format's two routes (`/api/ingest/{format}[/{key}]`), counted under its own name.
  ...Object.fromEntries(INGEST_FORMATS.flatMap((f) => [`/api/ingest/${f}`, `/api/ingest/${f}/:key`].map((route) => [route, f]))),
};

const REFUSAL: Record<number, string> = {
  400: 'invalid',
  401: 'invalid_key',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};
const refusalReason = (status: number) => REFUSAL[status] ?? (status >= 500 ? 'error' : 'bad_request');

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const digest = (s: string) => createHash('sha256').update(s).digest();

export interface MetricsOptions {
  deps: Deps;
  /** PostgreSQL's pool (connections in use and waiting); null with SQLite. */
  pool: pg.Pool | null;
}

/**
 * Prometheus metrics at `GET /metrics`, each app with its own registry (tests build several apps in one process).
 * Request and ingestion counts are counted as they happen; open alerts, due jobs, pages, live streams and the pool
 * are read when Prometheus scrapes (a few grouped queries), so no other module keeps counts of its own.
 */
async function metrics(app: FastifyInstance, { deps, pool }: MetricsOptions) {
  const { db, config } = deps;
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'alertdesk_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames, registers });
  const latency = new Histogram({
    name: 'alertdesk_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and status (live streams count until they end)',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const events = new Counter({
    name: 'alertdesk_ingest_events_total',
    help: 'Events from monitoring tools by format and outcome (accepted, deduplicated, refused); reason says why one was refused',
    labelNames: ['format', 'outcome', 'reason'] as const,
    registers,
  });

  // Read at scrape time, once per scrape for every gauge (the collectors run concurrently). A database that cannot
  // be read leaves those series out of that scrape, and alertdesk_database_up says so.
  const read = async <T>(what: string, query: () => Promise<T>): Promise<T | null> => {
    try {
      return await query();
    } catch (err) {
      app.log.warn({ err }, `metrics: could not read ${what}`);
      return null;
    }
  };
  const readSnapshot = async () => {
    const now = new Date();
    const [openAlerts, dueJobs, attempts] = await Promise.all([
      read('open alerts', () => unsafeCountOpenAlertsByPriority(db)),
      read('due jobs', () => unsafeDueJobsByKind(db, now)),
      read('notification attempts', () => unsafeCountNotificationAttempts(db)),
    ]);
    return { now, openAlerts, dueJobs, attempts };
  };
  let current: ReturnType<typeof readSnapshot> | null = null;
  const snapshot = () => (current ??= readSnapshot());

  new Gauge({
    name: 'alertdesk_open_alerts',
    help: 'Open alerts (new, acknowledged, in progress) by priority, over all tenants',
    labelNames: ['priority'] as const,
    registers,
    async collect() {
      this.reset();
      const rows = (await snapshot()).openAlerts;
      if (rows) for (const priority of ALERT_PRIORITIES) this.set({ priority }, Number(rows.find((r) => r.priority === priority)?.count ?? 0));
    },
  });
  new Gauge({
    name: 'alertdesk_jobs_due',
    help: 'Timed jobs (escalation steps, page deliveries, handovers, approval expiries) due now and not yet done, by kind',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of (await snapshot()).dueJobs ?? []) this.set({ kind: row.kind }, Number(row.count));
    },
  });
  new Gauge({
    name: 'alertdesk_jobs_due_lag_seconds',
    help: 'How long the oldest due job of each kind has been waiting past its due time',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      this.reset();
      const { now, dueJobs } = await snapshot();
      for (const row of dueJobs ?? []) {
        const oldest = row.oldest ? Date.parse(String(row.oldest)) : now.getTime();
        this.set({ kind: row.kind }, Math.max(0, (now.getTime() - oldest) / 1000));
      }
    },
  });
  new Gauge({
    name: 'alertdesk_notification_attempts',
    help: 'Pages recorded, by channel and outcome (pending, sent, failed, skipped); pages of deleted alerts drop out',
    labelNames: ['channel', 'outcome'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of (await snapshot()).attempts ?? []) this.set({ channel: row.channel, outcome: row.outcome }, Number(row.count));
    },
  });
  new Gauge({
    name: 'alertdesk_database_up',
    help: '1 when this scrape could read the database, else 0',
    registers,
    async collect() {
      const s = await snapshot();
      this.set(s.openAlerts && s.dueJobs && s.attempts ? 1 : 0);
    },
  });
  new Gauge({
    name: 'alertdesk_live_streams',
    help: 'Open live-update (server-sent event) streams on this instance',
    registers,
    collect() {
      this.set(app.hasDecorator('alerts') ? app.alerts.streams.size : 0);
    },
  });
  if (pool) {
    new Gauge({
      name: 'alertdesk_db_pool_connections',
      help: 'PostgreSQL pool connections of this instance, by state (in_use, idle)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'alertdesk_db_pool_waiting',
      help: 'Queries of this instance waiting for a PostgreSQL pool connection',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  app.decorate('metrics', {
    registry,
    ingested(format, result, n = 1) {
      events.inc({ format, outcome: result === 'deduplicated' ? 'deduplicated' : 'accepted', reason: '' }, n);
    },
    refused(format, reason, n = 1) {
      events.inc({ format, outcome: 'refused', reason }, n);
    },
  } satisfies Metrics);

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    const format = INGEST_ROUTES[route];
    if (format && reply.statusCode !== 202) {
      // A refused Alertmanager group refuses each of its alerts.
      const alerts = (req.body as { alerts?: unknown } | null | undefined)?.alerts;
      events.inc({ format, outcome: 'refused', reason: refusalReason(reply.statusCode) }, Array.isArray(alerts) ? Math.max(1, alerts.length) : 1);
    }
  });

  const expected = config.metricsToken ? digest(config.metricsToken) : null;
  /** METRICS_TOKEN set: that bearer token (compared in constant time) or 401. Unset: loopback only, else 403. */
  const admit = (req: FastifyRequest, reply: FastifyReply) => {
    if (expected) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      if (m && timingSafeEqual(digest(m[1]), expected)) return true;
      void reply.code(401).header('www-authenticate', 'Bearer').send({ error: { code: 'unauthorized', message: 'Metrics need the metrics token' } });
      return false;
    }
    // The socket's peer, never X-Forwarded-For: through a proxy on this host, set METRICS_TOKEN instead.
    if (LOOPBACK.has(req.socket.remoteAddress ?? '')) return true;
    void reply.code(403).send({ error: { code: 'forbidden', message: 'Metrics are served to loopback only unless METRICS_TOKEN is set' } });
    return false;
  };
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!admit(req, reply)) return reply;
    let text: string;
    try {
      text = await registry.metrics();
    } finally {
      current = null;
    }
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
}

export const metricsPlugin = fp(metrics, { name: 'metrics', fastify: '5.x' });
