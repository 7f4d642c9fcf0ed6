import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { alertTenant, openEventStream } from '../../test/alerts.ts';
import { enqueueJobs, listAlertJobs } from '../../jobs/jobs.repository.ts';

describeEachDatabase('alerts: bulk actions', (t) => {
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const tenant = () => alertTenant(t().app);

  describe('bulk actions', () => {
    const CHANGED = 'This alert has changed meanwhile and no longer allows this action. Its current state is shown.';
    const timeline = async (agent: Agent, base: string, id: string) =>
      // Without a policy, each alert's timeline also says it paged nobody (`unrouted`, from its start): not the bulk action's.
      ((await agent.get(`${base}/${id}`)).data.timeline as any[]).filter((e) => e.kind !== 'unrouted').map((e) => [e.kind, e.actorType, e.actorId, e.actorName]);

    it('acknowledges each alert as its single action would; one resolved meanwhile is refused with 409 and left as it is', async () => {
      const { owner, base, raise } = await tenant();
      const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
      const memberName = (await member.agent.get('/api/me')).data.user.displayName;
      const first = await raise('bulk-1');
      const second = await raise('bulk-2');
      // Meanwhile, a colleague acknowledges and resolves the second one.
      await owner.agent.post(`${base}/${second}/acknowledge`);
      await owner.agent.post(`${base}/${second}/resolve`);
      const before = (await owner.agent.get(`${base}/${second}`)).data;
      // Pending escalation steps of the first alert (as the engine schedules them) go with its acknowledgement.
      await enqueueJobs(t().deps.db, [{ kind: 'escalation.step', uniqueKey: `step:${first}`, dueAt: new Date(Date.now() + 60_000), payload: {}, tenantId: owner.tenantId, alertId: first }], new Date());
      const stream = await openEventStream(t().app, `/api/tenants/${owner.tenantId}/events`, owner.agent.cookie);
      try {
        // A plain member may: every member may act on the tenant's alerts, one at a time or several.
        const res = await member.agent.post(`${base}/bulk`, { action: 'acknowledge', alertIds: [first, second] });
        expect(res.statusCode).toBe(200);
        expect(res.data).toMatchObject({ succeeded: 1, failed: 1 });
        expect(res.data.results.map((r: any) => r.id)).toEqual([first, second]);
        expect(res.data.results[0]).toMatchObject({ id: first, ok: true, alert: { id: first, status: 'acknowledged', acknowledgedBy: member.userId, actions: ['startWork', 'resolve', 'assign', 'addNote'] } });
        expect(res.data.results[0].error).toBeUndefined();
        expect(res.data.results[1]).toEqual({ id: second, ok: false, error: { status: 409, code: 'conflict', message: CHANGED } });

        const changed = await stream.waitFor((e) => e.event === 'alert' && e.data.id === first && e.data.kind === 'updated');
        expect(changed.data.status).toBe('acknowledged');
      } finally {
        stream.close();
      }
      expect(await listAlertJobs(t().deps.db, owner.tenantId, first)).toEqual([]);
      const firstDetail = (await owner.agent.get(`${base}/${first}`)).data;
      expect(firstDetail.acknowledgedByName).toBe(memberName);
      expect(await timeline(owner.agent, base, first)).toEqual([
        ['triggered', 'integration', expect.any(String), 'Prometheus'],
        ['acknowledged', 'user', member.userId, memberName],
      ]);
      // The refused one is exactly as it was: no change, no timeline entry.
      expect((await owner.agent.get(`${base}/${second}`)).data).toEqual(before);
    });

    it('reports another tenant’s alert and a missing one as not found, and still changes the tenant’s own', async () => {
      const a = await tenant();
      const b = await tenant();
      const own = await a.raise('own');
      const foreign = await b.raise('foreign');
      const acked = await a.owner.agent.post(`${a.base}/bulk`, { action: 'acknowledge', alertIds: [foreign, own, 'missing-id', own] });
      expect(acked.statusCode).toBe(200);
      // In the given order, the repeated id once.
      expect(acked.data.results.map((r: any) => [r.id, r.ok, r.error?.status])).toEqual([
        [foreign, false, 404],
        [own, true, undefined],
        ['missing-id', false, 404],
      ]);
      expect(acked.data.results[0].error).toEqual({ status: 404, code: 'not_found', message: 'Alert not found' });
      expect(acked.data).toMatchObject({ succeeded: 1, failed: 2 });
      expect((await b.owner.agent.get(`${b.base}/${foreign}`)).data.alert.status).toBe('new');
      expect((await a.owner.agent.get(`${a.base}/${own}`)).data.alert.status).toBe('acknowledged');

      const resolved = await a.owner.agent.post(`${a.base}/bulk`, { action: 'resolve', alertIds: [own, foreign] });
      expect(resolved.data.results.map((r: any) => [r.ok, r.alert?.status ?? r.error.status])).toEqual([
        [true, 'resolved'],
        [false, 404],
      ]);
      expect(resolved.data.results[0].alert).toMatchObject({ resolvedBy: a.owner.userId, actions: ['close', 'addNote'] });
      expect((await timeline(a.owner.agent, a.base, own)).slice(1)).toEqual([
        ['acknowledged', 'user', a.owner.userId, 'Olivia Owner'],
        ['resolved', 'user', a.owner.userId, 'Olivia Owner'],
      ]);
      expect((await b.owner.agent.get(`${b.base}/${foreign}`)).data.alert.status).toBe('new');
      // The other tenant's alerts, through the other tenant's URL, are not the caller's: the whole request is 404.
      const theirUrl = await a.owner.agent.post(`${b.base}/bulk`, { action: 'acknowledge', alertIds: [foreign] });
      expect(theirUrl.statusCode).toBe(404);
      expect((await new Agent(t().app).post(`${a.base}/bulk`, { action: 'acknowledge', alertIds: [own] })).statusCode).toBe(401);
    });

    it('resolves new, acknowledged and in-progress alerts; one resolved or closed already is done, not refused', async () => {
      const { owner, base, raise } = await tenant();
      const acked = await raise('r-acked');
      const started = await raise('r-started');
      const fresh = await raise('r-new');
      const done = await raise('r-done');
      const closed = await raise('r-closed');
      await owner.agent.post(`${base}/${acked}/acknowledge`);
      await owner.agent.post(`${base}/${started}/acknowledge`);
      await owner.agent.post(`${base}/${started}/start`);
      for (const id of [done, closed]) await owner.agent.post(`${base}/${id}/resolve`);
      await owner.agent.post(`${base}/${closed}/close`);
      const before = await timeline(owner.agent, base, done);
      const res = await owner.agent.post(`${base}/bulk`, { action: 'resolve', alertIds: [acked, started, fresh, done, closed] });
      expect(res.data.results.map((r: any) => [r.ok, r.alert.status, r.unchanged?.message])).toEqual([
        [true, 'resolved', undefined],
        [true, 'resolved', undefined],
        [true, 'resolved', undefined],
        [true, 'resolved', 'Already resolved'],
        [true, 'closed', 'Already resolved'],
      ]);
      expect(res.data.results[3].unchanged).toEqual({ code: 'already_resolved', message: 'Already resolved' });
      expect(res.data).toMatchObject({ succeeded: 5, failed: 0 });
      // A new alert is resolved straight away: never acknowledged, and the timeline says who resolved it.
      expect(res.data.results[2].alert).toMatchObject({ status: 'resolved', resolvedBy: owner.userId, acknowledgedAt: null, acknowledgedBy: null });
      expect((await timeline(owner.agent, base, fresh)).slice(1)).toEqual([['resolved', 'user', owner.userId, 'Olivia Owner']]);
      // Nothing was done to the one already resolved: no second entry.
      expect(await timeline(owner.agent, base, done)).toEqual(before);
    });

    it('counts an alert a colleague acknowledged meanwhile (or is working on) as already acknowledged, not as changed meanwhile', async () => {
      const { owner, base, raise } = await tenant();
      const colleague = await addMember(t().deps, t().app, owner.tenantId, 'user');
      const colleagueName = (await colleague.agent.get('/api/me')).data.user.displayName;
      const fresh = await raise('a-new');
      const acked = await raise('a-acked');
      const started = await raise('a-started');
      const resolved = await raise('a-resolved');
      // The owner selected all four while they were new; meanwhile the colleague acknowledged two (and started one),
      // and resolved another.
      for (const id of [acked, started]) await colleague.agent.post(`${base}/${id}/acknowledge`);
      await colleague.agent.post(`${base}/${started}/start`);
      await colleague.agent.post(`${base}/${resolved}/resolve`);
      const ackedBefore = (await owner.agent.get(`${base}/${acked}`)).data;

      const res = await owner.agent.post(`${base}/bulk`, { action: 'acknowledge', alertIds: [fresh, acked, started, resolved] });
      expect(res.statusCode).toBe(200);
      expect(res.data).toMatchObject({ succeeded: 3, failed: 1 });
      const [one, two, three, four] = res.data.results;
      expect(one).toMatchObject({ id: fresh, ok: true, alert: { status: 'acknowledged', acknowledgedBy: owner.userId } });
      expect(one.unchanged).toBeUndefined();
      // Done already, by the colleague: reported as such with the alert as it is, and left exactly as it was.
      expect(two).toEqual({ id: acked, ok: true, alert: ackedBefore.alert, unchanged: { code: 'already_acknowledged', message: 'Already acknowledged' } });
      expect(two.alert).toMatchObject({ status: 'acknowledged', acknowledgedBy: colleague.userId });
      expect(three).toMatchObject({ id: started, ok: true, alert: { status: 'in_progress', acknowledgedBy: colleague.userId }, unchanged: { code: 'already_acknowledged', message: 'Already acknowledged' } });
      expect(three.error).toBeUndefined();
      // Resolved is not acknowledged (a new alert may be resolved straight away): that one did change meanwhile.
      expect(four).toEqual({ id: resolved, ok: false, error: { status: 409, code: 'conflict', message: CHANGED } });
      expect((await owner.agent.get(`${base}/${acked}`)).data).toEqual(ackedBefore);
      expect((await timeline(owner.agent, base, started)).slice(1)).toEqual([
        ['acknowledged', 'user', colleague.userId, colleagueName],
        ['started', 'user', colleague.userId, colleagueName],
      ]);
    });

    it('assigns several alerts to a member, and refuses a non-member for each alert with 400', async () => {
      const { owner, base, raise } = await tenant();
      const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
      const memberName = (await member.agent.get('/api/me')).data.user.displayName;
      const outsider = await registerOwner(t().app);
      const one = await raise('as-1');
      const two = await raise('as-2');
      const done = await raise('as-done');
      await owner.agent.post(`${base}/${done}/acknowledge`);
      await owner.agent.post(`${base}/${done}/resolve`);

      const refused = await owner.agent.post(`${base}/bulk`, { action: 'assign', alertIds: [one, two], userId: outsider.userId });
      expect(refused.statusCode).toBe(200);
      expect(refused.data).toEqual({
        results: [one, two].map((id) => ({ id, ok: false, error: { status: 400, code: 'bad_request', message: 'This person is not a member of this organization' } })),
        succeeded: 0,
        failed: 2,
      });
      for (const id of [one, two]) expect((await owner.agent.get(`${base}/${id}`)).data.alert.assignedTo).toBeNull();

      const res = await member.agent.post(`${base}/bulk`, { action: 'assign', alertIds: [one, two, done], userId: ` ${member.userId} ` });
      expect(res.data.results.map((r: any) => (r.ok ? r.alert.assigneeName : r.error.status))).toEqual([memberName, memberName, 409]);
      expect(res.data.results[0].alert).toMatchObject({ assignedTo: member.userId, status: 'new' });
      const entry = ((await owner.agent.get(`${base}/${two}`)).data.timeline as any[]).find((e) => e.kind === 'assigned');
      expect(entry).toMatchObject({ actorType: 'user', actorId: member.userId, actorName: memberName, detail: { assigneeId: member.userId, assigneeName: memberName } });
      // An assignment is not an acknowledgement: the alert stays new and nobody acknowledged it.
      expect((await owner.agent.get(`${base}/${two}`)).data.alert).toMatchObject({ status: 'new', acknowledgedBy: null });
    });

    it('validates the body with the field messages', async () => {
      const { owner, base, raise } = await tenant();
      const id = await raise('v');
      const cases: Array<[unknown, string, string]> = [
        [{ action: 'acknowledge', alertIds: [] }, 'alertIds', 'Choose at least one alert'],
        [{ action: 'acknowledge' }, 'alertIds', 'Choose at least one alert'],
        [{ action: 'acknowledge', alertIds: Array.from({ length: 101 }, (_, i) => `id-${i}`) }, 'alertIds', 'At most 100 alerts at once'],
        [{ action: 'assign', alertIds: [id] }, 'userId', 'Choose a member to assign'],
        [{ action: 'close', alertIds: [id] }, 'action', 'Choose an action: acknowledge, resolve, assign, snooze or unsnooze'],
        [{ alertIds: [id] }, 'action', 'Choose an action: acknowledge, resolve, assign, snooze or unsnooze'],
      ];
      for (const [body, field, message] of cases) {
        const res = await owner.agent.post(`${base}/bulk`, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.data.error.code).toBe('validation_failed');
        expect(res.data.error.fields[field], JSON.stringify(body).slice(0, 80)).toBe(message);
      }
      // An empty assignee is refused on its field too (the contract gives it zod's own text, not ALERT_MSG's).
      const blank = await owner.agent.post(`${base}/bulk`, { action: 'assign', alertIds: [id], userId: '  ' });
      expect(blank.statusCode).toBe(400);
      expect(Object.keys(blank.data.error.fields)).toEqual(['userId']);
      // 100 distinct ids are allowed (each then answered on its own), and 101 copies of one id are one alert.
      const hundred = await owner.agent.post(`${base}/bulk`, { action: 'acknowledge', alertIds: [id, ...Array.from({ length: 99 }, (_, i) => `missing-${i}`)] });
      expect(hundred.data).toMatchObject({ succeeded: 1, failed: 99 });
      const copies = await owner.agent.post(`${base}/bulk`, { action: 'acknowledge', alertIds: Array.from({ length: 100 }, () => id) });
      expect(copies.data).toMatchObject({ results: [{ id, ok: true, unchanged: { code: 'already_acknowledged' } }], succeeded: 1, failed: 0 });
      expect(copies.data.results).toHaveLength(1);
    });

    it('ends the request when the database fails (503) or something unexpected breaks (500) instead of reporting it per alert', async () => {
      const { owner, base, raise } = await tenant();
      const one = await raise('f-1');
      const two = await raise('f-2');
      const db = t().deps.db;
      const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      for (const [error, status, code] of [
        [down, 503, 'unavailable'],
        [new Error('boom'), 500, 'internal'],
      ] as const) {
        const spy = vi.spyOn(db, 'transaction').mockImplementation(() => ({ execute: () => Promise.reject(error) }) as any);
        try {
          const res = await owner.agent.post(`${base}/bulk`, { action: 'acknowledge', alertIds: [one, two] });
          expect(res.statusCode).toBe(status);
          expect(res.data.error.code).toBe(code);
          if (status === 503) expect(res.headers['retry-after']).toBe('5');
        } finally {
          spy.mockRestore();
        }
      }
      for (const id of [one, two]) expect((await owner.agent.get(`${base}/${id}`)).data.alert.status).toBe('new');
    });
  });

});
