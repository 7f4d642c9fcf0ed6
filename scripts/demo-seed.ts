// npm run demo [-- --alerts 300]
// Seeds a demo tenant into the database named by DATABASE_URL (default ./data/alertdesk.db), so a newcomer sees a
// living dashboard: members, clients, integrations, and a few hundred alerts of every priority and status, made
// through the real ingestion endpoints and the real alert actions, then spread over the last two weeks.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../server/config.ts';
import { buildApp } from '../server/app.ts';
import { hashPassword } from '../server/lib/password.ts';
import type { DB } from '../server/db/database.ts';

const { values } = parseArgs({ options: { alerts: { type: 'string', default: '300' } } });
const ALERTS = Math.max(20, Number(values.alerts));
const PASSWORD = 'demo1234';
const OWNER = { email: 'demo@alertdesk.local', name: 'Dana Demo' };
const MEMBERS = [
  { email: 'alex@alertdesk.local', name: 'Alex Admin', role: 'admin' as const },
  { email: 'sam@alertdesk.local', name: 'Sam Support', role: 'user' as const },
  { email: 'riley@alertdesk.local', name: 'Riley Responder', role: 'user' as const },
];
const CLIENTS = [
  { name: 'Acme Manufacturing', industry: 'Manufacturing', size: 'large', contactName: 'Wile E. Coyote', contactEmail: 'it@acme.example.com' },
  { name: 'Globex Corporation', industry: 'Energy', size: 'enterprise', contactName: 'Hank Scorpio', contactEmail: 'ops@globex.example.com' },
  { name: 'Initech', industry: 'Software', size: 'medium', contactName: 'Bill Lumbergh', contactEmail: 'tps@initech.example.com' },
  { name: 'Umbrella Health', industry: 'Healthcare', size: 'large', contactName: 'Alice Abernathy', contactEmail: 'helpdesk@umbrella.example.com' },
  { name: 'Stark Logistics', industry: 'Logistics', size: 'medium', contactName: 'Pepper Potts', contactEmail: 'noc@stark.example.com' },
  { name: 'Wayne Dental', industry: 'Healthcare', size: 'small', contactName: 'Alfred Pennyworth', contactEmail: 'office@waynedental.example.com' },
];

// Deterministic pseudo-random numbers, so every demo looks alike.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];

const CHECKS = [
  { title: (h: string) => `High CPU on ${h}`, severity: 'warning', am: 'HighCPU' },
  { title: (h: string) => `Disk almost full on ${h} (/var)`, severity: 'error', am: 'DiskFull' },
  { title: (h: string) => `${h} is down`, severity: 'critical', am: 'InstanceDown' },
  { title: (h: string) => `Memory pressure on ${h}`, severity: 'warning', am: 'MemoryPressure' },
  { title: (h: string) => `TLS certificate of ${h} expires in 7 days`, severity: 'info', am: 'CertExpiry' },
  { title: (h: string) => `Backup job failed on ${h}`, severity: 'error', am: 'BackupFailed' },
  { title: (h: string) => `Packet loss above 5% to ${h}`, severity: 'critical', am: 'PacketLoss' },
  { title: (h: string) => `Windows update pending reboot on ${h}`, severity: 'info', am: 'RebootPending' },
];
const HOSTS = ['web-01', 'web-02', 'db-01', 'db-02', 'fileserver', 'dc-01', 'mail-01', 'vpn-gw', 'pos-03', 'nas-01', 'k8s-node-4', 'printer-2f'];
const AM_SEVERITY: Record<string, string> = { critical: 'critical', error: 'major', warning: 'warning', info: 'low' };

