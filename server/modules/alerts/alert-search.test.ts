import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { alertRow, createIntegration, ingest } from '../../test/alerts.ts';
import { trigramQuery } from './alert-history.repository.ts';
import type { AlertsTable } from '../../db/schema.ts';

// The alert text search: a case-insensitive substring of title, source, dedup key and description, `%` and `_`
// literal, served by a trigram index (migration 0012: FTS5 on SQLite, pg_trgm on PostgreSQL) with exactly the results
// of the plain LIKE alone.
describeEachDatabase('alert text search', (t) => {
  const tenant = async () => {
    const owner = await registerOwner(t().app);
    const integration = await createIntegration(owner.agent, owner.tenantId);
    const base = `/api/tenants/${owner.tenantId}/alerts`;
    const send = async (body: Record<string, unknown>) => {
      const res = await ingest(t().app, '/api/ingest/events', body, { authorization: `Bearer ${integration.key}` });
      if (res.statusCode !== 202) throw new Error(res.body);
      return res.data.alertId as string;
    };
    const raise = (dedupKey: string, title: string, more: Record<string, unknown> = {}) => send({ title, dedupKey, ...more });
    const resolve = (dedupKey: string) => send({ action: 'resolve', dedupKey });
    /** Ids found by the history and by the active list for a text, each sorted. */
    const search = async (q: string) => {
      const found = { history: [] as string[], active: [] as string[] };
      for (const [list, url] of [
        ['history', `${base}/history?pageSize=100&q=${encodeURIComponent(q)}`],
        ['active', `${base}?pageSize=100&q=${encodeURIComponent(q)}`],
      ] as const) {
        const res = await owner.agent.get(url);
        expect(res.statusCode, `${list} ${q}`).toBe(200);
        expect(res.data.total, `${list} ${q}`).toBe(res.data.items.length);
        found[list] = res.data.items.map((a: { id: string }) => a.id).sort();
      }
      return found;
    };
    return { owner, integration, base, raise, resolve, search };
  };

  /**
   * SQLite only: the index is sound (FTS5's own check of its structure) and holds exactly the history alerts (resolved
   * and closed), each with its text: every one is found by its own text's trigrams, and no other row is in it.
   */
  const ftsConsistent = async () => {
    if (t().db.name !== 'sqlite') return;
    const db = t().deps.db;
    await sql`insert into alerts_fts (alerts_fts) values ('integrity-check')`.execute(db);
    const { rows: indexed } = await sql<{ id: number }>`select id from alerts_fts_docsize order by id`.execute(db);
    const { rows: history } = await sql<{ rowid: number; search_text: string }>`select rowid, search_text from alerts where status in ('resolved', 'closed') order by rowid`.execute(db);
    expect(indexed.map((r) => Number(r.id))).toEqual(history.map((r) => Number(r.rowid)));
    for (const row of history) {
      const fts = trigramQuery(row.search_text);
      if (!fts) continue;
      const { rows } = await sql<{ rowid: number }>`select rowid from alerts_fts where alerts_fts match ${fts}`.execute(db);
      expect(rows.map((r) => Number(r.rowid))).toContain(Number(row.rowid));
    }
  };
  /** SQLite only: the FTS5 table's stored index, to see whether a write touched it. */
  const ftsData = async () => {
    if (t().db.name !== 'sqlite') return null;
    const { rows } = await sql<{ id: number; block: Uint8Array }>`select id, block from alerts_fts_data order by id`.execute(t().deps.db);
    return rows.map((r) => `${r.id}:${Buffer.from(r.block).toString('hex')}`).join(',');
  };

  it('finds a substring anywhere, in any case, in title, source, dedup key and description, open and resolved alike', async () => {
    const { raise, resolve, search } = await tenant();
    const fs = await raise('nas-7-fs', 'Filesystem /var almost FULL on NAS-7', { source: 'nas-7.storage.example' });
    const cert = await raise('cert-exp', 'Certificate expires soon', { description: 'The TLS certificate of Überhitzung-Portal runs out in 3 days' });
    const fire = await raise('fire-1', '🔥 fire in rack B', { source: 'dc-süd' });
    const key = await raise('ZZ-Backup-Job-4711', 'Backup failed');
    await resolve('nas-7-fs');
    await resolve('ZZ-Backup-Job-4711');

    // The middle of a word, any case on either side.
    expect(await search('ystem /v')).toEqual({ history: [fs], active: [] });
    expect(await search('SYSTEM /VAR ALMOST full')).toEqual({ history: [fs], active: [] });
    expect(await search('storage.exam')).toEqual({ history: [fs], active: [] });
    expect(await search('job-47')).toEqual({ history: [key], active: [] });
    expect(await search('überhitzung-p')).toEqual({ history: [], active: [cert] });
    expect(await search('ÜBERHITZUNG')).toEqual({ history: [], active: [cert] });
    expect(await search('runs out in 3')).toEqual({ history: [], active: [cert] });
    expect(await search('🔥 f')).toEqual({ history: [], active: [fire] });
    expect(await search('-SÜD')).toEqual({ history: [], active: [fire] });
    // Every trigram of the text occurs in the alert, but not in one piece: no match.
    expect(await search('filesystem full')).toEqual({ history: [], active: [] });
    expect(await search('var almost full on nas-8')).toEqual({ history: [], active: [] });
    expect(await search('no such thing anywhere')).toEqual({ history: [], active: [] });
    // One and two characters (too short for a trigram) still search.
    expect(await search('7')).toEqual({ history: [fs, key].sort(), active: [] });
    expect(await search('ü')).toEqual({ history: [], active: [cert, fire].sort() });
    expect(await search('4 7')).toEqual({ history: [], active: [] });
    expect(await search('üb')).toEqual({ history: [], active: [cert] });
    expect(await search('🔥')).toEqual({ history: [], active: [fire] });
    expect(await search('/V')).toEqual({ history: [fs], active: [] });
  });

  it('takes %, _, \\, quotes and full-text query syntax literally', async () => {
    const { raise, resolve, search } = await tenant();
    const pct = await raise('p', 'CPU at 100% on web_1');
    const plain = await raise('q', 'CPU at 1000 on webx1');
    const quoted = await raise('r', `Say "hello" to 'world' \\ back`);
    const syntax = await raise('s', 'Query (a OR b) AND NOT c* NEAR d: ^e');
    for (const k of ['p', 'q', 'r', 's']) await resolve(k);

    expect(await search('100%')).toEqual({ history: [pct], active: [] });
    expect(await search('at 100% on web_')).toEqual({ history: [pct], active: [] });
    expect(await search('at 100')).toEqual({ history: [pct, plain].sort(), active: [] });
    expect(await search('b_1')).toEqual({ history: [pct], active: [] });
    expect(await search('%')).toEqual({ history: [pct], active: [] });
    expect(await search('_')).toEqual({ history: [pct], active: [] });
    expect(await search('%_')).toEqual({ history: [], active: [] });
    expect(await search('0%')).toEqual({ history: [pct], active: [] });
    expect(await search('\\')).toEqual({ history: [quoted], active: [] });
    expect(await search('\\ b')).toEqual({ history: [quoted], active: [] });
    expect(await search('"')).toEqual({ history: [quoted], active: [] });
    expect(await search(`"hello" to 'w`)).toEqual({ history: [quoted], active: [] });
    expect(await search(`o" t`)).toEqual({ history: [quoted], active: [] });
    expect(await search(`'world'`)).toEqual({ history: [quoted], active: [] });
    expect(await search(`""`)).toEqual({ history: [], active: [] });
    expect(await search(`"""`)).toEqual({ history: [], active: [] });
    expect(await search(`'`)).toEqual({ history: [quoted], active: [] });
    expect(await search('(a or b) and not c*')).toEqual({ history: [syntax], active: [] });
    expect(await search('a OR b')).toEqual({ history: [syntax], active: [] });
    expect(await search('c* near d: ^e')).toEqual({ history: [syntax], active: [] });
    expect(await search('a OR c')).toEqual({ history: [], active: [] });
    expect(await search('*')).toEqual({ history: [syntax], active: [] });
    expect(await search('hello world')).toEqual({ history: [], active: [] });
  });

  it('finds the resolved alert and the new one raised with the same key after it, each in its list', async () => {
    const { raise, resolve, search } = await tenant();
    const first = await raise('flap-1', 'Link flapping on sw-core-3');
    await resolve('flap-1');
    const second = await raise('flap-1', 'Link flapping on sw-core-3');
    expect(second).not.toBe(first);
    expect(await search('flapping on sw-core')).toEqual({ history: [first], active: [second] });
    await resolve('flap-1');
    expect(await search('flapping on sw-core')).toEqual({ history: [first, second].sort(), active: [] });
    await ftsConsistent();
  });

  it('indexes an alert while it is in the history only, untouched by repeats, and follows a changed text', async () => {
    const { owner, base, raise, search } = await tenant();
    const before = await ftsData();
    const id = await raise('rep-1', 'Disk almost full on fileserver-12', { description: 'first words' });
    // An open alert is not in the index (the active list does not use it), nor do a repeat (deduplicated: count and
    // last-seen time) or the open part of the lifecycle put it there.
    expect(await raise('rep-1', 'Disk almost full on fileserver-12', { description: 'other words' })).toBe(id);
    expect((await owner.agent.post(`${base}/${id}/acknowledge`)).statusCode).toBe(200);
    expect((await owner.agent.post(`${base}/${id}/assign`, { userId: owner.userId })).statusCode).toBe(200);
    expect(await ftsData()).toEqual(before);
    await ftsConsistent();
    // Resolving puts it in; closing a resolved alert (same text) changes nothing.
    expect((await owner.agent.post(`${base}/${id}/resolve`)).statusCode).toBe(200);
    const resolved = await ftsData();
    if (resolved !== null) expect(resolved).not.toEqual(before);
    await ftsConsistent();
    expect((await owner.agent.post(`${base}/${id}/close`)).statusCode).toBe(200);
    expect(await ftsData()).toEqual(resolved);
    expect(await search('first words')).toEqual({ history: [id], active: [] });
    expect(await search('other words')).toEqual({ history: [], active: [] });

    // No request rewrites the text today; a change written to the row is followed all the same.
    await t().deps.db.updateTable('alerts').set({ search_text: 'disk almost full on fileserver-12\nsecond words' }).where('id', '=', id).execute();
    expect(await search('second words')).toEqual({ history: [id], active: [] });
    expect(await search('first words')).toEqual({ history: [], active: [] });
    // Setting the same text again is no change.
    const same = await ftsData();
    await t().deps.db.updateTable('alerts').set({ search_text: 'disk almost full on fileserver-12\nsecond words' }).where('id', '=', id).execute();
    expect(await ftsData()).toEqual(same);
    await ftsConsistent();
    // No request reopens an alert today; a row written back to open (text and status at once) leaves the index.
    await t().deps.db.updateTable('alerts').set({ status: 'new', search_text: 'disk almost full on fileserver-12\nthird words' }).where('id', '=', id).execute();
    await ftsConsistent();
    expect(await search('second words')).toEqual({ history: [], active: [] });
    expect(await search('third words')).toEqual({ history: [], active: [id] });
  });

  it('keeps the index consistent when a tenant and its alerts are deleted', async () => {
    const gone = await tenant();
    const kept = await tenant();
    for (let i = 0; i < 5; i++) await gone.raise(`g${i}`, `Shared words ${i} of the deleted tenant`);
    await gone.resolve('g0');
    const mine = await kept.raise('k0', 'Shared words of the kept tenant');
    await t().deps.db.deleteFrom('tenants').where('id', '=', gone.owner.tenantId).execute();
    await ftsConsistent();
    expect(await kept.search('shared words')).toEqual({ history: [], active: [mine] });
    // Nothing left over of the deleted tenant's alerts in the index: a new alert with the same text is the only match.
    if (t().db.name === 'sqlite') {
      const { rows } = await sql<{ n: number }>`select count(*) as n from alerts_fts where alerts_fts match ${trigramQuery('deleted tenant')}`.execute(t().deps.db);
      expect(Number(rows[0].n)).toBe(0);
    }
  });

  // 6,000 alerts written and searched: tens of seconds on a loaded 2-core machine.
  it('gives the same pages and counts whether a text has few or many candidates, and combines with the filters', { timeout: 120_000 }, async () => {
    const { owner, base, raise, resolve } = await tenant();
    // Straight into the table: 6,000 resolved alerts, more than the trigram lookup reads one by one (5,000).
    const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
    const row = (i: number): AlertsTable =>
      alertRow(owner.tenantId, {
        id: `srch-${owner.tenantId.slice(0, 8)}-${String(i).padStart(5, '0')}`,
        dedup_key: `bulk-${i}`,
        title: `Packet loss to gw-${i % 7}`,
        priority: i % 3 === 0 ? 'high' : 'low',
        status: i % 4 === 0 ? 'closed' : 'resolved',
        source: 'seed',
        // Every one holds the trigrams of "alpha-beta" (alp, ha-, bet, eta), a seventh of them the text itself.
        search_text: `packet loss to gw-${i % 7}\nseed\nbulk-${i}\n${i % 7 === 3 ? 'alpha-beta-' : 'beta-alpha-'}${i % 1000 === 0 ? '\nrare marker' : ''}`,
        created_at: at(i),
        resolved_at: at(i),
        closed_at: i % 4 === 0 ? at(i) : null,
        escalation_state: 'none',
      });
    for (let from = 0; from < 6000; from += 500) await t().deps.db.insertInto('alerts').values(Array.from({ length: 500 }, (_, j) => row(from + j))).execute();
    const open = await raise('open-1', 'Packet loss to gw-3 right now');
    await resolve('nothing-open');
    await ftsConsistent();

    const history = async (query: string) => {
      const res = await owner.agent.get(`${base}/history?${query}`);
      expect(res.statusCode, query).toBe(200);
      return res.data as { items: Array<{ id: string; dedupKey: string; priority: string; status: string }>; total: number; totalCapped: boolean };
    };
    const expected = (keep: (i: number) => boolean) =>
      Array.from({ length: 6000 }, (_, i) => i)
        .filter(keep)
        .reverse()
        .map((i) => row(i).id);

    // Many candidates: page by page in order, and counted.
    const many = expected((i) => i % 7 === 3);
    const p1 = await history('q=ALPHA-BETA&pageSize=100');
    expect(p1).toMatchObject({ total: many.length, totalCapped: false });
    expect(p1.items.map((a) => a.id)).toEqual(many.slice(0, 100));
    const p5 = await history('q=alpha-beta&pageSize=100&page=5');
    expect(p5.items.map((a) => a.id)).toEqual(many.slice(400, 500));
    expect((await history('q=alpha-beta&pageSize=100&page=9')).items.map((a) => a.id)).toEqual(many.slice(800, 900));
    expect((await history('q=loss%20to%20gw-&pageSize=1')).total).toBe(6000);
    const highClosed = expected((i) => i % 7 === 3 && i % 3 === 0 && i % 4 === 0);
    const filtered = await history('q=alpha-beta&priority=high&status=closed&pageSize=100');
    expect(filtered).toMatchObject({ total: highClosed.length });
    expect(filtered.items.map((a) => a.id)).toEqual(highClosed.slice(0, 100));
    expect((await history('q=gw-3')).total).toBe(many.length);
    expect((await history('q=gw-8')).total).toBe(0);
    expect((await history('q=alpha-betaa')).total).toBe(0);

    // Few candidates: the same, read from the trigram table's list.
    const rare = expected((i) => i % 1000 === 0);
    const r = await history('q=RARE%20marker');
    expect(r).toMatchObject({ total: 6, totalCapped: false });
    expect(r.items.map((a) => a.id)).toEqual(rare);
    expect((await history('q=rare%20marker&pageSize=2&page=2')).items.map((a) => a.id)).toEqual(rare.slice(2, 4));
    expect((await history('q=rare%20marker&pageSize=2&page=9')).items).toEqual([]);
    expect((await history('q=rare%20marker&priority=high')).items.map((a) => a.id)).toEqual(expected((i) => i % 1000 === 0 && i % 3 === 0));
    expect((await history('q=bulk-4242')).items.map((a) => a.dedupKey)).toEqual(['bulk-4242']);
    expect((await history('q=bulk-424')).items.map((a) => a.dedupKey)).toEqual(['bulk-4249', 'bulk-4248', 'bulk-4247', 'bulk-4246', 'bulk-4245', 'bulk-4244', 'bulk-4243', 'bulk-4242', 'bulk-4241', 'bulk-4240', 'bulk-424']);
    // The open alert is in the active list, not the history.
    const active = await owner.agent.get(`${base}?q=${encodeURIComponent('loss to GW-3')}`);
    expect(active.data.items.map((a: { id: string }) => a.id)).toEqual([open]);
  });

  it('has its index in place', async () => {
    if (t().db.name === 'postgres') {
      const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and indexname = 'alerts_search_trgm_idx'`.execute(t().deps.db);
      // Of the history alone: the active list does not read it, so open alerts do not pay for it.
      expect(rows[0]?.indexdef).toMatch(/USING gin \(search_text \S*gin_trgm_ops\) WHERE \(status = ANY \(ARRAY\['resolved'::text, 'closed'::text\]\)\)/);
    } else {
      const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'alerts_fts'`.execute(t().deps.db);
      expect(rows[0]?.sql).toMatch(/tokenize='trigram'/);
      await ftsConsistent();
    }
  });
});

describe('trigramQuery', () => {
  it('asks for covering trigrams of 3 or more characters, quoted, at most 8', () => {
    expect(trigramQuery('')).toBeNull();
    expect(trigramQuery('ab')).toBeNull();
    expect(trigramQuery('🔥a')).toBeNull();
    expect(trigramQuery('a\0bc')).toBeNull();
    expect(trigramQuery('abc')).toBe('"abc"');
    expect(trigramQuery('abcd')).toBe('"abc" AND "bcd"');
    expect(trigramQuery('abcdef')).toBe('"abc" AND "def"');
    expect(trigramQuery('abcdefg')).toBe('"abc" AND "def" AND "efg"');
    expect(trigramQuery('🔥 f')).toBe('"🔥 f"');
    expect(trigramQuery(`a"b'c`)).toBe(`"a""b" AND "b'c"`);
    expect(trigramQuery('aaaaaa')).toBe('"aaa"');
    const long = trigramQuery('abcdefghijklmnopqrstuvwxyz0123456789');
    // Twelve covering trigrams, eight of them spread over the text (the first and the last among them).
    expect(long).toBe('"abc" AND "ghi" AND "jkl" AND "pqr" AND "stu" AND "yz0" AND "123" AND "789"');
  });
});
