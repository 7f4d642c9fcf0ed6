import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, startTestApp, testDatabases } from '../test/test-app.ts';
import { registerOwner } from '../test/factories.ts';
import { createIntegration, ingest, pdTrigger } from '../test/alerts.ts';
import { enqueueJobs } from '../jobs/jobs.repository.ts';
import { sql } from 'kysely';
import { openDatabase } from '../db/database.ts';

/** The value of one series in Prometheus text, e.g. `value(text, 'alertdesk_open_alerts{priority="critical"}')`. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describeEachDatabase('metrics and health', (t) => {
  const scrape = async (headers: Record<string, string> = {}) => t().app.inject({ method: 'GET', url: '/metrics', headers });

  it('serves Prometheus text to loopback: process metrics, requests by route pattern, ingestion outcomes, open alerts', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const { key } = await createIntegration(owner.agent, owner.tenantId);
    expect((await ingest(app, '/v2/enqueue', pdTrigger(key, { dedup_key: 'm-1' }))).statusCode).toBe(202);
    expect((await ingest(app, '/v2/enqueue', pdTrigger(key, { dedup_key: 'm-1' }))).statusCode).toBe(202);
    expect((await ingest(app, `/api/ingest/events/${key}`, { title: 'Backup failed', priority: 'high' })).statusCode).toBe(202);
    const group = { version: '4', status: 'firing', alerts: [{ status: 'firing', labels: { alertname: 'A', severity: 'critical' } }, { status: 'firing', labels: { alertname: 'B' } }] };
    expect((await ingest(app, '/api/ingest/alertmanager', group, { authorization: `Bearer ${key}` })).statusCode).toBe(202);
    expect((await ingest(app, '/api/ingest/events', { title: 'x' }, { authorization: 'Bearer not-a-key' })).statusCode).toBe(401);
    expect((await ingest(app, '/api/ingest/events', { priority: 'urgent' }, { authorization: `Bearer ${key}` })).statusCode).toBe(400);

    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // Route patterns, never raw URLs (they would carry ids and integration keys).
    expect(value(text, 'alertdesk_http_requests_total{method="POST",route="/api/ingest/events/:key",status="202"}')).toBe(1);
    expect(text).toMatch(/alertdesk_http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/v2\/enqueue",status="202"\} \d/);
    expect(text).not.toContain(key);
    expect(text).not.toContain(owner.tenantId);
    expect(value(text, 'alertdesk_ingest_events_total{format="pagerduty",outcome="accepted",reason=""}')).toBe(1);
    expect(value(text, 'alertdesk_ingest_events_total{format="pagerduty",outcome="deduplicated",reason=""}')).toBe(1);
    expect(value(text, 'alertdesk_ingest_events_total{format="alertmanager",outcome="accepted",reason=""}')).toBe(2);
    expect(value(text, 'alertdesk_ingest_events_total{format="generic",outcome="accepted",reason=""}')).toBe(1);
    expect(value(text, 'alertdesk_ingest_events_total{format="generic",outcome="refused",reason="invalid_key"}')).toBe(1);
    expect(value(text, 'alertdesk_ingest_events_total{format="generic",outcome="refused",reason="invalid"}')).toBe(1);
    // Summed over tenants: no tenant label anywhere. PD critical + AM critical; generic high; AM without severity: medium.
    expect(value(text, 'alertdesk_open_alerts{priority="critical"}')).toBe(2);
    expect(value(text, 'alertdesk_open_alerts{priority="high"}')).toBe(1);
    expect(value(text, 'alertdesk_open_alerts{priority="medium"}')).toBe(1);
    expect(value(text, 'alertdesk_open_alerts{priority="info"}')).toBe(0);
    expect(text).not.toMatch(/tenant\w*="/);
    expect(value(text, 'alertdesk_live_streams')).toBe(0);
    expect(value(text, 'alertdesk_database_up')).toBe(1);
    if (t().db.name === 'postgres') {
      expect(value(text, 'alertdesk_db_pool_connections{state="in_use"}')).toBeGreaterThanOrEqual(0);
      expect(value(text, 'alertdesk_db_pool_waiting')).toBeGreaterThanOrEqual(0);
    } else expect(text).not.toContain('alertdesk_db_pool');
  });

  it('reads due jobs with their lag and pages by channel and outcome from the database at scrape time', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app);
    const { key } = await createIntegration(owner.agent, owner.tenantId);
    const alertId = (await ingest(app, `/api/ingest/events/${key}`, { title: 'Paged' })).data.alertId as string;
    // Left to the start sweep, as an alert of a tenant where someone subscribes to alerts is (issue 26).
    await deps.db.updateTable('alerts').set({ escalation_state: 'pending' }).where('id', '=', alertId).execute();
    const now = Date.now();
    await enqueueJobs(deps.db, [
      { kind: 'escalation.step', uniqueKey: `m:${randomUUID()}`, dueAt: new Date(now - 90_000), payload: {} },
      { kind: 'escalation.step', uniqueKey: `m:${randomUUID()}`, dueAt: new Date(now - 10_000), payload: {} },
      { kind: 'escalation.step', uniqueKey: `m:${randomUUID()}`, dueAt: new Date(now + 3600_000), payload: {} },
    ], new Date(now));
    const at = new Date().toISOString();
    const attempt = (channel: 'email' | 'sms', outcome: 'sent' | 'failed', step: string) => ({
      id: randomUUID(), tenant_id: owner.tenantId, alert_id: alertId, step, level: 1, user_id: owner.userId, channel, outcome,
      reason: null, provider_id: null, tries: 1, created_at: at, updated_at: at,
    });
    await deps.db.insertInto('notification_attempts').values([attempt('email', 'sent', 'L1'), attempt('sms', 'failed', 'L1'), attempt('email', 'sent', 'L2')]).execute();

    // Escalation work kept on the alert itself counts too: its start (the sweep has not run: no worker here), its next
    // level and its overdue check, once due.
    const text0 = (await scrape()).body;
    expect(value(text0, 'alertdesk_jobs_due{kind="escalation.start"}')).toBeGreaterThanOrEqual(1);
    expect(value(text0, 'alertdesk_jobs_due{kind="escalation.overdue"}')).toBeUndefined();
    await deps.db
      .updateTable('alerts')
      .set({ next_step_at: new Date(now - 30_000).toISOString(), overdue_check_at: new Date(now - 20_000).toISOString() })
      .where('id', '=', alertId)
      .execute();
    const text = (await scrape()).body;
    expect(value(text, 'alertdesk_jobs_due{kind="escalation.step"}')).toBe(3);
    expect(value(text, 'alertdesk_jobs_due{kind="escalation.overdue"}')).toBe(1);
    const overdueLag = value(text, 'alertdesk_jobs_due_lag_seconds{kind="escalation.overdue"}')!;
    expect(overdueLag).toBeGreaterThanOrEqual(20);
    expect(overdueLag).toBeLessThan(80);
    const lag = value(text, 'alertdesk_jobs_due_lag_seconds{kind="escalation.step"}')!;
    expect(lag).toBeGreaterThanOrEqual(90);
    expect(lag).toBeLessThan(150);
    expect(value(text, 'alertdesk_notification_attempts{channel="email",outcome="sent"}')).toBe(2);
    expect(value(text, 'alertdesk_notification_attempts{channel="sms",outcome="failed"}')).toBe(1);
    await deps.db.deleteFrom('jobs').where('unique_key', 'like', 'm:%').execute();
    await deps.db.updateTable('alerts').set({ next_step_at: null, overdue_check_at: null }).where('id', '=', alertId).execute();
    expect(value((await scrape()).body, 'alertdesk_jobs_due{kind="escalation.step"}')).toBeUndefined();
  });

  it('without METRICS_TOKEN answers other addresses 403, whatever X-Forwarded-For says', async () => {
    const { app } = t();
    const away = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(away.statusCode).toBe(403);
    const forged = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(forged.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
  });

  it('answers every request with its id in x-request-id, unique per request', async () => {
    const { app } = t();
    const a = await app.inject({ method: 'GET', url: '/api/health/live' });
    const b = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('health: live answers ok; ready names the failing check (migrations, database) and counts JOB_WORKER=false as ready', async () => {
    const { app, deps } = t();
    const live = await app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', jobWorker: 'disabled' } });
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' });

    // A migration the database has not run (a newer build started against it).
    const table = sql.table(deps.dialect === 'postgres' ? `${deps.config.databaseSchema}.kysely_migration` : 'kysely_migration');
    const { rows } = await sql<{ name: string; timestamp: string }>`select name, timestamp from ${table} order by name desc limit 1`.execute(deps.db);
    const last = rows[0];
    await sql`delete from ${table} where name = ${last.name}`.execute(deps.db);
    try {
      const pending = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(pending.statusCode).toBe(503);
      expect(pending.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'pending', jobWorker: 'disabled' } });
    } finally {
      await sql`insert into ${table} (name, timestamp) values (${last.name}, ${last.timestamp})`.execute(deps.db);
    }

    // The database away: nothing listens on port 1.
    const dead = openDatabase('postgres://root@127.0.0.1:1/none');
    const db = deps.db;
    deps.db = dead.db;
    try {
      const away = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(away.statusCode).toBe(503);
      expect(away.json()).toEqual({ status: 'unavailable', checks: { database: 'failed', migrations: 'unknown', jobWorker: 'disabled' } });
    } finally {
      deps.db = db;
      await dead.close();
    }
  });
});

for (const db of testDatabases()) {
  describe(`metrics with METRICS_TOKEN, job worker on [${db.name}]`, () => {
    let env: Awaited<ReturnType<typeof startTestApp>>;
    beforeAll(async () => {
      // A second app in the same process: its own registry, no clash with the first.
      env = await startTestApp(db, { metricsToken: 'scrape-secret-1', jobWorker: true });
    });
    afterAll(async () => env?.close());

    it('wants the bearer token from every address, loopback included', async () => {
      const get = (headers: Record<string, string>, remoteAddress = '10.9.8.7') => env.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
      expect((await get({}, '127.0.0.1')).statusCode).toBe(401);
      expect((await get({ authorization: 'Bearer scrape-secret-2' })).statusCode).toBe(401);
      expect((await get({ authorization: 'Bearer scrape-secret-10' })).statusCode).toBe(401);
      const ok = await get({ authorization: 'Bearer scrape-secret-1' });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('alertdesk_http_requests_total');
    });

    it('is ready while the job worker runs, and not once it stopped', async () => {
      expect((await env.app.inject({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', jobWorker: 'ok' } });
      await env.app.jobs.worker.stop();
      const stopped = await env.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(stopped.statusCode).toBe(503);
      expect(stopped.json().checks.jobWorker).toBe('stopped');
    });
  });
}
