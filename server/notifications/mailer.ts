import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (e.g. List-Unsubscribe); X-Alertdesk-Mail (our own mail: the inbound listener ignores it) stays. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Ends the open SMTP connections (the server's close); a later send opens new ones. */
  close?(): void;
}

/**
 * SMTP_URL with connection reuse unless it says otherwise (`?pool=false`): pages in a burst go over a few open
 * connections instead of one connection (and greeting, and EHLO) each, several times faster against a relay.
 */
export function pooledUrl(smtpUrl: string, connections: number): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  if (url.searchParams.get('pool') === 'true' && !url.searchParams.has('maxConnections')) url.searchParams.set('maxConnections', String(connections));
  if (url.searchParams.get('pool') === 'true' && !url.searchParams.has('maxMessages')) url.searchParams.set('maxMessages', '1000');
  return url.toString();
}

/**
 * SMTP when SMTP_URL is set. Otherwise every mail is written to the server log so links stay usable locally; in
 * production (NODE_ENV=production) only its recipient and subject are, since its text may hold single-use links.
 */
export function createMailer(opts: {
  smtpUrl: string | null;
  from: string;
  log: { info(obj: object, msg: string): void; warn?(obj: object, msg: string): void };
  production?: boolean;
  connections?: number;
}): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(mail) {
        const meta = { mail: { to: mail.to, subject: mail.subject } };
        if (opts.production) opts.log.info(meta, 'mail not sent: no SMTP_URL set (its text is not logged in production)');
        else opts.log.info(meta, `mail (no SMTP_URL set):\n${mail.text}`);
      },
    };
  }
  const url = pooledUrl(opts.smtpUrl, opts.connections ?? 5);
  let transport: ReturnType<typeof nodemailer.createTransport> | null = null;
  return {
    async send(mail) {
      if (!transport) {
        transport = nodemailer.createTransport(url);
        // A pooled connection the mail server drops while idle is an 'error' event: unheard, it would end the process.
        // The pool opens a new connection for the next mail; a mail whose send fails is rejected and retried as always.
        transport.on('error', (err) => (opts.log.warn ?? opts.log.info).call(opts.log, { err }, 'an idle SMTP connection failed; the next mail opens a new one'));
      }
      await transport.sendMail({ from: opts.from, ...mail, headers: { ...mail.headers, 'X-Alertdesk-Mail': '1' } });
    },
    close() {
      transport?.close();
      transport = null;
    },
  };
}
