import { describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import { createMailer, pooledUrl } from './mailer.ts';
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
