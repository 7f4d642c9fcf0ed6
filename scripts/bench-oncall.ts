// npm run bench:oncall [-- --iterations 2000]
// Seeds a tenant with 50 on-call schedules of 7 days × 3 shifts and 3 rotation layers × 8 people (in several time
// zones) and 200 overrides, next to a
// second tenant just as big, in a fresh database (SQLite always; PostgreSQL too when BENCH_DATABASE_URL or
// TEST_DATABASE_URL is set, in a schema of its own). Then times who-is-on-call at random moments of the next 30 days:
// the function the escalation engine calls (whoIsOnCall: the schedule, its overrides, the people's membership,
// Luxon; read through the app's per-tenant on-call cache), the same with that cache forgotten before every call (one
// round trip), and the two HTTP endpoints through app.inject (session, membership check, validation, queries,
// serialisation).
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { loadConfig, type Config } from '../server/config.ts';
import { buildApp } from '../server/app.ts';
import type { DB } from '../server/db/database.ts';
import { insertMember } from '../server/modules/members/members.repository.ts';
import { scheduleColumns } from '../server/modules/schedules/schedules.repository.ts';
import { whoIsOnCall } from '../server/modules/schedules/schedules.service.ts';
import { onCallCacheOf } from '../server/modules/schedules/oncall-cache.ts';
import { ScheduleInput, WEEKDAY_KEYS } from '../contract/schedules.ts';
import { freshDatabase } from './bench-db.ts';

const TARGET_MS = 2;
const SCHEDULES = 50;
const OVERRIDES = 200;
const MEMBERS = 12;
const { values } = parseArgs({ options: { iterations: { type: 'string', default: '2000' } } });
const ITERATIONS = Number(values.iterations);

