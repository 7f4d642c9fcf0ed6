import { randomUUID } from 'node:crypto';
import { timeOrderedUuid } from '../../../lib/ids.ts';
import type { DB, Dialect } from '../../../db/database.ts';
import type { AlertsTable } from '../../../db/schema.ts';
import { now } from '../../../db/database.ts';
import type { IngestResult } from '../../../../contract/integrations.ts';
import type { AlertChange } from '../../../../contract/alerts.ts';
import type { AlertBus } from '../../../events/alert-bus.ts';
import type { IntegrationAuth } from '../../integrations/integration-keys.ts';
import { insertEvent } from '../alerts.repository.ts';
import { alertUpsert, applyIntegrationTransition, type AlertUpsert, type UpsertedAlert } from './ingest.repository.ts';
import { clip, type NormalizedEvent } from './ingest.mappers.ts';
import { cancelAlertJobs } from '../../../jobs/jobs.repository.ts';
import { ClientDirectory } from './client-directory.ts';
import { applyRules } from './routing-rules.ts';

/**
 * Fills in, in place, the escalation columns of rows about to be inserted (paging's escalation routing, handed in by
 * the paging plugin: the alerts module does not import paging). A row it leaves alone is inserted `pending`.
 */
export type DecideEscalation = (rows: AlertInsert[], on?: DB) => Promise<void>;

export interface IngestOutcome {
  result: IngestResult;
  alertId: string | null;
  dedupKey: string;
}

export { timeOrderedUuid };

type AlertInsert = AlertsTable;

interface Pending {
  row: AlertInsert;
  resolve(r: { stored: UpsertedAlert; created: boolean }): void;
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
  /** The batched upsert's statement, compiled once per batch size (ingest.repository.ts). */
  private readonly statement: AlertUpsert;
  decide: DecideEscalation | null = null;

  constructor(
    db: DB,
    private readonly maxInflight: number,
  ) {
    this.statement = alertUpsert(db);
  }

  /** The upsert of new rows with their escalation decided first. */
  readonly upsert: AlertUpsert = async (rows, on) => {
    if (this.decide) await this.decide(rows, on);
    return this.statement(rows, on);
  };

