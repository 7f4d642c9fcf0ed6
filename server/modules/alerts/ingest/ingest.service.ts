import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { sql, type CompiledQuery, type SqlBool } from 'kysely';
import type { DB, Dialect } from '../../../db/database.ts';
import type { AlertsTable } from '../../../db/schema.ts';
import { now } from '../../../db/database.ts';
import type { IngestResult } from '../../../../contract/integrations.ts';
import type { AlertBus } from '../alert-bus.ts';
import type { IntegrationAuth } from '../../integrations/integration-keys.ts';
import type { NormalizedEvent } from './ingest.mappers.ts';

// Exactly the predicate of the partial unique index alerts_open_dedup_uq (migration 0003).
const OPEN = sql<SqlBool>`status in ('new', 'acknowledged', 'in_progress')`;

export interface IngestOutcome {
  result: IngestResult;
  alertId: string | null;
  dedupKey: string;
}

const CLIENT_CACHE_MS = 30_000;

let lastMs = 0;
let sequence = 0;

/**
 * A UUID (version 7) whose first 48 bits are the time in milliseconds and next 12 a counter within the millisecond:
 * alert ids grow with time, even for alerts created in the same millisecond by this process (so "newest first"
 * has a true tiebreak), and the primary key index takes each batch at its end instead of at as many random places
 * as there are rows, which keeps the pages a commit writes few (random v4 ids made write volume grow with the table).
 */
export function timeOrderedUuid(now = Date.now()): string {
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    sequence++;
    if (sequence > 0xfff) {
      ms++;
      sequence = 0;
    }
  } else sequence = randomInt(0x800);
  lastMs = ms;
  const b = randomBytes(16);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (sequence >> 8);
  b[7] = sequence & 0xff;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

type AlertInsert = AlertsTable;

/** Column order of the batched upsert; the parameters are laid out row by row in this order. */
const COLUMNS = [
  'id',
  'tenant_id',
  'client_id',
  'integration_id',
  'dedup_key',
  'title',
  'description',
  'priority',
  'status',
  'source',
  'search_text',
  'created_at',
  'updated_at',
  'acknowledged_by',
  'acknowledged_at',
  'resolved_by',
  'resolved_at',
  'closed_by',
  'closed_at',
  'assigned_to',
  'tags',
  'metadata',
  'occurrences',
  'last_seen_at',
] as const satisfies ReadonlyArray<keyof AlertsTable>;

type Stored = { id: string; integration_id: string | null; dedup_key: string | null; status: AlertsTable['status']; priority: AlertsTable['priority']; updated_at: string };
interface Pending {
  row: AlertInsert;
  resolve(r: { stored: Stored; created: boolean }): void;
  reject(err: unknown): void;
}

const MAX_BATCH = 200;

/**
 * Writes triggers in batches: every trigger that arrives while the previous write is running goes into the next
 * multi-row upsert, so a burst costs one statement and one commit per batch instead of one per event (group
 * commit). Each caller's promise settles only after its batch is committed. Triggers for the same key in one batch
 * are merged first (PostgreSQL refuses to upsert one row twice in one statement), and rows are sorted by key so two
 * concurrent batches always lock in the same order.
 */
class TriggerWriter {
  private queue: Pending[] = [];
  private inflight = 0;
  private scheduled = false;
  private compiled = new Map<number, CompiledQuery<Stored>>();

  constructor(
    private readonly db: DB,
    private readonly maxInflight: number,
  ) {}

