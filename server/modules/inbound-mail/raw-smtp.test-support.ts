import net from 'node:net';

export interface SmtpReply {
  code: number;
  text: string;
}

/**
 * An SMTP conversation over a bare socket, for what a mail library will not do on purpose (eleven recipients, eleven
 * megabytes without a SIZE): each `command` writes one line and resolves with the server's (possibly multi-line) reply.
 */
export async function rawSmtp(port: number, host = '127.0.0.1') {
  const socket = net.connect(port, host);
  socket.setNoDelay(true);
  const replies: SmtpReply[] = [];
  const waiting: Array<(r: SmtpReply) => void> = [];
  let buffer = '';
  let lines: string[] = [];
  let closed = false;
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1');
    for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      lines.push(line);
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), text: lines.join('\n') };
        lines = [];
        const w = waiting.shift();
        if (w) w(reply);
        else replies.push(reply);
      }
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
    for (const w of waiting.splice(0)) w({ code: 0, text: 'connection closed' });
  });
  const next = () => new Promise<SmtpReply>((resolve) => (replies.length ? resolve(replies.shift()!) : closed ? resolve({ code: 0, text: 'connection closed' }) : waiting.push(resolve)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  const greeting = await next();
  return {
    greeting,
    command(line: string) {
      socket.write(`${line}\r\n`);
      return next();
    },
    /** Writes message data (already dot-stuffed and CRLF'd) and waits until the socket took it. */
    write(data: string | Buffer) {
      return new Promise<void>((resolve) => socket.write(data, () => resolve()));
    },
    next,
    close() {
      socket.destroy();
    },
  };
}