async function bench(target: { name: 'sqlite' | 'postgres'; url: string }): Promise<boolean> {
  const store = freshDatabase(target);
  const config: Config = { ...loadConfig({ PUBLIC_URL: 'http://localhost:3000' }), databaseUrl: store.url, databaseSchema: store.schema, webDir: null, logLevel: 'silent' };
  const { app, deps } = await buildApp(config, { logger: false });
  await app.ready();

  async function inject(url: string, cookie?: string, body?: unknown) {
    const res = await app.inject({
      method: body ? 'POST' : 'GET',
      url,
      headers: { origin: config.publicUrl, ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`${url} → ${res.statusCode} ${res.body}`);
    return res;
  }

  async function registerTenant(name: string) {
    const res = await inject('/api/functions/registerUserWithTenant', undefined, {
      userData: { email: `${name.toLowerCase().replace(/\W+/g, '-')}-${randomUUID().slice(0, 8)}@bench.example`, password: 'bench-pass-1', displayName: `${name} Owner` },
      tenantData: { name, plan: 'trial' },
    });
    const session = res.cookies.find((c) => c.name === 'alertdesk_session')!;
    const { userId, tenantId } = res.json() as { userId: string; tenantId: string };
    return { userId, tenantId, cookie: `alertdesk_session=${session.value}` };
  }

  const ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Sydney', 'UTC'];
  const START = Date.now();

  /** Members (user rows and memberships), 50 schedules of 7 × 3 shifts and 200 overrides over the next 30 days. */
  async function seed(db: DB, tenantId: string, ownerId: string) {
    const people = [ownerId];
    const at = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      for (let i = 1; i < MEMBERS; i++) {
        const id = randomUUID();
        const email = `m${i}-${id.slice(0, 6)}@bench.example`;
        await trx.insertInto('users').values({ id, email, display_name: `Member ${i}`, password_hash: null, role: 'user', plan: null, oidc_subject: null, created_at: at, updated_at: at, last_sign_in_at: null }).execute();
        await insertMember(trx, { id: randomUUID(), tenant_id: tenantId, user_id: id, email, display_name: `Member ${i}`, role: 'user', status: 'active', joined_at: at, invited_by: null, created_at: at });
        people.push(id);
      }
      const ids: string[] = [];
      for (let s = 0; s < SCHEDULES; s++) {
        const p = (k: number) => people[(s + k) % people.length];
        const rotations = Object.fromEntries(
          WEEKDAY_KEYS.map((k, d) => [
            k,
            [
              { startHour: 0, endHour: 8, primaryOnCall: p(d), secondaryOnCall: p(d + 1) },
              { startHour: 8, endHour: 16, primaryOnCall: p(d + 2), secondaryOnCall: null },
              { startHour: 16, endHour: 24, primaryOnCall: p(d + 3), secondaryOnCall: p(d + 4) },
            ],
          ]),
        );
        // Three rotation layers of eight people each (issue 27): weekly 24/7, daily, and office hours on weekdays.
        const eight = (offset: number) => Array.from({ length: 8 }, (_, i) => p(offset + i));
        const layers = [
          { name: 'Weekly', participants: eight(0), start: '2026-01-05T08:00:00Z', shiftLength: { unit: 'weeks', count: 1 } },
          { name: 'Daily', participants: eight(3), start: '2026-01-05T07:00:00Z', shiftLength: { unit: 'days', count: 1 }, restrictions: [{ days: [0, 6], from: '00:00', to: '23:59' }] },
          { name: 'Office', participants: eight(5), start: '2026-01-05T08:00:00Z', shiftLength: { unit: 'days', count: 2 }, restrictions: [{ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' }] },
        ];
        const input = ScheduleInput.parse({ name: `Schedule ${s}`, startTime: '2026-01-01', endTime: '2030-12-31', timeZone: ZONES[s % ZONES.length], isDefault: s === 0, rotations, layers });
        const id = randomUUID();
        ids.push(id);
        await trx.insertInto('oncall_schedules').values({ id, tenant_id: tenantId, ...scheduleColumns(input), created_by: ownerId, created_at: at, updated_at: at }).execute();
      }
      for (let o = 0; o < OVERRIDES; o++) {
        const startsAt = START + ((o * 7919) % (30 * 24)) * 3_600_000;
        await trx
          .insertInto('oncall_overrides')
          .values({
            id: randomUUID(),
            tenant_id: tenantId,
            schedule_id: ids[o % SCHEDULES],
            replaced_user_id: people[o % people.length],
            user_id: people[(o + 5) % people.length],
            starts_at: new Date(startsAt).toISOString(),
            ends_at: new Date(startsAt + (4 + (o % 48)) * 3_600_000).toISOString(),
            note: null,
            created_by: ownerId,
            created_at: at,
          })
          .execute();
      }
    });
  }

  const main = await registerTenant('Bench MSP');
  const noise = await registerTenant('Neighbour MSP');
  let t0 = performance.now();
  await seed(deps.db, main.tenantId, main.userId);
  await seed(deps.db, noise.tenantId, noise.userId);
  console.log(`\n[${target.name}] Seeded ${SCHEDULES} schedules (7 days × 3 shifts, 3 layers × 8 people) and ${OVERRIDES} overrides in each of 2 tenants in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const scheduleIds = (await deps.db.selectFrom('oncall_schedules').select('id').where('tenant_id', '=', main.tenantId).execute()).map((r) => r.id);
  // Deterministic "random" moments and schedules, the same on every run.
  let seedState = 42;
  const rnd = () => ((seedState = (seedState * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const moment = () => new Date(START + Math.floor(rnd() * 30 * 86_400_000));
  const pick = () => scheduleIds[Math.floor(rnd() * scheduleIds.length)];

  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  async function time(name: string, iterations: number, run: () => Promise<unknown>) {
    for (let i = 0; i < 50; i++) await run(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      t0 = performance.now();
      await run();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { name, p50: pct(times, 50), p95: pct(times, 95), max: times[times.length - 1] };
  }

  const base = `/api/tenants/${main.tenantId}`;
  const results = [
    await time('whoIsOnCall() (engine)', ITERATIONS, () => whoIsOnCall(deps.db, main.tenantId, pick(), moment())),
    await time('whoIsOnCall(), cache forgotten each call', ITERATIONS, () => {
      onCallCacheOf(deps.db)!.forget(null);
      return whoIsOnCall(deps.db, main.tenantId, pick(), moment());
    }),
    await time('GET …/onCallSchedules/:id/onCall?at=', ITERATIONS, () => inject(`${base}/onCallSchedules/${pick()}/onCall?at=${moment().toISOString()}`, main.cookie)),
    await time(`GET …/onCall (all ${SCHEDULES} schedules)`, Math.max(50, Math.floor(ITERATIONS / 10)), () => inject(`${base}/onCall?at=${moment().toISOString()}`, main.cookie)),
  ];

  const header = ['operation', 'p50 ms', 'p95 ms', 'max ms'];
  const rows = results.map((r) => [r.name, r.p50.toFixed(3), r.p95.toFixed(3), r.max.toFixed(2)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\nRandom schedules at random moments of the next 30 days, after 50 warm-up calls\n`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  const engine = results[0];
  const ok = engine.p95 <= TARGET_MS;
  console.log(`\n[${target.name}] Who-is-on-call p95: ${engine.p95.toFixed(3)} ms (${ok ? 'within' : 'NOT within'} the ${TARGET_MS} ms target of issues 12 and 27).`);

    await app.close();
    await store.drop();
    return ok;
}

const targets: Array<{ name: 'sqlite' | 'postgres'; url: string }> = [{ name: 'sqlite', url: '' }];
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) targets.push({ name: 'postgres', url: pgUrl });
let allOk = true;
for (const target of targets) if (!(await bench(target))) allOk = false;
process.exitCode = allOk ? 0 : 1;
