import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { findTenantForUser } from '../tenants/tenants.repository.ts';
import type { AlertBus, BusMessage } from './alert-bus.ts';

const HEARTBEAT_MS = 25_000;
// A viewer this far behind is dropped; its browser reconnects and reloads the list.
const MAX_BUFFERED = 1024 * 1024;

/**
 * Server-sent events of one tenant to one viewer. Writes made in the same tick go out as one chunk. Every heartbeat
 * re-checks that the session and the membership still stand, so a removed member stops hearing the tenant.
 */
export class AlertStreams {
  private open = new Set<() => void>();

  constructor(
    private readonly db: DB,
    private readonly bus: AlertBus,
  ) {}

  get size() {
    return this.open.size;
  }

  attach(ctx: TenantContext, reply: FastifyReply) {
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
      else write('event: resync\ndata: {}\n\n');
    });
    const heartbeat = setInterval(() => {
      void this.stillAllowed(ctx).then(
        (ok) => (ok ? write(': ping\n\n') : end()),
        () => write(': ping\n\n'),
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    this.open.add(end);
    reply.raw.on('close', end);

    stream.write('retry: 2000\n\nevent: ready\ndata: {}\n\n');
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('x-accel-buffering', 'no')
      .send(stream);
  }

  private async stillAllowed(ctx: TenantContext) {
    const session = await this.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('token_hash', '=', ctx.user.token_hash)
      .where('expires_at', '>', now())
      .executeTakeFirst();
    if (!session) return false;
    const found = await findTenantForUser(this.db, ctx.tenant.id, ctx.user.id);
    return !!found && (found.tenant.owner_id === ctx.user.id || found.memberRole !== null);
  }

  /** Ends every stream (server shutdown: open streams would otherwise keep it waiting). */
  closeAll() {
    for (const end of [...this.open]) end();
  }
}
