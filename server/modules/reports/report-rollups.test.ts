import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { AlertsTable } from '../../db/schema.ts';
import { describeEachDatabase, type TestEnv } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { createClient } from '../../test/clients.ts';
import { alertRow } from '../../test/alerts.ts';
import { targetPairs, type TargetPair } from './report-figures.ts';
import { forgetCachedSums } from './report-rollups.ts';
import type { Tally } from './report-tally.ts';
import { reportTally } from './reports.service.ts';
import * as repo from './reports.repository.ts';

/**
 * Issue 31's speed: the whole tenant's summary adds stored rollups of settled alerts to its unsettled alerts read live.
 * Held here, step by step on a moving clock, to the same period's alerts read once and summed (the reference path, held
 * to hand-computed figures in reports.test.ts): bounds off the hour, alerts acknowledged, resolved and growing after the
 * rollups were written, the watermark moving on, the period sliding, targets changed, a client deleted.
 */
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const BASE = Date.parse('2025-03-01T00:00:00.000Z');

async function insertAlert(env: TestEnv, tenantId: string, a: Partial<AlertsTable> & { created_at: string; priority: AlertsTable['priority'] }) {
  const id = randomUUID();
  const status = a.status ?? (a.resolved_at ? 'resolved' : a.acknowledged_at ? 'acknowledged' : 'new');
  await env.deps.db
    .insertInto('alerts')
    .values(alertRow(tenantId, { id, status, source: 'db-1', search_text: '', escalation_state: 'none', escalation_policy_id: null, ...a }))
    .execute();
  return id;
}

const key = (v: unknown) => JSON.stringify(v);
const sorted = <T>(list: T[]) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
const comparable = (x: Tally) => ({
  ...x,
  groups: sorted(x.groups.map((g) => ({ ...g, ttaSum: Math.round(g.ttaSum * 1000), ttrSum: Math.round(g.ttrSum * 1000) }))),
  quarterHours: sorted(x.quarterHours),
  responders: { acks: sorted(x.responders.acks), resolutions: sorted(x.responders.resolutions) },
});