  write(row: AlertInsert) {
    return new Promise<{ stored: Stored; created: boolean }>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.kick();
    });
  }

  private kick() {
    if (this.scheduled || this.inflight >= this.maxInflight || this.queue.length === 0) return;
    this.scheduled = true;
    // One turn of the event loop lets the requests already read off the sockets join this batch.
    setImmediate(() => {
      this.scheduled = false;
      while (this.inflight < this.maxInflight && this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        this.inflight++;
        void this.flush(batch).finally(() => {
          this.inflight--;
          this.kick();
        });
      }
    });
  }

  private async flush(batch: Pending[]) {
    const groups = new Map<string, Pending[]>();
    for (const p of batch) {
      const k = `${p.row.integration_id}\u0000${p.row.dedup_key}`;
      const g = groups.get(k);
      if (g) g.push(p);
      else groups.set(k, [p]);
    }
    const keys = [...groups.keys()].sort();
    const rows = keys.map((k) => {
      const g = groups.get(k)!;
      const last = g[g.length - 1].row;
      return g.length === 1 ? g[0].row : { ...g[0].row, occurrences: g.length, last_seen_at: last.last_seen_at, updated_at: last.updated_at };
    });
    let stored: Stored[];
    try {
      stored = await this.upsert(rows);
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // One bad row (say, its tenant was deleted a moment ago) must not fail its neighbours: retry them one by one.
      for (const [, g] of groups) for (const p of g) this.retryAlone(p);
      return;
    }
    const byKey = new Map(stored.map((s) => [`${s.integration_id}\u0000${s.dedup_key}`, s]));
    for (const [k, g] of groups) {
      const s = byKey.get(k);
      if (!s) {
        for (const p of g) p.reject(new Error('upsert returned no row'));
        continue;
      }
      g.forEach((p, i) => p.resolve({ stored: s, created: i === 0 && s.id === p.row.id }));
    }
  }

  private retryAlone(p: Pending) {
    this.upsert([p.row]).then(
      ([s]) => p.resolve({ stored: s, created: s.id === p.row.id }),
      (err) => p.reject(err),
    );
  }

  private async upsert(rows: AlertInsert[]): Promise<Stored[]> {
    const compiled = this.statement(rows.length);
    const parameters: unknown[] = [];
    for (const r of rows) for (const c of COLUMNS) parameters.push(r[c]);
    const result = await this.db.executeQuery<Stored>({ ...compiled, parameters });
    return result.rows;
  }

  /**
   * The upsert for n rows, compiled by Kysely once per n and reused with new parameters: building and compiling a
   * 24-column statement per event would cost more than running it.
   */
  private statement(n: number): CompiledQuery<Stored> {
    let c = this.compiled.get(n);
    if (c) return c;
    const placeholder = Object.fromEntries(COLUMNS.map((col) => [col, col === 'occurrences' ? 1 : 'x'])) as unknown as AlertInsert;
    c = this.db
      .insertInto('alerts')
      .values(Array.from({ length: n }, () => placeholder))
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'integration_id', 'dedup_key'])
          .where(OPEN)
          .doUpdateSet({
            occurrences: sql`alerts.occurrences + excluded.occurrences`,
            last_seen_at: (eb) => eb.ref('excluded.last_seen_at'),
            updated_at: (eb) => eb.ref('excluded.updated_at'),
          }),
      )
      .returning(['id', 'integration_id', 'dedup_key', 'status', 'priority', 'updated_at'])
      .compile() as CompiledQuery<Stored>;
    if (c.parameters.length !== n * COLUMNS.length) throw new Error('unexpected parameter layout of the alert upsert');
    this.compiled.set(n, c);
    return c;
  }
}

/**
 * Stores events from monitoring tools. A trigger is an insert that, when an open alert with the same (tenant,
 * integration, dedup key) exists, becomes an update of its count and last-seen time instead, atomically on both
 * databases (so concurrent identical triggers make one alert); triggers are written in batches (TriggerWriter).
 * Acknowledge and resolve change the open alert, if any, and are otherwise accepted and ignored.
 */
export class IngestService {
  private clientRefs = new Map<string, { id: string | null; expiresAt: number }>();
  private writer: TriggerWriter;

  constructor(
    private readonly db: DB,
    private readonly bus: AlertBus,
    dialect: Dialect,
  ) {
    // SQLite has one connection: one batch at a time. PostgreSQL overlaps a few batches over its pool.
    this.writer = new TriggerWriter(db, dialect === 'sqlite' ? 1 : 4);
  }

  async process(integration: IntegrationAuth, ev: NormalizedEvent): Promise<IngestOutcome> {
    if (ev.action === 'trigger') return this.trigger(integration, ev);
    return this.transition(integration, ev);
  }

