import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 (random port) that keeps every message it accepts; `delayMs` makes it take that long
 * per message (a slow mail server), `onMail` hears of each one as it is accepted.
 */
export async function startSmtpServer(opts: { delayMs?: number; onMail?: (mail: ReceivedMail, count: number) => void } = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A client that keeps its pooled connection open (a mailer a test did not close) is cut off half a second after
    // `close()`, not after smtp-server's default 30 s.
    closeTimeout: 500,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const accept = () => {
          const mail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          };
          received.push(mail);
          callback();
          opts.onMail?.(mail, received.length);
        };
        if (opts.delayMs) setTimeout(accept, opts.delayMs);
        else accept();
      });
    },
  });
  // A client that vanishes mid-connection (a killed server process, a pooled connection dropped) is an 'error' event:
  // a mail server lives on, and so must this one (unheard, it would end the test process).
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** The smtp-server instance (tests reach its sockets through its net server, `.server`). */
    server,
    received,
    /** Quoted-printable soft breaks undone, so links can be read out of the raw message. */
    text(i = received.length - 1) {
      return received[i]?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') ?? '';
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
