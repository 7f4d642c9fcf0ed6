import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { DB } from '../../db/database.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { isSessionLive } from '../auth/sessions.service.ts';
import { loadTenantContext } from '../tenants/tenants.service.ts';
import { tooMany } from '../../http/errors.ts';
import { OWN_MSG } from '../../../contract/messages.ts';
import type { AlertChange, AlertStreamEvent } from '../../../contract/alerts.ts';
import type { AccessNotice, AlertBus, BusMessage } from '../../events/alert-bus.ts';
import { findAlertsByIds, toAlert } from './alerts.repository.ts';
import { AlertReadStamps } from './alert-read-stamp.ts';

const HEARTBEAT_MS = 25_000;
// A viewer this far behind is dropped; its browser reconnects and reloads the list.
const MAX_BUFFERED = 1024 * 1024;
/** Open streams one user may hold on one instance (a tab each); more answer 429. */
export const MAX_STREAMS_PER_USER = 20;

/** Past this many changes of one tenant in one moment (an ingestion storm), viewers get the changes alone and reload. */
export const MAX_LOADED_CHANGES = 100;

type Deliver = (chunk: string) => void;

/**
 * The alerts behind the changes of one moment, loaded once per instance for every viewer of the tenant (one query, not
 * one per viewer), so a dashboard can show a change without asking for its list again. Loads of one tenant run one
 * after another: a later change never goes out before an earlier one.
 */
export class ChangedAlerts {
  private pending = new Map<string, { changes: Map<string, AlertChange>; deliver: Set<Deliver> }>();
  private chains = new Map<string, Promise<void>>();

  constructor(
    private readonly db: DB,
    private readonly stamps: AlertReadStamps,
  ) {}

  add(tenantId: string, change: AlertChange, deliver: Deliver) {
    let batch = this.pending.get(tenantId);
    if (!batch) {
      batch = { changes: new Map(), deliver: new Set() };
      this.pending.set(tenantId, batch);
      setImmediate(() => this.flush(tenantId));
    }
    batch.changes.delete(change.id); // the latest change of an alert goes last
    batch.changes.set(change.id, change);
    batch.deliver.add(deliver);
  }

  private flush(tenantId: string) {
    const batch = this.pending.get(tenantId);
    if (!batch) return;
    this.pending.delete(tenantId);
    const previous = this.chains.get(tenantId) ?? Promise.resolve();
    const next = previous.then(() => this.send(tenantId, [...batch.changes.values()], batch.deliver));
    this.chains.set(tenantId, next);
    void next.finally(() => {
      if (this.chains.get(tenantId) === next) this.chains.delete(tenantId);
    });
  }

  private async send(tenantId: string, changes: AlertChange[], deliver: Set<Deliver>) {
    let byId = new Map<string, AlertStreamEvent['alert']>();
    if (changes.length <= MAX_LOADED_CHANGES) {
      try {
        const rows = await findAlertsByIds(this.db, tenantId, changes.map((c) => c.id));
        byId = new Map(rows.map((r) => [r.id, toAlert(r)]));
      } catch {
        // The database is away: the changes go out alone and viewers reload when they can.
      }
    }
    let chunk = '';
    for (const c of changes) {
      const heard = this.stamps.heard(c);
      const event: AlertStreamEvent = { ...c, ...(byId.has(c.id) ? { alert: byId.get(c.id) } : {}), ...(heard ? { heard } : {}) };
      chunk += `event: alert\ndata: ${JSON.stringify(event)}\n\n`;
    }
    for (const d of deliver) d(chunk);
  }
}

/**
 * Server-sent events of one tenant to one viewer. Writes made in the same tick go out as one chunk. A sign-out,
 * password change, member removal or tenant deletion (on any instance, through the bus) re-checks the streams it
 * concerns at once and ends those no longer allowed; every heartbeat re-checks as well, as a safety net.
 */
export class AlertStreams {
  private open = new Map<() => void, TenantContext>();
  private readonly changed: ChangedAlerts;
  /** Stamps for the answers a dashboard compares with its stream's `ready` (issue 33). */
  readonly readStamps: AlertReadStamps;

  constructor(
    private readonly db: DB,
    private readonly bus: AlertBus,
  ) {
    this.readStamps = new AlertReadStamps(bus);
    this.changed = new ChangedAlerts(db, this.readStamps);
    bus.onRevokeAccess((notice) => void this.recheck(notice));
  }

  get size() {
    return this.open.size;
  }

  attach(ctx: TenantContext, reply: FastifyReply) {
    let mine = 0;
    for (const c of this.open.values()) if (c.user.id === ctx.user.id) mine++;
    if (mine >= MAX_STREAMS_PER_USER) throw tooMany(OWN_MSG.tooManyStreams, 30);
    const stream = new PassThrough();
    let pending = '';
    let flushScheduled = false;
    let ended = false;

    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      this.open.delete(end);
      stream.end();
    };
    const write = (chunk: string) => {
      if (ended) return;
      pending += chunk;
      if (flushScheduled) return;
      flushScheduled = true;
      setImmediate(() => {
        flushScheduled = false;
        if (ended || !pending) return;
        if (stream.writableLength > MAX_BUFFERED) return end();
        stream.write(pending);
        pending = '';
      });
    };
    const unsubscribe = this.bus.subscribe(ctx.tenant.id, (msg: BusMessage) => {
      if (msg.type === 'alert') this.changed.add(ctx.tenant.id, msg.change, write);
      else if (msg.type === 'approval') write(`event: approval\ndata: ${JSON.stringify(msg.change)}\n\n`);
      else write('event: resync\ndata: {}\n\n');
    });
    // Taken in the same tick as subscribing: every change heard after it reaches this stream.
    const position = this.readStamps.position(ctx.tenant.id);
    const heartbeat = setInterval(() => {
      void this.stillAllowed(ctx).then(
        (ok) => (ok ? write(': ping\n\n') : end()),
        () => write(': ping\n\n'),
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    this.open.set(end, ctx);
    reply.raw.on('close', end);

    stream.write(`retry: 2000\n\nevent: ready\ndata: ${JSON.stringify(position)}\n\n`);
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('x-accel-buffering', 'no')
      .send(stream);
  }

  /** The same rule the stream was opened under: a live session, and a standing in the tenant (tenant-context.ts). */
  private async stillAllowed(ctx: TenantContext) {
    if (!(await isSessionLive(this.db, ctx.user.token_hash))) return false;
    return (await loadTenantContext(this.db, ctx.user, ctx.tenant.id)) !== null;
  }

  /** Re-checks the streams a revocation concerns and ends those whose session or membership is gone. */
  private async recheck(notice: AccessNotice) {
    const concerned = [...this.open].filter(
      ([, c]) => (notice.userId === undefined || c.user.id === notice.userId) && (notice.tenantId === undefined || c.tenant.id === notice.tenantId),
    );
    await Promise.all(
      concerned.map(async ([end, c]) => {
        // A failed check (database away) keeps the stream; the next heartbeat tries again.
        const ok = await this.stillAllowed(c).catch(() => true);
        if (!ok) end();
      }),
    );
  }

  /** Ends every stream (server shutdown: open streams would otherwise keep it waiting). */
  closeAll() {
    for (const end of [...this.open.keys()]) end();
  }
}