async function call(app: FastifyInstance, cookie: string | null, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method,
    url,
    headers: { origin: config.publicUrl, ...(cookie ? { cookie } : {}), ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return { data: res.json(), cookie: res.cookies.find((c) => c.name === 'alertdesk_session')?.value };
}

async function addMember(db: DB, tenantId: string, m: (typeof MEMBERS)[number]) {
  const at = new Date().toISOString();
  const userId = randomUUID();
  await db
    .insertInto('users')
    .values({ id: userId, email: m.email, display_name: m.name, password_hash: await hashPassword(PASSWORD), role: 'user', plan: null, oidc_subject: null, created_at: at, updated_at: at, last_sign_in_at: null })
    .execute();
  await db
    .insertInto('tenant_members')
    .values({ id: randomUUID(), tenant_id: tenantId, user_id: userId, email: m.email, display_name: m.name, role: m.role, status: 'active', joined_at: at, invited_by: null, created_at: at })
    .execute();
}

/** Moves an alert and everything that happened to it back in time by `ms`, keeping their order. */
async function backdate(db: DB, alertId: string, ms: number) {
  const shift = (t: string | null) => (t ? new Date(Date.parse(t) - ms).toISOString() : null);
  const a = await db.selectFrom('alerts').selectAll().where('id', '=', alertId).executeTakeFirstOrThrow();
  await db
    .updateTable('alerts')
    .set({
      created_at: shift(a.created_at)!,
      updated_at: shift(a.updated_at)!,
      last_seen_at: shift(a.last_seen_at)!,
      acknowledged_at: shift(a.acknowledged_at),
      resolved_at: shift(a.resolved_at),
      closed_at: shift(a.closed_at),
    })
    .where('id', '=', alertId)
    .execute();
  for (const e of await db.selectFrom('alert_events').select(['id', 'at']).where('alert_id', '=', alertId).execute()) {
    await db.updateTable('alert_events').set({ at: shift(e.at)! }).where('id', '=', e.id).execute();
  }
  for (const n of await db.selectFrom('alert_notes').select(['id', 'created_at']).where('alert_id', '=', alertId).execute()) {
    await db.updateTable('alert_notes').set({ created_at: shift(n.created_at)! }).where('id', '=', n.id).execute();
  }
}

const config = { ...loadConfig(), logLevel: 'warn', webDir: null };
const { app, deps } = await buildApp(config, { logger: false });
await app.ready();
try {
  const existing = await deps.db.selectFrom('users').select('id').where('email', '=', OWNER.email).executeTakeFirst();
  if (existing) console.log(`The demo is already seeded in ${config.databaseUrl}. Sign in as ${OWNER.email} / ${PASSWORD}.`);
  else await seedDemo();
} finally {
  await app.close();
}

async function seedDemo() {

  const reg = await call(app, null, 'POST', '/api/functions/registerUserWithTenant', {
    userData: { email: OWNER.email, password: PASSWORD, displayName: OWNER.name },
    tenantData: { name: 'Demo MSP', plan: 'scale' },
  });
  const tenantId = reg.data.tenantId as string;
  const owner = `alertdesk_session=${reg.cookie}`;
  for (const m of MEMBERS) await addMember(deps.db, tenantId, m);
  const sessions = [owner];
  for (const m of MEMBERS) {
    const s = await call(app, null, 'POST', '/api/auth/sign-in', { email: m.email, password: PASSWORD });
    sessions.push(`alertdesk_session=${s.cookie}`);
  }
  const people = (await call(app, owner, 'GET', `/api/tenants/${tenantId}/assignees`)).data.items as Array<{ id: string }>;

  const clientIds: string[] = [];
  for (const c of CLIENTS) clientIds.push((await call(app, owner, 'POST', `/api/tenants/${tenantId}/clients`, { ...c, status: 'active' })).data.id);

  const integrations = [
    { name: 'Prometheus (Acme)', clientId: clientIds[0], kind: 'alertmanager' },
    { name: 'Datadog', clientId: null, kind: 'pagerduty' },
    { name: 'Zabbix (Globex)', clientId: clientIds[1], kind: 'pagerduty' },
    { name: 'Veeam webhook', clientId: null, kind: 'events' },
  ];
  const keys: Array<{ name: string; key: string; kind: string }> = [];
  for (const i of integrations) {
    const res = await call(app, owner, 'POST', `/api/tenants/${tenantId}/integrations`, { name: i.name, clientId: i.clientId });
    keys.push({ name: i.name, key: res.data.key, kind: i.kind });
  }

  // Alerts through the three real endpoints; about one in six keys repeats (deduplicated into an open alert).
  for (let n = 0; n < ALERTS; n++) {
    const check = pick(CHECKS);
    const host = pick(HOSTS);
    const via = pick(keys);
    const dedupKey = rand() < 0.16 && n > 10 ? `demo-${Math.floor(rand() * n)}` : `demo-${n}`;
    if (via.kind === 'pagerduty') {
      await call(app, null, 'POST', '/v2/enqueue', {
        routing_key: via.key,
        event_action: 'trigger',
        dedup_key: dedupKey,
        payload: { summary: check.title(host), source: `${host}.example.com`, severity: check.severity, component: check.am, custom_details: { host, check: check.am } },
      });
    } else if (via.kind === 'alertmanager') {
      await call(
        app,
        null,
        'POST',
        '/api/ingest/alertmanager',
        {
          version: '4',
          status: 'firing',
          receiver: 'alertdesk',
          groupKey: `{}:{alertname="${check.am}"}`,
          externalURL: 'http://alertmanager.acme.example.com',
          alerts: [
            {
              status: 'firing',
              labels: { alertname: check.am, instance: `${host}:9100`, job: 'node', severity: AM_SEVERITY[check.severity] },
              annotations: { summary: check.title(host), description: `Prometheus rule ${check.am} fired for ${host}.`, runbook_url: `https://wiki.example.com/runbooks/${check.am}` },
              startsAt: new Date().toISOString(),
              generatorURL: `http://prometheus.acme.example.com/graph?g0.expr=${check.am}`,
              fingerprint: dedupKey.padStart(16, '0').slice(-16),
            },
          ],
        },
        { authorization: `Bearer ${via.key}` },
      );
    } else {
      await call(
        app,
        null,
        'POST',
        '/api/ingest/events',
        { title: check.title(host), priority: pick(['critical', 'high', 'medium', 'low', 'info']), source: host, client: pick(CLIENTS).name, tags: ['backup', check.am.toLowerCase()], metadata: { host, job: 'nightly' }, dedupKey },
        { authorization: `Bearer ${via.key}` },
      );
    }
  }
  const all = await deps.db.selectFrom('alerts').select('id').where('tenant_id', '=', tenantId).execute();

  // People work through them: acknowledge, assign, note, start, resolve, close, each as a real member.
  const notes = ['Looking into it.', 'Restarted the service; watching.', 'Client informed by phone.', 'Vendor ticket opened.', 'Cleared old logs, 40% free now.'];
  for (const { id } of all) {
    const as = () => pick(sessions);
    const r = rand();
    const base = `/api/tenants/${tenantId}/alerts/${id}`;
    if (r < 0.25) continue; // stays new
    if (rand() < 0.5) await call(app, as(), 'POST', `${base}/assign`, { userId: pick(people).id });
    await call(app, as(), 'POST', `${base}/acknowledge`, {});
    if (rand() < 0.4) await call(app, as(), 'POST', `${base}/notes`, { text: pick(notes) });
    if (r < 0.45) continue; // acknowledged
    await call(app, as(), 'POST', `${base}/start`, {});
    if (r < 0.6) continue; // in progress
    await call(app, as(), 'POST', `${base}/resolve`, {});
    if (r < 0.85) continue; // resolved
    await call(app, as(), 'POST', `${base}/close`, {});
  }
  // Spread over the last two weeks: newest first on the dashboard, a real history behind it.
  for (const { id } of all) await backdate(deps.db, id, Math.floor(rand() * 14 * 24 * 3600_000));

  const counts = await deps.db.selectFrom('alerts').select(['status', (eb) => eb.fn.countAll().as('n')]).where('tenant_id', '=', tenantId).groupBy('status').execute();
  console.log(`\nDemo tenant "Demo MSP" seeded in ${config.databaseUrl}`);
  console.log(`  alerts: ${counts.map((c) => `${c.status} ${Number(c.n)}`).join(', ')}`);
  console.log(`  sign in at ${config.publicUrl}/login as ${OWNER.email} / ${PASSWORD} (owner)`);
  for (const m of MEMBERS) console.log(`             or ${m.email} / ${PASSWORD} (${m.role})`);
  console.log('  integration keys (shown here once; rotate them in Tenant Admin → Integrations):');
  for (const k of keys) console.log(`    ${k.name.padEnd(20)} ${k.key}`);
  const generic = keys.find((k) => k.kind === 'events')!;
  console.log(`\n  send one more: curl -X POST ${config.publicUrl}/api/ingest/events -H 'Authorization: Bearer ${generic.key}' -H 'Content-Type: application/json' -d '{"title":"Hello from curl","priority":"high"}'`);
}
