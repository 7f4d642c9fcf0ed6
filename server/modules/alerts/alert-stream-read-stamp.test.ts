import { beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../app.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { alertTenant, openEventStream, sleep } from '../../test/alerts.ts';
import { answerCounts, mayHaveMissed } from '../../../contract/read-stamp.ts';
import type { AlertList, AlertStats, AlertStreamEvent, ReadStamp, StreamPosition } from '../../../contract/alerts.ts';

/**
 * Issue 33: a dashboard asks for its list and figures while its live stream subscribes, not after its `ready`. A change
 * made between the list's read and the subscription reaches neither: the answers' read stamps and the `ready`'s
 * position must say so (the browser then asks once more, contract/read-stamp.ts), and must not cry wolf otherwise.
 */
describeEachDatabase('alerts: read stamps against the live stream’s ready', (t) => {
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const ready = async (app: FastifyInstance, tenantId: string, cookie: string | null) => {
    const stream = await openEventStream(app, `/api/tenants/${tenantId}/events`, cookie);
    const position = stream.events.find((e) => e.event === 'ready')!.data as StreamPosition;
    return { stream, position };
  };

  it('flags a change made between the list’s read and the subscription, and only then', async () => {
    const { owner, base, raise } = await alertTenant(t().app);
    await raise('before');
    const list = (await owner.agent.get(base)).data as AlertList;
    const stats = (await owner.agent.get(`${base}/stats`)).data as AlertStats;
    expect(list.items.map((a) => a.dedupKey)).toEqual(['before']);
    expect(stats.total).toBe(1);

    // Nothing changed since: the answers are kept as they are (no second request).
    const quiet = await ready(t().app, owner.tenantId, owner.agent.cookie);
    quiet.stream.close();
    expect(mayHaveMissed(list.readStamp, quiet.position)).toBe(false);
    expect(mayHaveMissed(stats.readStamp, quiet.position)).toBe(false);

    // A change after the read, heard before the stream subscribed: the stream will never send it.
    const between = await raise('between');
    const late = await ready(t().app, owner.tenantId, owner.agent.cookie);
    try {
      expect(list.items.some((a) => a.id === between)).toBe(false);
      expect(mayHaveMissed(list.readStamp, late.position)).toBe(true);
      expect(mayHaveMissed(stats.readStamp, late.position)).toBe(true);
      // Asked again (after the subscription), it is there, and that answer misses nothing.
      const again = (await owner.agent.get(base)).data as AlertList;
      expect(again.items.some((a) => a.id === between)).toBe(true);
      expect(mayHaveMissed(again.readStamp, late.position)).toBe(false);
      // What changes after the subscription comes through the stream.
      const after = await raise('after');
      await late.stream.waitFor((e) => e.event === 'alert' && e.data.id === after);
    } finally {
      late.stream.close();
    }
  });

  it('says when each change was heard, so figures read after it do not count it twice', async () => {
    const { owner, base, raise } = await alertTenant(t().app);
    const { stream } = await ready(t().app, owner.tenantId, owner.agent.cookie);
    try {
      const before = (await owner.agent.get(`${base}/stats`)).data as AlertStats;
      const id = await raise('counted-once');
      const event = (await stream.waitFor((e) => e.event === 'alert' && e.data.id === id)).data as AlertStreamEvent;
      const after = (await owner.agent.get(`${base}/stats`)).data as AlertStats;
      expect(before.total).toBe(0);
      expect(after.total).toBe(1);
      expect(event.heard?.instance).toBe(after.readStamp?.instance);
      // Read after the change was heard: the figures hold it, and the dashboard leaves them as they are.
      expect(answerCounts(after.readStamp, event.heard)).toBe('yes');
      // Read before it: they lack it, and it is heard after their read began (counted, or asked for again).
      expect(event.heard!.seq).toBeGreaterThan(before.readStamp!.seq);
      expect(answerCounts(before.readStamp, event.heard)).not.toBe('yes');
      const next = await raise('counted-next');
      const later = (await stream.waitFor((e) => e.event === 'alert' && e.data.id === next)).data as AlertStreamEvent;
      expect(later.heard!.seq).toBeGreaterThan(event.heard!.seq);
    } finally {
      stream.close();
    }
  });

  it('is not fooled by other tenants’ changes', async () => {
    const a = await alertTenant(t().app);
    const b = await alertTenant(t().app);
    const list = (await a.owner.agent.get(a.base)).data as AlertList;
    await b.raise('elsewhere');
    const { stream, position } = await ready(t().app, a.owner.tenantId, a.owner.agent.cookie);
    stream.close();
    expect(mayHaveMissed(list.readStamp, position)).toBe(false);
  });

  it('counts nothing read before the bus reconnected as known (its notices may have been lost meanwhile)', async () => {
    if (t().db.name !== 'postgres') return;
    const { owner, base } = await alertTenant(t().app);
    const list = (await owner.agent.get(base)).data as AlertList;
    const watching = await ready(t().app, owner.tenantId, owner.agent.cookie);
    try {
      // Cut this schema's LISTEN connection, as a database restart or a network blip would.
      const listen = `LISTEN "alertdesk_${t().config.databaseSchema}"`;
      await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where query = ${listen}`.execute(t().deps.db)).rows[0].n).toBe(1);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where query = ${listen}`.execute(t().deps.db);
      await watching.stream.waitFor((e) => e.event === 'resync', 5000);
    } finally {
      watching.stream.close();
    }
    const after = await ready(t().app, owner.tenantId, owner.agent.cookie);
    after.stream.close();
    expect(mayHaveMissed(list.readStamp, after.position)).toBe(true);
    // An answer read after the reconnection is known again.
    expect(mayHaveMissed(((await owner.agent.get(base)).data as AlertList).readStamp, after.position)).toBe(false);
  });

  it('keeps every change across two server instances: the list from one, the stream from the other', async () => {
    // Only PostgreSQL is shared by several instances (LISTEN/NOTIFY); SQLite runs as one process.
    if (t().db.name !== 'postgres') return;
    const { owner, base, raise } = await alertTenant(t().app);
    const second = await buildApp({ ...t().config }, { logger: false });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      await sleep(300); // the second instance's LISTEN connection settles
      const viaSecond = new Agent(second.app);
      viaSecond.cookie = owner.agent.cookie;
      const list = (await viaSecond.get(base)).data as AlertList;
      const stamp = list.readStamp as ReadStamp;

      // The change is made on the first instance; the second hears it through the bus before the stream subscribes.
      const between = await raise('between-instances');
      await sleep(300);
      const onFirst = await ready(t().app, owner.tenantId, owner.agent.cookie);
      onFirst.stream.close();
      expect(onFirst.position.instance).not.toBe(stamp.instance);
      expect(list.items.some((a) => a.id === between)).toBe(false);
      expect(mayHaveMissed(stamp, onFirst.position)).toBe(true);

      // The same on the second instance (the list's own), heard from the other one through the bus.
      const onSecond = await ready(second.app, owner.tenantId, owner.agent.cookie);
      onSecond.stream.close();
      expect(onSecond.position.instance).toBe(stamp.instance);
      expect(mayHaveMissed(stamp, onSecond.position)).toBe(true);
    } finally {
      await second.app.close();
    }
  });
});