  private async trigger(integration: IntegrationAuth, ev: NormalizedEvent): Promise<IngestOutcome> {
    const at = now();
    const clientId = ev.clientRef ? ((await this.resolveClient(integration.tenantId, ev.clientRef)) ?? integration.clientId) : integration.clientId;
    const metadata = ev.clientRef && clientId === integration.clientId ? { ...ev.metadata, client: ev.clientRef } : ev.metadata;
    const { stored, created } = await this.writer.write({
      id: timeOrderedUuid(),
      tenant_id: integration.tenantId,
      client_id: clientId,
      integration_id: integration.id,
      dedup_key: ev.dedupKey,
      title: ev.title,
      description: ev.description,
      priority: ev.priority,
      status: 'new',
      source: ev.source,
      search_text: `${ev.title}\n${ev.source}\n${ev.dedupKey}\n${ev.description.slice(0, 2000)}`.toLowerCase(),
      created_at: at,
      updated_at: at,
      acknowledged_by: null,
      acknowledged_at: null,
      resolved_by: null,
      resolved_at: null,
      closed_by: null,
      closed_at: null,
      assigned_to: null,
      tags: JSON.stringify(ev.tags),
      metadata: JSON.stringify(metadata),
      occurrences: 1,
      last_seen_at: at,
    });
    this.bus.publish(integration.tenantId, {
      kind: created ? 'created' : 'updated',
      id: stored.id,
      status: stored.status,
      priority: stored.priority,
      dedupKey: ev.dedupKey,
      updatedAt: stored.updated_at,
    });
    return { result: created ? 'created' : 'deduplicated', alertId: stored.id, dedupKey: ev.dedupKey };
  }

  private async transition(integration: IntegrationAuth, ev: NormalizedEvent): Promise<IngestOutcome> {
    const at = now();
    const acknowledge = ev.action === 'acknowledge';
    const row = await this.db.transaction().execute(async (trx) => {
      const changed = await trx
        .updateTable('alerts')
        .set(acknowledge ? { status: 'acknowledged', acknowledged_at: at, updated_at: at } : { status: 'resolved', resolved_at: at, updated_at: at })
        .where('tenant_id', '=', integration.tenantId)
        .where('integration_id', '=', integration.id)
        .where('dedup_key', '=', ev.dedupKey)
        // A monitoring tool acknowledges only what nobody has touched, and resolves whatever is still open.
        .where(acknowledge ? sql<SqlBool>`status = 'new'` : OPEN)
        .returning(['id', 'status', 'priority', 'updated_at'])
        .executeTakeFirst();
      if (!changed) return null;
      await trx
        .insertInto('alert_events')
        .values({
          id: randomUUID(),
          tenant_id: integration.tenantId,
          alert_id: changed.id,
          at,
          kind: acknowledge ? 'acknowledged' : 'resolved',
          actor_type: 'integration',
          actor_id: integration.id,
          actor_name: integration.name,
          detail: '{}',
        })
        .execute();
      return changed;
    });
    if (!row) return { result: 'ignored', alertId: null, dedupKey: ev.dedupKey };
    this.bus.publish(integration.tenantId, { kind: 'updated', id: row.id, status: row.status, priority: row.priority, dedupKey: ev.dedupKey, updatedAt: row.updated_at });
    return { result: acknowledge ? 'acknowledged' : 'resolved', alertId: row.id, dedupKey: ev.dedupKey };
  }

  /** A client of the tenant named by id or by name (case-insensitive); unknown names leave the alert unbound. */
  private async resolveClient(tenantId: string, ref: string): Promise<string | null> {
    const cacheKey = `${tenantId}\u0000${ref.toLowerCase()}`;
    const at = Date.now();
    const hit = this.clientRefs.get(cacheKey);
    if (hit && hit.expiresAt > at) return hit.id;
    const row = await this.db
      .selectFrom('clients')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb.or([eb('id', '=', ref), eb('name_lower', '=', ref.toLowerCase())]))
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    if (this.clientRefs.size > 10_000) this.clientRefs.clear();
    this.clientRefs.set(cacheKey, { id: row?.id ?? null, expiresAt: at + CLIENT_CACHE_MS });
    return row?.id ?? null;
  }
}
