import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set. Otherwise every mail is written to the server log so links stay usable locally; in
 * production (NODE_ENV=production) only its recipient and subject are, since its text may hold single-use links.
 */
export function createMailer(opts: { smtpUrl: string | null; from: string; log: { info(obj: object, msg: string): void }; production?: boolean }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(mail) {
        const meta = { mail: { to: mail.to, subject: mail.subject } };
        if (opts.production) opts.log.info(meta, 'mail not sent: no SMTP_URL set (its text is not logged in production)');
        else opts.log.info(meta, `mail (no SMTP_URL set):\n${mail.text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: opts.from, ...mail });
    },
  };
}
