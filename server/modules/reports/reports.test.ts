import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { AlertEventsTable, AlertsTable } from '../../db/schema.ts';
import { Agent, describeEachDatabase, type TestEnv } from '../../test/test-app.ts';
import { registerOwner, registerTeam } from '../../test/factories.ts';
import { createClient } from '../../test/clients.ts';
import { alertRow, alertTenant, createIntegration, ingest } from '../../test/alerts.ts';
import { REPORT_MSG } from '../../../contract/reports.ts';
import { targetPairs } from './report-figures.ts';
import { reportTally } from './reports.service.ts';

const PERIOD = { from: '2025-03-03T00:00:00.000Z', to: '2025-03-10T00:00:00.000Z' };
const at = (iso: string, plusSeconds = 0) => new Date(Date.parse(iso) + plusSeconds * 1000).toISOString();
const reportUrl = (tenantId: string, params: Record<string, string> = {}) => `/api/tenants/${tenantId}/reports/summary?${new URLSearchParams({ ...PERIOD, ...params })}`;

interface Seed {
  created: string;
  priority: AlertsTable['priority'];
  client: string | null;
  policy: string | null;
  /** Seconds after opening, and who (null: the monitoring tool); absent: never acknowledged. */
  ack?: [number, string | null];
  resolve?: [number, string | null];
  source: string;
  title: string;
  occurrences: number;
}

/** Stores an alert as the app would have left it, with its timeline's acknowledge and resolve entries. */
async function seedAlert(env: TestEnv, tenantId: string, s: Seed, extraEvents: Array<[AlertEventsTable['kind'], number, string]> = []) {
  const id = randomUUID();
  const ackAt = s.ack ? at(s.created, s.ack[0]) : null;
  const resAt = s.resolve ? at(s.created, s.resolve[0]) : null;
  await env.deps.db
    .insertInto('alerts')
    .values(
      alertRow(tenantId, {
        id,
        client_id: s.client,
        title: s.title,
        priority: s.priority,
        status: resAt ? 'resolved' : ackAt ? 'acknowledged' : 'new',
        source: s.source,
        search_text: s.title.toLowerCase(),
        created_at: s.created,
        updated_at: resAt ?? ackAt ?? s.created,
        acknowledged_by: s.ack ? s.ack[1] : null,
        acknowledged_at: ackAt,
        resolved_by: s.resolve ? s.resolve[1] : null,
        resolved_at: resAt,
        occurrences: s.occurrences,
        escalation_state: 'none',
        escalation_policy_id: s.policy,
      }),
    )
    .execute();
  const events: Array<[AlertEventsTable['kind'], number, string | null]> = [];
  if (s.ack) events.push(['acknowledged', s.ack[0], s.ack[1]]);
  if (s.resolve) events.push(['resolved', s.resolve[0], s.resolve[1]]);
  events.push(...extraEvents);
  for (const [kind, secs, actor] of events) {
    await env.deps.db
      .insertInto('alert_events')
      .values({
        id: randomUUID(),
        tenant_id: tenantId,
        alert_id: id,
        at: at(s.created, secs),
        kind,
        actor_type: actor ? 'user' : 'integration',
        actor_id: actor,
        actor_name: actor ?? 'Prometheus',
        detail: '{}',
      })
      .execute();
  }
  return id;
}

async function createPolicyVia(agent: Agent, tenantId: string, name: string, times: Record<string, number | null>, userId: string) {
  const res = await agent.post(`/api/tenants/${tenantId}/escalationPolicies`, { name, escalationTimes: times, level_1: { userIds: [userId] } });
  if (res.statusCode !== 201) throw new Error(`policy: ${res.statusCode} ${res.body}`);
  return res.data.id as string;
}

