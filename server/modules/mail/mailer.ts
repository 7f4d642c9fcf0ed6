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

/** SMTP when SMTP_URL is set; otherwise every mail is written to the server log so links stay usable locally. */
export function createMailer(opts: { smtpUrl: string | null; from: string; log: { info(obj: object, msg: string): void } }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(mail) {
        opts.log.info({ mail: { to: mail.to, subject: mail.subject } }, `mail (no SMTP_URL set):\n${mail.text}`);
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