describeEachDatabase('report rollups', (t) => {
  async function seeded() {
    const env = t();
    const owner = await registerOwner(env.app);
    const tenantId = owner.tenantId;
    const clientA = (await createClient(owner.agent, tenantId, { name: 'Alpha', status: 'active' })).id as string;
    const clientB = (await createClient(owner.agent, tenantId, { name: 'Beta', status: 'active' })).id as string;
    const policy = (
      await owner.agent.post(`/api/tenants/${tenantId}/escalationPolicies`, { name: 'Standard', escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null }, level_1: { userIds: [owner.userId] } })
    ).data.id as string;
    const priorities: AlertsTable['priority'][] = ['critical', 'high', 'medium', 'low', 'info'];
    const ids: string[] = [];
    // 90 alerts over a week, every 1 h 53 min 17.250 s: acknowledged (two in three, after 71 s to 8 min) and resolved
    // (three in four) at odd milliseconds, by the owner or the monitoring tool, three clients (one none), three sources, four titles.
    for (let i = 0; i < 90; i++) {
      const created = BASE + i * (113 * MIN + 17_250);
      const ack = i % 3 !== 0 ? created + 71_230 * ((i % 7) + 1) : null;
      const res = i % 4 !== 0 ? created + 611_001 * ((i % 5) + 1) : null;
      ids.push(
        await insertAlert(env, tenantId, {
          created_at: iso(created),
          priority: priorities[i % 5],
          client_id: [clientA, clientB, null][i % 3],
          escalation_policy_id: i % 6 === 5 ? null : policy,
          acknowledged_at: ack === null ? null : iso(ack),
          acknowledged_by: ack === null || i % 2 ? null : owner.userId,
          resolved_at: res === null ? null : iso(res),
          resolved_by: res === null || i % 3 === 1 ? null : owner.userId,
          status: res === null ? (ack === null ? 'new' : 'acknowledged') : i % 8 === 1 ? 'closed' : 'resolved',
          source: ['db-1', 'web-1', 'mail'][i % 3],
          title: ['Disk full', 'CPU high', 'Service down', 'Backup failed'][i % 4],
          occurrences: 1 + (i % 3),
          maintenance_window_id: i % 10 === 0 ? 'patch-night' : null,
        }),
      );
    }
    return { env, owner, tenantId, clientA, clientB, policy, ids };
  }

  /** Both paths over [from, to) at `now` (ms) agree, and the rollup path's opened count is `opened`. */
  async function agree(env: TestEnv, tenantId: string, pairs: readonly TargetPair[], from: number, now: number, opened: number, to = now) {
    const scope = { tenantId, from: iso(from), to: iso(to), clientId: null };
    const rolled = await reportTally(env.deps, scope, pairs, new Date(now), 'rollups');
    const read = await reportTally(env.deps, scope, pairs, new Date(now), 'facts');
    expect(comparable(rolled), `${scope.from} – ${scope.to} at ${iso(now)}`).toEqual(comparable(read));
    expect(rolled.groups.reduce((n, g) => n + g.opened, 0)).toBe(opened);
    return rolled;
  }

  it('sums a period from its rollups and its live alerts exactly as from the alerts themselves, as the alerts change', async () => {
    const { env, tenantId, policy, ids } = await seeded();
    const db = env.deps.db;
    let pairs = targetPairs([{ id: policy, escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null } }]);
    let now = BASE + 7 * 24 * 60 * MIN + 37 * MIN;
    // Bounds off the hour: an edge at each end read live. The first report writes the rollups.
    const from = BASE + 5 * 60 * MIN + 17 * MIN + 456;
    await agree(env, tenantId, pairs, from, now, 87);
    const state = await repo.rollupState(db, tenantId);
    expect(state).toMatchObject({ covered_from: '2025-03-01T06:00:00.000Z', covered_to: '2025-03-08T00:00:00.000Z', settled_to: iso(now - 5 * MIN) });
    const rows = await repo.rollupRows(db, tenantId, state!.covered_from, state!.covered_to, null, state!.settled_to);
    expect(rows.length).toBeGreaterThan(40);

    // After the rollups: an open alert acknowledged, another resolved unacknowledged (its target decided later),
    // an open one repeating (occurrences grow), a resolved one closed (nothing of it changes).
    const open = ids.filter((_, i) => i % 4 === 0 && i > 3);
    now += 3 * MIN;
    await db.updateTable('alerts').set({ status: 'acknowledged', acknowledged_at: iso(now - MIN), acknowledged_by: null }).where('id', '=', open[0]).execute();
    await db.updateTable('alerts').set({ status: 'resolved', resolved_at: iso(now - 30_000), resolved_by: null }).where('id', '=', open[1]).execute();
    await db.updateTable('alerts').set({ occurrences: 40 }).where('id', '=', open[2]).execute();
    await db.updateTable('alerts').set({ status: 'closed', closed_at: iso(now) }).where('id', '=', ids[1]).execute();
    const live = await agree(env, tenantId, pairs, from, now, 87);
    expect(live.sources[0]).toMatchObject({ occurrences: expect.any(Number) });
    expect((await repo.rollupState(db, tenantId))!.settled_to).toBe(state!.settled_to);

    // Later: the watermark moves on (the resolution above goes into a new row), the period slides by hours.
    now += 20 * MIN;
    await agree(env, tenantId, pairs, from + 2 * 60 * MIN, now, 86);
    const moved = await repo.rollupState(db, tenantId);
    expect(moved!.settled_to).toBe(iso(now - 5 * MIN));
    expect(moved!.generation).toBe(state!.generation);
    // What settled in between (the resolution above among it) is in rows of the new watermark.
    expect((await repo.rollupRows(db, tenantId, moved!.covered_from, moved!.covered_to, state!.settled_to, moved!.settled_to)).length).toBeGreaterThanOrEqual(1);
    // Back to the first period and on to a wider one (more hours covered), warm and from a cold process.
    await agree(env, tenantId, pairs, from, now, 87);
    await agree(env, tenantId, pairs, BASE - 60 * MIN, now, 90, now + 60 * MIN);
    forgetCachedSums(db);
    await agree(env, tenantId, pairs, BASE + 30 * MIN, now, 89);
    // An unacknowledged alert resolved before its target passed is undecided until it has: read live, then from a
    // row written before it passed.
    await insertAlert(env, tenantId, { created_at: iso(now - 2 * MIN), priority: 'critical', escalation_policy_id: policy, resolved_at: iso(now - MIN), status: 'resolved' });
    const eligible = (x: Tally) => x.groups.reduce((n, g) => n + g.eligible, 0);
    const live1 = eligible(await agree(env, tenantId, pairs, BASE, now + MIN, 91));
    const rowed = await agree(env, tenantId, pairs, BASE, now + 12 * MIN, 91);
    expect((await repo.rollupState(db, tenantId))!.settled_to).toBe(iso(now + 7 * MIN));
    expect(eligible(rowed)).toBe(live1);
    expect(eligible(await agree(env, tenantId, pairs, BASE, now + 14 * MIN, 91))).toBe(live1 + 1);
    now += 14 * MIN;

    // New targets: the rollups are summed again under them.
    pairs = targetPairs([{ id: policy, escalationTimes: { critical: 1, high: 2, medium: 3, low: 4, info: 5 } }]);
    await agree(env, tenantId, pairs, from, now, 88);
    expect((await repo.rollupState(db, tenantId))!.generation).not.toBe(state!.generation);
  });

  it('shows a deleted client’s alerts as of no client and a changed target at once, though rolled up before', async () => {
    const { owner, tenantId, clientA, policy } = await seeded();
    const url = `/api/tenants/${tenantId}/reports/summary?${new URLSearchParams({ from: iso(BASE), to: iso(BASE + 8 * 24 * 60 * MIN) })}`;
    const before = (await owner.agent.get(url)).data;
    const alpha = before.byClient.find((c: { clientId: string | null }) => c.clientId === clientA);
    const none = before.byClient.find((c: { clientId: string | null }) => c.clientId === null);
    expect([alpha.opened, none.opened]).toEqual([30, 30]);
    expect((await owner.agent.delete(`/api/tenants/${tenantId}/clients/${clientA}`)).statusCode).toBe(200);
    const after = (await owner.agent.get(url)).data;
    expect(after.byClient.map((c: { clientId: string | null; opened: number }) => [c.clientId, c.opened])).toEqual([
      [null, 60],
      [expect.any(String), 30],
    ]);
    expect(after.opened).toBe(90);
    expect(after.withinTarget).toBe(before.withinTarget);
    // Every acknowledgement took at least 7 s: a 1-minute critical target now counts fewer within than 15 minutes did.
    const policyBody = { name: 'Standard', escalationTimes: { critical: 1, high: 30, medium: 60, low: 240, info: null }, level_1: { userIds: [owner.userId] } };
    expect((await owner.agent.put(`/api/tenants/${tenantId}/escalationPolicies/${policy}`, policyBody)).statusCode).toBe(200);
    const stricter = (await owner.agent.get(url)).data;
    expect(stricter.byPriority[0].targetMinutes).toEqual({ min: 1, max: 1 });
    expect(stricter.byPriority[0].withinTarget).toBeLessThan(before.byPriority[0].withinTarget);
  });

  it('goes with its tenant', async () => {
    const { env, owner, tenantId } = await seeded();
    expect((await owner.agent.get(`/api/tenants/${tenantId}/reports/summary?${new URLSearchParams({ from: iso(BASE), to: iso(BASE + 8 * 24 * 60 * MIN) })}`)).statusCode).toBe(200);
    expect(await repo.rollupState(env.deps.db, tenantId)).toBeDefined();
    await env.deps.db.deleteFrom('alerts').where('tenant_id', '=', tenantId).execute();
    await env.deps.db.deleteFrom('tenants').where('id', '=', tenantId).execute();
    expect(await repo.rollupState(env.deps.db, tenantId)).toBeUndefined();
    expect(await repo.rollupRows(env.deps.db, tenantId, '2000', '3000', null, '3000')).toEqual([]);
  });
});