  write(row: AlertInsert) {
    return new Promise<{ stored: UpsertedAlert; created: boolean }>((resolve, reject) => {
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
    let stored: UpsertedAlert[];
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
}

/**
 * Stores events from monitoring tools. A trigger is an insert that, when an open alert with the same (tenant,
 * integration, dedup key) exists, becomes an update of its count and last-seen time instead, atomically on both
 * databases (so concurrent identical triggers make one alert); triggers are written in batches (TriggerWriter).
 * Acknowledge and resolve change the open alert, if any, and are otherwise accepted and ignored.
 */
export class IngestService {
  private clients: ClientDirectory;
  private writer: TriggerWriter;

  constructor(
    private readonly db: DB,
    private readonly bus: AlertBus,
    dialect: Dialect,
  ) {
    // SQLite has one connection: one batch at a time. PostgreSQL overlaps a few batches over its pool.
    this.writer = new TriggerWriter(db, dialect === 'sqlite' ? 1 : 4);
    // Client writes invalidate the tenant's routing on every instance (paging sends it for every write under
    // /clients): the names events are matched against are forgotten with it.
    this.clients = new ClientDirectory(db);
    bus.onInvalidateRouting((tenantIds) => this.clients.invalidate(tenantIds));
  }

  /** Escalations are decided at insert time from here on (the paging plugin hands in its routing). */
  useEscalationStart(decide: DecideEscalation) {
    this.writer.decide = decide;
  }

  /** One event, through the integration's routing rules first (a dropped event is answered `ignored`). */
  async process(integration: IntegrationAuth, given: NormalizedEvent): Promise<IngestOutcome> {
    const { event: ev, dropped } = applyRules(integration.rules, given);
    if (dropped) return { result: 'ignored', alertId: null, dedupKey: ev.dedupKey };
    if (ev.action === 'trigger') return this.trigger(integration, ev);
    return this.transition(integration, ev);
  }

  /**
   * Several events that arrived together (an Alertmanager group) in one transaction: every one of them is stored,
   * or (the database failing half-way) none is, so a sender's retry neither counts an alert twice nor loses one.
   * Events are applied in dedup-key order (one key's events keep their order), which locks rows in the same order as
   * the batched writer; PostgreSQL deadlocks or serialization failures are retried.
   */
  async processGroup(integration: IntegrationAuth, given: NormalizedEvent[]): Promise<IngestOutcome[]> {
    if (given.length === 1) return [await this.process(integration, given[0])];
    if (integration.rules?.length) return this.processRouted(integration, given);
    return this.processAll(integration, given);
  }

  /** A group through the integration's routing rules: the dropped events answer `ignored`, the others are stored together. */
  private async processRouted(integration: IntegrationAuth, given: NormalizedEvent[]): Promise<IngestOutcome[]> {
    const routed = given.map((ev) => applyRules(integration.rules, ev));
    const kept = routed.filter((r) => !r.dropped).map((r) => r.event);
    const stored = kept.length ? await this.processAll(integration, kept) : [];
    let next = 0;
    return routed.map((r) => (r.dropped ? { result: 'ignored' as const, alertId: null, dedupKey: r.event.dedupKey } : stored[next++]));
  }

  private async processAll(integration: IntegrationAuth, events: NormalizedEvent[]): Promise<IngestOutcome[]> {
    if (events.length === 1) return [await this.process({ ...integration, rules: undefined }, events[0])];
    const clientIds = new Map<string, string | null>();
    for (const ev of events) if (ev.clientRef && !clientIds.has(ev.clientRef)) clientIds.set(ev.clientRef, await this.resolveClient(integration.tenantId, ev.clientRef));
    const order = events.map((ev, i) => ({ ev, i })).sort((a, b) => (a.ev.dedupKey < b.ev.dedupKey ? -1 : a.ev.dedupKey > b.ev.dedupKey ? 1 : a.i - b.i));
    for (let attempt = 1; ; attempt++) {
      const outcomes: IngestOutcome[] = new Array(events.length);
      const changes: AlertChange[] = [];
      try {
        await this.db.transaction().execute(async (trx) => {
          const at = now();
          let chunk: Array<{ ev: NormalizedEvent; i: number }> = [];
          const flush = async () => {
            if (!chunk.length) return;
            const byKey = new Map<string, Array<{ row: AlertInsert; i: number }>>();
            for (const { ev, i } of chunk) {
              const row = this.rowFor(integration, ev, ev.clientRef ? (clientIds.get(ev.clientRef) ?? null) : null, at);
              const same = byKey.get(ev.dedupKey);
              if (same) same.push({ row, i });
              else byKey.set(ev.dedupKey, [{ row, i }]);
            }
            chunk = [];
            const rows = [...byKey.values()].map((g) => (g.length === 1 ? g[0].row : { ...g[0].row, occurrences: g.length }));
            const stored = new Map((await this.writer.upsert(rows, trx)).map((r) => [r.dedup_key, r]));
            for (const [key, g] of byKey) {
              const r = stored.get(key);
              if (!r) throw new Error('upsert returned no row');
              g.forEach(({ row, i }, n) => {
                const created = n === 0 && r.id === row.id;
                outcomes[i] = { result: created ? 'created' : 'deduplicated', alertId: r.id, dedupKey: key };
              });
              changes.push({ kind: r.id === g[0].row.id ? 'created' : 'updated', id: r.id, status: r.status, priority: r.priority, dedupKey: key, updatedAt: r.updated_at });
            }
          };
          for (const item of order) {
            if (item.ev.action === 'trigger') {
              chunk.push(item);
              if (chunk.length >= MAX_BATCH) await flush();
              continue;
            }
            await flush();
            const { outcome, change } = await this.transitionIn(trx, integration, item.ev, at);
            outcomes[item.i] = outcome;
            if (change) changes.push(change);
          }
          await flush();
        });
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (attempt < 3 && (code === '40P01' || code === '40001')) continue;
        throw err;
      }
      for (const c of changes) this.bus.publish(integration.tenantId, c);
      return outcomes;
    }
  }

  /** The row a trigger inserts (or, for an open alert with its key, whose count and last-seen time it updates). */
  private rowFor(integration: IntegrationAuth, ev: NormalizedEvent, refClientId: string | null, at: string): AlertInsert {
    const clientId = refClientId ?? integration.clientId;
    const metadata = ev.clientRef && clientId === integration.clientId ? { ...ev.metadata, client: ev.clientRef } : ev.metadata;
    return {
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
      search_text: `${ev.title}\n${ev.source}\n${ev.dedupKey}\n${clip(ev.description, 2000)}`.toLowerCase(),
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
      // A routing rule's policy, carried to paging's escalation start (which keeps it, or falls back when it is gone).
      escalation_policy_id: ev.escalationPolicyId ?? null,
    };
  }

  private async trigger(integration: IntegrationAuth, ev: NormalizedEvent): Promise<IngestOutcome> {
    const refClientId = ev.clientRef ? await this.resolveClient(integration.tenantId, ev.clientRef) : null;
    const { stored, created } = await this.writer.write(this.rowFor(integration, ev, refClientId, now()));
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
    const { outcome, change } = await this.db.transaction().execute((trx) => this.transitionIn(trx, integration, ev, now()));
    if (change) this.bus.publish(integration.tenantId, change);
    return outcome;
  }

  /** Acknowledge or resolve inside the caller's transaction; the change is for the bus once that has committed. */
  private async transitionIn(trx: DB, integration: IntegrationAuth, ev: NormalizedEvent, at: string): Promise<{ outcome: IngestOutcome; change: AlertChange | null }> {
    const acknowledge = ev.action === 'acknowledge';
    const changed = await applyIntegrationTransition(trx, integration.tenantId, {
      integrationId: integration.id,
      dedupKey: ev.dedupKey,
      action: acknowledge ? 'acknowledge' : 'resolve',
      at,
    });
    if (!changed) return { outcome: { result: 'ignored', alertId: null, dedupKey: ev.dedupKey }, change: null };
    // The escalation stops with the status change, in the same transaction.
    await cancelAlertJobs(trx, integration.tenantId, changed.id);
    await insertEvent(trx, {
      id: randomUUID(),
      tenant_id: integration.tenantId,
      alert_id: changed.id,
      at,
      kind: acknowledge ? 'acknowledged' : 'resolved',
      actor_type: 'integration',
      actor_id: integration.id,
      actor_name: integration.name,
      detail: '{}',
    });
    return {
      outcome: { result: acknowledge ? 'acknowledged' : 'resolved', alertId: changed.id, dedupKey: ev.dedupKey },
      change: { kind: 'updated', id: changed.id, status: changed.status, priority: changed.priority, dedupKey: ev.dedupKey, updatedAt: changed.updated_at },
    };
  }

  /** The client an event's reference names, with its name, for the rules preview. */
  clientNamed(tenantId: string, ref: string) {
    return this.clients.describe(tenantId, ref);
  }

  /** A client of the tenant named by id, name or alias (ignoring case); unknown names leave the alert unbound. */
  private resolveClient(tenantId: string, ref: string): Promise<string | null> {
    return this.clients.resolve(tenantId, ref);
  }
}
