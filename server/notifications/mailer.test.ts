import { describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import { connectWithoutDelay, createMailer, fromDomain, pooledUrl } from './mailer.ts';
import { startSmtpServer } from '../test/smtp.ts';

describe('mailer without SMTP', () => {
  const mail = { to: 'ana@example.com', subject: 'Reset your password', text: 'Reset: http://localhost:3000/reset-password?token=s3cr3t-token' };
  const capture = () => {
    const lines: string[] = [];
    return { lines, log: { info: (obj: object, msg: string) => void lines.push(JSON.stringify(obj) + ' ' + msg) } };
  };

  it('writes the whole mail to the log locally, so its links can be followed', async () => {
    const { lines, log } = capture();
    await createMailer({ smtpUrl: null, from: 'x@example.com', log }).send(mail);
    expect(lines.join('\n')).toContain('token=s3cr3t-token');
  });

  it('keeps single-use links out of the log in production', async () => {
    const { lines, log } = capture();
    await createMailer({ smtpUrl: null, from: 'x@example.com', log, production: true }).send(mail);
    expect(lines.join('\n')).toContain('Reset your password');
    expect(lines.join('\n')).not.toContain('s3cr3t-token');
  });
});

describe('pooledUrl', () => {
  it.each([
    { url: 'smtp://relay.example.com:25', want: 'smtp://relay.example.com:25?pool=true&maxConnections=5&maxMessages=1000' },
    { url: 'smtps://u:p%40ss@relay.example.com:465?maxConnections=2', want: 'smtps://u:p%40ss@relay.example.com:465?maxConnections=2&pool=true&maxMessages=1000' },
    { url: 'smtp://relay.example.com:25?pool=false', want: 'smtp://relay.example.com:25?pool=false' },
  ])('reuses connections unless told otherwise: $url', ({ url, want }) => {
    expect(pooledUrl(url, 5)).toBe(want);
  });
});

describe('mailer over pooled SMTP', () => {
  it('survives the mail server resetting an idle connection, and sends the next mail on a new one', async () => {
    const smtp = await startSmtpServer();
    const sockets: Socket[] = [];
    smtp.server.server.on('connection', (s: Socket) => sockets.push(s));
    const warnings: string[] = [];
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'Alertdesk <pager@alertdesk.test>', log: { info: () => {}, warn: (_o, msg) => warnings.push(msg) } });
    try {
      await mailer.send({ to: 'ana@example.com', subject: 'First', text: 'one' });
      // The server drops the idle pooled connection with a reset (ECONNRESET at the client): nothing is thrown at the
      // process (vitest fails a run on an unhandled error), and the next mail goes over a new connection.
      expect(sockets).toHaveLength(1);
      for (const s of sockets) s.resetAndDestroy();
      await new Promise((r) => setTimeout(r, 100));
      await mailer.send({ to: 'ana@example.com', subject: 'Second', text: 'two' });
      expect(smtp.received.map((m) => /Subject: (\w+)/.exec(m.raw)?.[1])).toEqual(['First', 'Second']);
      expect(sockets).toHaveLength(2);
      expect(warnings.every((w) => w.startsWith('an idle SMTP connection failed'))).toBe(true);
    } finally {
      mailer.close?.();
      await smtp.close();
    }
  });
});

describe('mail as composed', () => {
  it('arrives intact in any script, each mail with its own Message-ID at the sender\'s domain and its own boundaries', async () => {
    const smtp = await startSmtpServer();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'Alertdesk <pager@alertdesk.test>', log: { info: () => {} } });
    const mail = (n: number) => ({
      to: 'ana@example.com',
      subject: `[CRIT] Müller GmbH: Диск C: заполнен ${n}`,
      text: `Überlauf auf SRV-0${n} — 残り 3 %\n${'x'.repeat(200)}`,
      html: `<p style="color:#c92a2a">Überlauf auf <b>SRV-0${n}</b> — 残り 3 %</p><p>${'y'.repeat(200)}</p>`,
    });
    try {
      await mailer.send(mail(1));
      await mailer.send(mail(2));
      const parsed = await Promise.all(smtp.received.map((m) => PostalMime.parse(m.raw)));
      for (const [i, p] of parsed.entries()) {
        expect(p.subject).toBe(mail(i + 1).subject);
        expect(p.text?.trimEnd()).toBe(mail(i + 1).text);
        expect(p.html?.trimEnd()).toBe(mail(i + 1).html);
        expect(p.messageId).toMatch(/^<[0-9a-f-]{36}@alertdesk\.test>$/);
      }
      expect(parsed[0].messageId).not.toBe(parsed[1].messageId);
      const boundaries = smtp.received.map((m) => /boundary="?([^";\r\n]+)/.exec(m.raw)?.[1]);
      expect(boundaries[0]).toBeTruthy();
      expect(boundaries[0]).not.toBe(boundaries[1]);
    } finally {
      mailer.close?.();
      await smtp.close();
    }
  });

  it('takes the Message-ID domain from the From address', () => {
    expect(fromDomain('Alertdesk <pages@mail.example.com>')).toBe('mail.example.com');
    expect(fromDomain('pages@example.org')).toBe('example.org');
    expect(fromDomain('Alertdesk')).toBe('localhost');
  });
});

