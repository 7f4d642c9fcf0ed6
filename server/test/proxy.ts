import net from 'node:net';

/**
 * A TCP hop between the server and PostgreSQL that a test can cut and restore: the database "goes away" the way it
 * does in a failover or a network partition (open connections reset, new ones refused), then comes back.
 */
export class CuttableProxy {
  private server: net.Server;
  private sockets = new Set<net.Socket>();
  private cut = false;
  /** When set, a new connection is answered the way PostgreSQL refuses one: an ErrorResponse with this SQLSTATE. */
  private refuseWith: { code: string; message: string } | null = null;
  /** When set, nothing passes any more and nothing is refused: packets dropped on the floor. */
  private silent = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = net.createServer((client) => {
      if (this.cut) return client.destroy();
      if (this.silent) {
        client.on('error', () => {});
        this.sockets.add(client);
        client.on('close', () => this.sockets.delete(client));
        return;
      }
      const refusal = this.refuseWith;
      if (refusal) {
        client.on('error', () => {});
        this.sockets.add(client);
        client.on('close', () => this.sockets.delete(client));
        // After the client's startup packet, as PostgreSQL does (protocol 3: 'E', length, fields, terminator).
        client.once('data', () => client.end(postgresError(refusal.code, refusal.message)));
        return;
      }
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }
  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  /** Resets every open connection and refuses new ones. */
  down() {
    this.cut = true;
    for (const s of this.sockets) s.destroy();
  }
  up() {
    this.cut = false;
    this.refuseWith = null;
    if (this.silent) for (const s of this.sockets) s.destroy();
    this.silent = false;
  }
  /** Open connections stop carrying anything and new ones get no answer, with no reset: a silent network drop. */
  silence() {
    this.silent = true;
    for (const s of this.sockets) {
      s.unpipe();
      s.pause();
    }
  }
  /** Resets every open connection; new ones are refused by "PostgreSQL" with `code` (shutdown, start-up, overload…). */
  refuse(code: string, message: string) {
    this.refuseWith = { code, message };
    for (const s of this.sockets) s.destroy();
  }
  async close() {
    this.down();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A FATAL ErrorResponse message of the PostgreSQL wire protocol. */
function postgresError(code: string, message: string) {
  const fields = Buffer.concat([...[['S', 'FATAL'], ['V', 'FATAL'], ['C', code], ['M', message]].map(([k, v]) => Buffer.from(`${k}${v}\0`)), Buffer.from('\0')]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(fields.length + 4);
  return Buffer.concat([Buffer.from('E'), length, fields]);
}
