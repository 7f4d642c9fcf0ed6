import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AlertChange } from '../../contract/alerts.ts';
import type { ApprovalChange } from '../../contract/approvals.ts';
import type { DB, Dialect } from '../db/database.ts';

/** What a live-stream subscriber receives: an alert that changed, or "you may have missed events, reload". */
export type BusMessage = { type: 'alert'; change: AlertChange } | { type: 'approval'; change: ApprovalChange } | { type: 'resync' };
type Listener = (msg: BusMessage) => void;

/** Someone lost access: a user (signed out, password changed, deleted), a member of a tenant, or a whole tenant. */
export type AccessNotice = { userId: string; tenantId?: string } | { userId?: undefined; tenantId: string };
type Revoker = (notice: AccessNotice) => void;

/**
 * Fans alert changes out to the live streams of a tenant, and integration-key invalidations to every instance.
 * SQLite (one process): in memory. PostgreSQL: NOTIFY on a channel every instance LISTENs to, through one dedicated
 * connection, so a change made by any instance reaches viewers connected to any other.
 */
export interface AlertBus {
  publish(tenantId: string, change: AlertChange): void;
  /** An approval request of the tenant changed: its viewers reload what they show. */
  publishApproval(tenantId: string, change: ApprovalChange): void;
  subscribe(tenantId: string, listener: Listener): () => void;
  /** Tells every instance to forget what it cached about these integrations (revoked, rotated, re-bound). */
  invalidateIntegrations(ids: string[]): void;
  onInvalidateIntegrations(fn: (ids: string[]) => void): void;
  /**
   * Tells every instance that these tenants' escalation routing changed (a policy, the policy of an integration or a
   * client, someone's subscriptions): what ingestion decides at insert time is read anew. The listener hears null
   * when some notices may have been missed (the bus reconnected): forget every tenant's.
   */
  invalidateRouting(tenantIds: string[]): void;
  onInvalidateRouting(fn: (tenantIds: string[] | null) => void): void;
  /** Tells every instance to re-check the live streams this notice concerns, and end those no longer allowed. */
  revokeAccess(notice: AccessNotice): void;
  onRevokeAccess(fn: Revoker): void;
  /** Hears every alert change of every tenant, made by this instance or (PostgreSQL) another one. */
  onAlertChange(fn: (tenantId: string, change: AlertChange) => void): void;
  subscriberCount(): number;
  close(): Promise<void>;
}

// NOTIFY payloads must stay under 8000 bytes.
const MAX_PAYLOAD = 7000;

class LocalFanout {
  private byTenant = new Map<string, Set<Listener>>();
  private invalidators: Array<(ids: string[]) => void> = [];
  private revokers: Revoker[] = [];
  private routers: Array<(tenantIds: string[] | null) => void> = [];
  private alertWatchers: Array<(tenantId: string, change: AlertChange) => void> = [];

  subscribe(tenantId: string, listener: Listener) {
    let set = this.byTenant.get(tenantId);
    if (!set) this.byTenant.set(tenantId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byTenant.get(tenantId) === set) this.byTenant.delete(tenantId);
    };
  }
  deliver(tenantId: string, msg: BusMessage) {
    if (msg.type === 'alert') for (const fn of this.alertWatchers) fn(tenantId, msg.change);
    const set = this.byTenant.get(tenantId);
    if (set) for (const l of set) l(msg);
  }
  onAlertChange(fn: (tenantId: string, change: AlertChange) => void) {
    this.alertWatchers.push(fn);
  }
  deliverAll(msg: BusMessage) {
    for (const set of this.byTenant.values()) for (const l of set) l(msg);
  }
  onInvalidate(fn: (ids: string[]) => void) {
    this.invalidators.push(fn);
  }
  invalidate(ids: string[]) {
    for (const fn of this.invalidators) fn(ids);
  }
  onRevoke(fn: Revoker) {
    this.revokers.push(fn);
  }
  onRouting(fn: (tenantIds: string[] | null) => void) {
    this.routers.push(fn);
  }
  routing(tenantIds: string[] | null) {
    for (const fn of this.routers) fn(tenantIds);
  }
  revoke(notice: AccessNotice) {
    for (const fn of this.revokers) fn(notice);
  }
  count() {
    let n = 0;
    for (const set of this.byTenant.values()) n += set.size;
    return n;
  }
}