/**
 * The mailer opens its SMTP connections itself, with Nagle's algorithm off (`connectWithoutDelay`): nodemailer then
 * sends every mail on them, upgrading them to TLS itself for smtps: and STARTTLS. (What it saves, ≈ 44 ms a mail on
 * a pooled connection, is a figure of `npm run bench:inbox`, not of a test.)
 */
describe('mailer connections', () => {
  /** A real SMTP server on 127.0.0.1: implicit TLS (`secure`), STARTTLS offered, or plain; smtp-server's own test certificate. */
  async function tlsServer(mode: 'smtps' | 'starttls' | 'plain') {
    const subjects: string[] = [];
    const secured: boolean[] = [];
    const server = new SMTPServer({
      secure: mode === 'smtps',
      authOptional: true,
      logger: false,
      disabledCommands: mode === 'plain' ? ['STARTTLS'] : [],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          subjects.push(/Subject: (.*)\r\n/.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '');
          secured.push(session.secure);
          callback();
        });
      },
    });
    server.on('error', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as net.AddressInfo).port;
    return { port, subjects, secured, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  for (const mode of ['smtps', 'starttls', 'plain'] as const) {
    it(`sends pooled mail over its own socket: ${mode}`, async () => {
      const smtp = await tlsServer(mode);
      // A test certificate: the relay's name is not checked here (production keeps nodemailer's checks).
      const url = `${mode === 'smtps' ? 'smtps' : 'smtp'}://127.0.0.1:${smtp.port}?tls.rejectUnauthorized=false`;
      const mailer = createMailer({ smtpUrl: url, from: 'Alertdesk <pager@alertdesk.test>', log: { info: () => {} }, connections: 1 });
      try {
        for (const subject of ['One', 'Two', 'Three']) await mailer.send({ to: 'ana@example.com', subject, text: subject });
        expect(smtp.subjects).toEqual(['One', 'Two', 'Three']);
        expect(smtp.secured).toEqual(Array(3).fill(mode !== 'plain'));
      } finally {
        mailer.close?.();
        await smtp.close();
      }
    });
  }

  it('answers a refused connection with its error', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await new Promise<Error | null>((resolve) => connectWithoutDelay({ host: '127.0.0.1', port }, (err) => resolve(err)));
    expect((refused as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });
});

/**
 * Mail is composed and sent on a thread of its own (`threadMailer`): what a mail server answers comes back as nodemailer
 * said it (a 5xx keeps its code: the email channel treats it as permanent), and closing the mailer fails what was
 * still on its way rather than leaving it waiting.
 */
describe('the mail thread', () => {
  it("brings back a mail server's refusal with its code, and the next mail goes through", async () => {
    const server = new SMTPServer({
      authOptional: true,
      logger: false,
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('gone@')) callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
        else callback();
      },
      onData(stream, _session, callback) {
        stream.on('data', () => {});
        stream.on('end', () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as net.AddressInfo).port;
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'pager@alertdesk.test', log: { info: () => {} } });
    try {
      await expect(mailer.send({ to: 'gone@example.com', subject: 'Page', text: 'x' })).rejects.toMatchObject({ responseCode: 550, message: expect.stringContaining('No such user here') });
      await expect(mailer.send({ to: 'ana@example.com', subject: 'Page', text: 'x' })).resolves.toBeUndefined();
    } finally {
      mailer.close?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('sends a mail asked for right after it was closed: the old thread ending does not fail it', async () => {
    const smtp = await startSmtpServer();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'pager@alertdesk.test', log: { info: () => {} } });
    try {
      await mailer.send({ to: 'ana@example.com', subject: 'Before', text: 'x' });
      mailer.close?.();
      await mailer.send({ to: 'ana@example.com', subject: 'After', text: 'x' });
      expect(smtp.received.map((m) => /Subject: (\w+)/.exec(m.raw)?.[1])).toEqual(['Before', 'After']);
    } finally {
      mailer.close?.();
      await smtp.close();
    }
  });

  it('fails the mails still on their way when it is closed', async () => {
    const smtp = await startSmtpServer({ delayMs: 5_000 });
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'pager@alertdesk.test', log: { info: () => {} } });
    try {
      const slow = mailer.send({ to: 'ana@example.com', subject: 'Slow', text: 'x' });
      await new Promise((r) => setTimeout(r, 300));
      mailer.close?.();
      await expect(slow).rejects.toThrow('the mailer was closed before the mail was sent');
    } finally {
      mailer.close?.();
      await smtp.close();
    }
  });
});