describeEachDatabase('reports API', (t) => {
  /** The hand-computed set: see each alert's comment for what it contributes. */
  async function seededTenant() {
    const env = t();
    const team = await registerTeam(env);
    const { owner, admin } = team;
    const policyA = await createPolicyVia(owner.agent, team.tenantId, 'Standard', { critical: 15, high: 30, medium: 60, low: 240, info: null }, owner.userId);
    const policyB = await createPolicyVia(owner.agent, team.tenantId, 'Fast', { critical: 10, high: 20, medium: 30, low: 40, info: null }, owner.userId);
    const globex = (await createClient(owner.agent, team.tenantId, { name: 'Globex', status: 'active' })).id as string;
    const initech = (await createClient(owner.agent, team.tenantId, { name: 'Initech', status: 'active' })).id as string;
    const o = owner.userId;
    const a = admin.userId;
    // a1: critical, target 15 min, acknowledged after 5 min (within), resolved after 30 min.
    await seedAlert(env, team.tenantId, { created: '2025-03-03T10:00:00.000Z', priority: 'critical', client: globex, policy: policyA, ack: [300, o], resolve: [1800, o], source: 'db-1', title: 'Disk full', occurrences: 3 });
    // a2: critical, acknowledged after 20 min (late), resolved after 1 h.
    await seedAlert(env, team.tenantId, { created: '2025-03-04T10:00:00.000Z', priority: 'critical', client: globex, policy: policyA, ack: [1200, a], resolve: [3600, a], source: 'db-1', title: 'Disk full', occurrences: 1 });
    // a3: high, target 30 min, acknowledged after 10 min, resolved by the monitoring tool after 2 h.
    await seedAlert(env, team.tenantId, { created: '2025-03-05T23:30:00.000Z', priority: 'high', client: initech, policy: policyA, ack: [600, a], resolve: [7200, null], source: 'web-1', title: 'CPU high', occurrences: 2 });
    // a4: medium, target 30 min (policy B), never acknowledged: resolved straight from new after 15 min (a miss).
    await seedAlert(env, team.tenantId, { created: '2025-03-05T12:00:00.000Z', priority: 'medium', client: initech, policy: policyB, resolve: [900, a], source: 'web-1', title: 'CPU high', occurrences: 1 });
    // a5: info (no target: left out of the share), acknowledged by the monitoring tool after 1 min, still open.
    await seedAlert(env, team.tenantId, { created: '2025-03-07T18:45:00.000Z', priority: 'info', client: null, policy: policyA, ack: [60, null], source: 'mail', title: 'Queue slow', occurrences: 7 });
    // a6: low, no policy applied (left out of the share), never acknowledged, open.
    await seedAlert(env, team.tenantId, { created: '2025-03-08T06:10:00.000Z', priority: 'low', client: globex, policy: null, source: 'db-1', title: 'Backup failed', occurrences: 1 });
    // a7: high, acknowledged TWICE: first by the owner after 2 min (the alert keeps that one), the timeline also holding a
    // second acknowledgement by the admin after 50 min; resolved by the admin after 40 min. Counts 2 min.
    await seedAlert(
      env,
      team.tenantId,
      { created: '2025-03-06T08:00:00.000Z', priority: 'high', client: globex, policy: policyA, ack: [120, o], resolve: [2400, a], source: 'db-2', title: 'Service down', occurrences: 1 },
      [['acknowledged', 3000, a]],
    );
    // a8: critical, target 10 min (policy B), never acknowledged, open, its target long past (a miss); the last half
    // second of the period.
    await seedAlert(env, team.tenantId, { created: '2025-03-09T23:59:59.500Z', priority: 'critical', client: initech, policy: policyB, source: 'fw-1', title: 'Firewall down', occurrences: 1 });
    // Outside the period: at its end (excluded) and just before its start.
    await seedAlert(env, team.tenantId, { created: '2025-03-10T00:00:00.000Z', priority: 'critical', client: globex, policy: policyA, ack: [1, o], source: 'db-1', title: 'Disk full', occurrences: 1 });
    await seedAlert(env, team.tenantId, { created: '2025-03-02T23:59:59.999Z', priority: 'critical', client: globex, policy: policyA, ack: [1, o], source: 'db-1', title: 'Disk full', occurrences: 1 });
    // Another tenant's alert in the period.
    const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
    await seedAlert(env, other.tenantId, { created: '2025-03-04T10:00:00.000Z', priority: 'critical', client: null, policy: null, ack: [5, other.userId], source: 'db-1', title: 'Disk full', occurrences: 100 });
    return { ...team, other, globex, initech, policyA, policyB };
  }

  it('computes every figure of a seeded period as worked out by hand', async () => {
    const s = await seededTenant();
    const res = await s.owner.agent.get(reportUrl(s.tenantId, { timeZone: 'Asia/Kolkata' }));
    expect(res.statusCode, res.body).toBe(200);
    const r = res.data;
    expect(r).toMatchObject({ ...PERIOD, clientId: null, clientName: null, timeZone: 'Asia/Kolkata', tenantName: 'Acme MSP', tenantLogoUrl: null, maintenanceSuppressed: 0 });
    // Acknowledged: a1 300, a2 1200, a3 600, a5 60, a7 120 (its first) → mean 456, p90 (5th of 5) 1200.
    // Resolved: a4 900, a1 1800, a7 2400, a2 3600, a3 7200 → mean 3180, p90 7200.
    // Targets decided: a1 in, a2 out, a3 in, a4 out, a7 in, a8 out (a5 info, a6 no policy: left out) → 3 / 6.
    expect(r).toMatchObject({
      opened: 8,
      acknowledged: 5,
      neverAcknowledged: 3,
      resolved: 5,
      mttaSeconds: 456,
      p90TtaSeconds: 1200,
      mttrSeconds: 3180,
      p90TtrSeconds: 7200,
      targetEligible: 6,
      withinTarget: 3,
      ackWithinTargetShare: 0.5,
    });
    expect(r.byPriority).toEqual([
      { priority: 'critical', opened: 3, acknowledged: 2, neverAcknowledged: 1, resolved: 2, mttaSeconds: 750, mttrSeconds: 2700, targetEligible: 3, withinTarget: 1, ackWithinTargetShare: 1 / 3, targetMinutes: { min: 10, max: 15 } },
      { priority: 'high', opened: 2, acknowledged: 2, neverAcknowledged: 0, resolved: 2, mttaSeconds: 360, mttrSeconds: 4800, targetEligible: 2, withinTarget: 2, ackWithinTargetShare: 1, targetMinutes: { min: 30, max: 30 } },
      { priority: 'medium', opened: 1, acknowledged: 0, neverAcknowledged: 1, resolved: 1, mttaSeconds: null, mttrSeconds: 900, targetEligible: 1, withinTarget: 0, ackWithinTargetShare: 0, targetMinutes: { min: 30, max: 30 } },
      { priority: 'low', opened: 1, acknowledged: 0, neverAcknowledged: 1, resolved: 0, mttaSeconds: null, mttrSeconds: null, targetEligible: 0, withinTarget: 0, ackWithinTargetShare: null, targetMinutes: null },
      { priority: 'info', opened: 1, acknowledged: 1, neverAcknowledged: 0, resolved: 0, mttaSeconds: 60, mttrSeconds: null, targetEligible: 0, withinTarget: 0, ackWithinTargetShare: null, targetMinutes: null },
    ]);
    expect(r.byClient).toEqual([
      { clientId: s.globex, clientName: 'Globex', opened: 4, acknowledged: 3, neverAcknowledged: 1, resolved: 3, mttaSeconds: 540, mttrSeconds: 2600, targetEligible: 3, withinTarget: 2, ackWithinTargetShare: 2 / 3 },
      { clientId: s.initech, clientName: 'Initech', opened: 3, acknowledged: 1, neverAcknowledged: 2, resolved: 2, mttaSeconds: 600, mttrSeconds: 4050, targetEligible: 3, withinTarget: 1, ackWithinTargetShare: 1 / 3 },
      { clientId: null, clientName: null, opened: 1, acknowledged: 1, neverAcknowledged: 0, resolved: 0, mttaSeconds: 60, mttrSeconds: null, targetEligible: 0, withinTarget: 0, ackWithinTargetShare: null },
    ]);
    // Asia/Kolkata is UTC+5:30 (2025-03-03 is a Monday): a1 Mon 15:30, a2 Tue 15:30, a4 Wed 17:30, a3 Thu 05:00,
    // a7 Thu 13:30, a5 Sat 00:15, a6 Sat 11:40, a8 Mon 05:29.
    const cells = r.byHourOfWeek as Array<{ day: number; hour: number; opened: number }>;
    expect(cells).toHaveLength(168);
    expect(cells.filter((c) => c.opened > 0).map((c) => [c.day, c.hour, c.opened])).toEqual([
      [1, 5, 1],
      [1, 15, 1],
      [2, 15, 1],
      [3, 17, 1],
      [4, 5, 1],
      [4, 13, 1],
      [6, 0, 1],
      [6, 11, 1],
    ]);
    expect(r.topSources).toEqual([
      { source: 'mail', occurrences: 7, alerts: 1 },
      { source: 'db-1', occurrences: 5, alerts: 3 },
      { source: 'web-1', occurrences: 3, alerts: 2 },
      { source: 'db-2', occurrences: 1, alerts: 1 },
      { source: 'fw-1', occurrences: 1, alerts: 1 },
    ]);
    expect(r.topIssues).toEqual([
      { title: 'CPU high', alerts: 2, occurrences: 3 },
      { title: 'Disk full', alerts: 2, occurrences: 4 },
      { title: 'Backup failed', alerts: 1, occurrences: 1 },
      { title: 'Firewall down', alerts: 1, occurrences: 1 },
      { title: 'Queue slow', alerts: 1, occurrences: 7 },
      { title: 'Service down', alerts: 1, occurrences: 1 },
    ]);
    // Admin: acknowledged a2, a3; resolved a2, a4, a7. Owner: acknowledged a1, a7; resolved a1. The tool: a5 and a3.
    expect(r.byResponder).toEqual([
      { userId: s.admin.userId, name: 'Olivia Owner', acknowledged: 2, resolved: 3 },
      { userId: s.owner.userId, name: 'Olivia Owner', acknowledged: 2, resolved: 1 },
      { userId: null, name: REPORT_MSG.integrationResponder, acknowledged: 1, resolved: 1 },
    ]);

    // One client: Globex's a1, a2, a6, a7.
    const one = await s.admin.agent.get(reportUrl(s.tenantId, { clientId: s.globex }));
    expect(one.statusCode, one.body).toBe(200);
    expect(one.data).toMatchObject({
      clientId: s.globex,
      clientName: 'Globex',
      timeZone: 'UTC',
      opened: 4,
      acknowledged: 3,
      neverAcknowledged: 1,
      mttaSeconds: 540,
      p90TtaSeconds: 1200,
      resolved: 3,
      mttrSeconds: 2600,
      p90TtrSeconds: 3600,
      targetEligible: 3,
      withinTarget: 2,
    });
    expect(one.data.byClient.map((c: { clientId: string }) => c.clientId)).toEqual([s.globex]);
    // In UTC: a1 Mon 10, a2 Tue 10, a7 Thu 08, a6 Sat 06.
    expect(one.data.byHourOfWeek.filter((c: { opened: number }) => c.opened > 0).map((c: { day: number; hour: number }) => [c.day, c.hour])).toEqual([
      [1, 10],
      [2, 10],
      [4, 8],
      [6, 6],
    ]);
    expect(one.data.topSources).toEqual([
      { source: 'db-1', occurrences: 5, alerts: 3 },
      { source: 'db-2', occurrences: 1, alerts: 1 },
    ]);
  });

  it('sums a period the same way from stored rollups plus live alerts as from its alerts read once', async () => {
    const s = await seededTenant();
    const env = t();
    // a1 opened inside a maintenance window (any id: the report counts the mark).
    await env.deps.db.updateTable('alerts').set({ maintenance_window_id: 'patch-night' }).where('tenant_id', '=', s.tenantId).where('created_at', '=', '2025-03-03T10:00:00.000Z').execute();
    const pairs = targetPairs([
      { id: s.policyA, escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null } },
      { id: s.policyB, escalationTimes: { critical: 10, high: 20, medium: 30, low: 40, info: null } },
    ]);
    const key = (v: unknown) => JSON.stringify(v);
    const sorted = <T>(list: T[]) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
    const now = new Date();
    for (const clientId of [null, s.globex, s.initech]) {
      const scope = { tenantId: s.tenantId, ...PERIOD, clientId };
      const byRollups = await reportTally(env.deps, scope, pairs, now, 'rollups');
      const byFacts = await reportTally(env.deps, scope, pairs, now, 'facts');
      const comparable = (x: typeof byRollups) => ({
        ...x,
        groups: sorted(x.groups.map((g) => ({ ...g, ttaSum: Math.round(g.ttaSum * 1000), ttrSum: Math.round(g.ttrSum * 1000) }))),
        quarterHours: sorted(x.quarterHours),
        responders: { acks: sorted(x.responders.acks), resolutions: sorted(x.responders.resolutions) },
      });
      expect(comparable(byFacts), String(clientId)).toEqual(comparable(byRollups));
      expect(byFacts.maintenance).toBe(clientId === s.initech ? 0 : 1);
    }
    // The whole tenant's figures through the one-read path are the hand-computed ones above.
    const all = await reportTally(env.deps, { tenantId: s.tenantId, ...PERIOD, clientId: null }, pairs, now, 'facts');
    expect([all.p90Tta, all.p90Ttr, all.groups.reduce((n, g) => n + g.within, 0), all.groups.reduce((n, g) => n + g.eligible, 0)]).toEqual([1200, 7200, 3, 6]);
    expect(all.sources.map((x) => x.source)).toEqual(['mail', 'db-1', 'web-1', 'db-2', 'fw-1']);
    expect(all.issues.map((x) => x.title)).toEqual(['CPU high', 'Disk full', 'Backup failed', 'Firewall down', 'Queue slow', 'Service down']);
  });

  it('answers an empty period with zeros and no times', async () => {
    const { owner } = await registerTeam(t());
    const res = await owner.agent.get(reportUrl(owner.tenantId));
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      opened: 0,
      acknowledged: 0,
      neverAcknowledged: 0,
      mttaSeconds: null,
      p90TtaSeconds: null,
      mttrSeconds: null,
      p90TtrSeconds: null,
      ackWithinTargetShare: null,
      byClient: [],
      topSources: [],
      topIssues: [],
      byResponder: [],
      maintenanceSuppressed: 0,
    });
    expect(res.data.byHourOfWeek).toHaveLength(168);
    expect(res.data.byPriority.map((p: { opened: number }) => p.opened)).toEqual([0, 0, 0, 0, 0]);
  });

  it('counts the first acknowledgement when an alert is acknowledged twice through the API, and leaves open targets undecided', async () => {
    const env = t();
    const { owner, integration, base, raise } = await alertTenant(env.app);
    const policy = await createPolicyVia(owner.agent, owner.tenantId, 'Default', { critical: 15, high: 30, medium: 60, low: 240, info: null }, owner.userId);
    const id = await raise('twice', 'critical');
    const other = await raise('fresh', 'critical');
    // The escalation (not running in these tests) would have recorded the policy that applied.
    await env.deps.db.updateTable('alerts').set({ escalation_policy_id: policy }).where('tenant_id', '=', owner.tenantId).execute();
    await new Promise((r) => setTimeout(r, 30));
    expect((await owner.agent.post(`${base}/${id}/acknowledge`)).statusCode).toBe(200);
    const first = (await owner.agent.get(`${base}/${id}`)).data.alert;
    await new Promise((r) => setTimeout(r, 30));
    // A second acknowledgement, by the monitoring tool and by a person, changes nothing.
    expect((await ingest(env.app, '/api/ingest/events', { action: 'acknowledge', dedupKey: 'twice' }, { authorization: `Bearer ${integration.key}` })).statusCode).toBe(202);
    expect((await owner.agent.post(`${base}/${id}/acknowledge`)).statusCode).toBe(409);
    const after = (await owner.agent.get(`${base}/${id}`)).data.alert;
    expect(after.acknowledgedAt).toBe(first.acknowledgedAt);
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 3600_000).toISOString();
    const res = await owner.agent.get(`/api/tenants/${owner.tenantId}/reports/summary?${new URLSearchParams({ from, to })}`);
    expect(res.statusCode, res.body).toBe(200);
    const tta = (Date.parse(first.acknowledgedAt) - Date.parse(first.createdAt)) / 1000;
    expect(res.data).toMatchObject({ opened: 2, acknowledged: 1, neverAcknowledged: 1, mttaSeconds: Math.round(tta), p90TtaSeconds: Math.round(tta) });
    // The acknowledged one met its 15 minutes; the other's 15 minutes have not passed: not counted either way.
    expect(res.data).toMatchObject({ targetEligible: 1, withinTarget: 1, ackWithinTargetShare: 1 });
    expect(res.data.byResponder).toEqual([{ userId: owner.userId, name: 'Olivia Owner', acknowledged: 1, resolved: 0 }]);
    expect(other).not.toBe(id);
  });

  it('is for owners and admins: members 403, strangers 404, no session 401', async () => {
    const env = t();
    const { owner, admin, user, tenantId } = await registerTeam(env);
    expect((await owner.agent.get(reportUrl(tenantId))).statusCode).toBe(200);
    expect((await admin.agent.get(reportUrl(tenantId))).statusCode).toBe(200);
    const member = await user.agent.get(reportUrl(tenantId));
    expect(member.statusCode).toBe(403);
    expect(member.data.error).toEqual({ code: 'forbidden', message: REPORT_MSG.forbidden });
    const stranger = await registerOwner(env.app, { tenantName: 'Stranger MSP' });
    const foreign = await stranger.agent.get(reportUrl(tenantId));
    expect(foreign.statusCode).toBe(404);
    expect((await stranger.agent.get(reportUrl('no-such-tenant'))).statusCode).toBe(404);
    expect((await new Agent(env.app).get(reportUrl(tenantId))).statusCode).toBe(401);
    // Another tenant's client is no client of this one.
    const theirs = (await createClient(stranger.agent, stranger.tenantId, { name: 'Theirs', status: 'active' })).id;
    const res = await owner.agent.get(reportUrl(tenantId, { clientId: theirs }));
    expect(res.statusCode).toBe(404);
    expect(res.data.error.message).toBe(REPORT_MSG.clientNotFound);
  });

  it('refuses bad periods with 400 naming the field', async () => {
    const { owner, tenantId } = await registerTeam(t());
    const url = (q: Record<string, string>) => `/api/tenants/${tenantId}/reports/summary?${new URLSearchParams(q)}`;
    const cases: Array<[Record<string, string>, Record<string, string>]> = [
      [{ to: PERIOD.to }, { from: REPORT_MSG.required }],
      [{ from: PERIOD.from }, { to: REPORT_MSG.required }],
      [{ from: 'yesterday', to: PERIOD.to }, { from: REPORT_MSG.badTime }],
      [{ from: PERIOD.from, to: '2025-02-30' }, { to: REPORT_MSG.badTime }],
      [{ from: PERIOD.to, to: PERIOD.from }, { from: REPORT_MSG.fromNotBeforeTo, to: REPORT_MSG.toNotAfterFrom }],
      [{ from: PERIOD.from, to: PERIOD.from }, { from: REPORT_MSG.fromNotBeforeTo, to: REPORT_MSG.toNotAfterFrom }],
      [{ from: '2024-01-01', to: '2025-03-01' }, { to: REPORT_MSG.tooLong }],
      [{ ...PERIOD, timeZone: 'Mars/Olympus' }, { timeZone: REPORT_MSG.badTimeZone }],
      [{ from: `2025-03-01\u0000`, to: PERIOD.to }, {}],
    ];
    for (const [q, fields] of cases) {
      const res = await owner.agent.get(url(q));
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.data.error.code, JSON.stringify(q)).toMatch(/validation_failed|bad_request/);
      for (const [field, message] of Object.entries(fields)) expect(res.data.error.fields?.[field], `${JSON.stringify(q)} ${field}`).toBe(message);
    }
    // 400 days exactly, with dates and with offsets, are fine.
    expect((await owner.agent.get(url({ from: '2024-01-01', to: '2025-02-04' }))).statusCode).toBe(200);
    expect((await owner.agent.get(url({ from: '2025-03-03T00:00:00+05:30', to: '2025-03-03T01:00:00+05:30' }))).statusCode).toBe(200);
  });

  it('still reports with an integration bound to a client and a client deleted since', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const client = (await createClient(owner.agent, owner.tenantId, { name: 'Gone Soon', status: 'active' })).id as string;
    const integration = await createIntegration(owner.agent, owner.tenantId, { clientId: client });
    const sent = await ingest(env.app, '/api/ingest/events', { title: 'Ping lost', dedupKey: 'p1', priority: 'high' }, { authorization: `Bearer ${integration.key}` });
    expect(sent.statusCode).toBe(202);
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 3600_000).toISOString();
    const before = await owner.agent.get(`/api/tenants/${owner.tenantId}/reports/summary?${new URLSearchParams({ from, to })}`);
    expect(before.data.byClient).toMatchObject([{ clientId: client, clientName: 'Gone Soon', opened: 1 }]);
    expect((await owner.agent.delete(`/api/tenants/${owner.tenantId}/clients/${client}`)).statusCode).toBe(200);
    const after = await owner.agent.get(`/api/tenants/${owner.tenantId}/reports/summary?${new URLSearchParams({ from, to })}`);
    expect(after.data.byClient).toMatchObject([{ clientId: null, clientName: null, opened: 1 }]);
    expect(after.data.topSources).toEqual([{ source: 'Prometheus', occurrences: 1, alerts: 1 }]);
  });
});