export function createAlertBus(opts: { db: DB; dialect: Dialect; databaseUrl: string; schema: string | null; log: FastifyBaseLogger }): AlertBus {
  return opts.dialect === 'postgres' ? new PostgresBus(opts) : new MemoryBus();
}

/** What every bus does for the listeners of this instance: they hear what reaches it, from here or elsewhere. */
abstract class LocalListeners {
  protected readonly local = new LocalFanout();
  subscribe(tenantId: string, listener: Listener) {
    return this.local.subscribe(tenantId, listener);
  }
  onInvalidateIntegrations(fn: (ids: string[]) => void) {
    this.local.onInvalidate(fn);
  }
  onRevokeAccess(fn: Revoker) {
    this.local.onRevoke(fn);
  }
  onInvalidateRouting(fn: (tenantIds: string[] | null) => void) {
    this.local.onRouting(fn);
  }
  onAlertChange(fn: (tenantId: string, change: AlertChange) => void) {
    this.local.onAlertChange(fn);
  }
  subscriberCount() {
    return this.local.count();
  }
}

class MemoryBus extends LocalListeners implements AlertBus {
  publish(tenantId: string, change: AlertChange) {
    this.local.deliver(tenantId, { type: 'alert', change });
  }
  publishApproval(tenantId: string, change: ApprovalChange) {
    this.local.deliver(tenantId, { type: 'approval', change });
  }
  invalidateIntegrations(ids: string[]) {
    this.local.invalidate(ids);
  }
  invalidateRouting(tenantIds: string[]) {
    this.local.routing(tenantIds);
  }
  revokeAccess(notice: AccessNotice) {
    this.local.revoke(notice);
  }
  async close() {}
}

interface Wire {
  /** Sending instance: it delivered locally already and skips its own echo. */
  i: string;
  /** Alert changes: [tenantId, change]. */
  e?: Array<[string, AlertChange]>;
  /** Integration ids to forget. */
  v?: string[];
  /** Access revoked: streams to re-check. */
  r?: AccessNotice[];
  /** Approval request changes: [tenantId, change]. */
  a?: Array<[string, ApprovalChange]>;
  /** Tenants whose escalation routing changed. */
  t?: string[];
}

