import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { DB } from '../../db/database.ts';
import { loadTenantContext, type TenantContext } from '../../http/tenant-context.ts';
import { isSessionLive } from '../auth/sessions.repository.ts';
import { tooMany } from '../../http/errors.ts';
import { OWN_MSG } from '../../../contract/messages.ts';
import type { AccessNotice, AlertBus, BusMessage } from './alert-bus.ts';

const HEARTBEAT_MS = 25_000;
// A viewer this far behind is dropped; its browser reconnects and reloads the list.
const MAX_BUFFERED = 1024 * 1024;
/** Open streams one user may hold on one instance (a tab each); more answer 429. */
export const MAX_STREAMS_PER_USER = 20;

/**
 * Server-sent events of one tenant to one viewer. Writes made in the same tick go out as one chunk. A sign-out,
 * password change, member removal or tenant deletion (on any instance, through the bus) re-checks the streams it
 * concerns at once and ends those no longer allowed; every heartbeat re-checks as well, as a safety net.
 */
export class AlertStreams {
  private open = new Map<() => void, TenantContext>();

  constructor(
    private readonly db: DB,
    private readonly bus: AlertBus,
  ) {
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
      if (msg.type === 'alert') write(`event: alert\ndata: ${JSON.stringify(msg.change)}\n\n`);
      else if (msg.type === 'approval') write(`event: approval\ndata: ${JSON.stringify(msg.change)}\n\n`);
      else write('event: resync\ndata: {}\n\n');
    });
    const heartbeat = setInterval(() => {
      void this.stillAllowed(ctx).then(
        (ok) => (ok ? write(': ping\n\n') : end()),
        () => write(': ping\n\n'),
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    this.open.set(end, ctx);
    reply.raw.on('close', end);

    stream.write('retry: 2000\n\nevent: ready\ndata: {}\n\n');
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
