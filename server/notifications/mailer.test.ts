import { describe, expect, it } from 'vitest';
import { createMailer, pooledUrl } from './mailer.ts';

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