class PostgresBus extends LocalListeners implements AlertBus {
  private readonly instance = randomUUID();
  private readonly channel: string;
  private pending: Array<[string, AlertChange]> = [];
  private pendingInvalidations: string[] = [];
  private pendingRevocations: AccessNotice[] = [];
  private pendingApprovals: Array<[string, ApprovalChange]> = [];
  private pendingRouting: string[] = [];
  private flushing = false;
  private scheduled = false;
  private listener: pg.Client | null = null;
  private closed = false;
  private retryMs = 500;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: { db: DB; databaseUrl: string; schema: string | null; log: FastifyBaseLogger }) {
    super();
    // One channel per schema, so deployments (and test files) sharing a database never hear each other.
    this.channel = `alertdesk_${(opts.schema ?? 'public').replace(/[^a-zA-Z0-9_]/g, '_')}`.slice(0, 63);
    void this.connect(false);
  }

  private async connect(isReconnect: boolean) {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.opts.databaseUrl,
      ...(this.opts.schema ? { options: `-c search_path=${this.opts.schema}` } : {}),
    });
    client.on('notification', (n) => {
      if (n.channel === this.channel && n.payload) this.receive(n.payload);
    });
    const lost = (err?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.closed) return;
      this.opts.log.warn({ err }, 'alert event listener lost its database connection; reconnecting');
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.listener = client;
      this.retryMs = 500;
      // Events sent while we were deaf are gone: every open dashboard reloads what it shows.
      if (isReconnect) {
        this.local.deliverAll({ type: 'resync' });
        this.local.routing(null);
      }
    } catch (err) {
      client.end().catch(() => {});
      if (this.closed) return;
      this.opts.log.warn({ err }, 'alert event listener could not connect; retrying');
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect() {
    if (this.reconnectTimer || this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 15_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect(true);
    }, wait);
    this.reconnectTimer.unref();
  }

  private receive(payload: string) {
    let wire: Wire;
    try {
      wire = JSON.parse(payload) as Wire;
    } catch {
      return;
    }
    if (wire.i === this.instance) return;
    if (wire.v?.length) this.local.invalidate(wire.v);
    if (wire.t?.length) this.local.routing(wire.t);
    if (wire.r) for (const notice of wire.r) this.local.revoke(notice);
    if (wire.e) for (const [tenantId, change] of wire.e) this.local.deliver(tenantId, { type: 'alert', change });
    if (wire.a) for (const [tenantId, change] of wire.a) this.local.deliver(tenantId, { type: 'approval', change });
  }

  publishApproval(tenantId: string, change: ApprovalChange) {
    this.local.deliver(tenantId, { type: 'approval', change });
    this.pendingApprovals.push([tenantId, change]);
    this.schedule();
  }

  publish(tenantId: string, change: AlertChange) {
    this.local.deliver(tenantId, { type: 'alert', change });
    this.pending.push([tenantId, change]);
    this.schedule();
  }

  invalidateIntegrations(ids: string[]) {
    this.local.invalidate(ids);
    this.pendingInvalidations.push(...ids);
    this.schedule();
  }

  invalidateRouting(tenantIds: string[]) {
    this.local.routing(tenantIds);
    this.pendingRouting.push(...tenantIds);
    this.schedule();
  }

  revokeAccess(notice: AccessNotice) {
    this.local.revoke(notice);
    this.pendingRevocations.push(notice);
    this.schedule();
  }

  private schedule() {
    if (this.flushing || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /**
   * Sends what accumulated as few NOTIFYs as possible, one flush at a time. Notifying outside the ingestion
   * transactions matters: PostgreSQL serialises the commits of transactions that NOTIFY.
   */
  private async flush() {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.pending.length || this.pendingInvalidations.length || this.pendingRevocations.length || this.pendingApprovals.length || this.pendingRouting.length) {
        const payloads = this.takePayloads();
        for (const p of payloads) {
          try {
            await sql`select pg_notify(${this.channel}, ${p})`.execute(this.opts.db);
          } catch (err) {
            if (this.closed) return;
            this.opts.log.warn({ err }, 'could not publish alert events to other instances');
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private takePayloads(): string[] {
    const out: string[] = [];
    if (this.pendingInvalidations.length) {
      out.push(JSON.stringify({ i: this.instance, v: this.pendingInvalidations.splice(0) } satisfies Wire));
    }
    // Tenant ids are 36 characters: 150 per payload stays far under the limit.
    while (this.pendingRouting.length) {
      out.push(JSON.stringify({ i: this.instance, t: [...new Set(this.pendingRouting.splice(0, 150))] } satisfies Wire));
    }
    // Revocations are small (two ids each); a burst of them is cut into payloads that fit.
    while (this.pendingRevocations.length) {
      out.push(JSON.stringify({ i: this.instance, r: this.pendingRevocations.splice(0, 50) } satisfies Wire));
    }
    // Approval changes are small (an id, a status, a time) and rare: 40 per payload stays far under the limit.
    while (this.pendingApprovals.length) {
      out.push(JSON.stringify({ i: this.instance, a: this.pendingApprovals.splice(0, 40) } satisfies Wire));
    }
    let batch: Array<[string, AlertChange]> = [];
    let size = 60;
    for (const item of this.pending.splice(0)) {
      const len = JSON.stringify(item).length + 1;
      if (batch.length && size + len > MAX_PAYLOAD) {
        out.push(JSON.stringify({ i: this.instance, e: batch } satisfies Wire));
        batch = [];
        size = 60;
      }
      batch.push(item);
      size += len;
    }
    if (batch.length) out.push(JSON.stringify({ i: this.instance, e: batch } satisfies Wire));
    return out;
  }

  async close() {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.listener;
    this.listener = null;
    if (client) await client.end().catch(() => {});
  }
}
