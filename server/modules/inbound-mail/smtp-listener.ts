import fs from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { FastifyBaseLogger } from 'fastify';
import type { NormalizedEvent } from '../alerts/ingest/ingest.mappers.ts';
import type { IntegrationAuth } from '../integrations/integration-keys.ts';
import type { IntegrationMailbox } from '../integrations/integrations.service.ts';
import { ignoreReason } from './ignored-mail.ts';
import { mailToEvent } from './mail-event.ts';
import { parseMail } from './mail-parse.ts';

/** Largest message taken (SIZE is advertised, and the bytes are counted as they arrive). */
export const MAX_MAIL_BYTES = 10 * 1024 * 1024;
/** Recipients per message: more answer 452, so a sender splits the message rather than fanning out without bound. */
export const MAX_RECIPIENTS = 10;
/** Refused recipients per connection before it is closed (421): guessing addresses costs a new connection each time. */
export const MAX_REFUSED_RECIPIENTS = 20;

/** A heartbeat monitor's address (issue 28): a mail to it is a ping, found by the hash of the ping URL's secret. */
export interface HeartbeatMailbox {
  heartbeatTokenHash: string;
  revoked: false;
}
export type Mailbox = IntegrationMailbox | HeartbeatMailbox;

export interface SmtpListenerOptions {
  domain: string;
  tls: { certFile: string; keyFile: string } | null;
  log: FastifyBaseLogger;
  /** The integration or heartbeat monitor an address's local part belongs to (cached), or null. */
  lookup(token: string): Promise<Mailbox | null>;
  /** Stores one integration's event (the ingestion service); resolves once it is committed. */
  deliver(auth: IntegrationAuth, event: NormalizedEvent): Promise<unknown>;
  /** Records a monitor's ping (heartbeat-monitor pingHash); `output` goes with a failure. */
  ping(tokenHash: string, kind: 'success' | 'fail', output: string | null): Promise<void>;
  /** Hears of each refusal, for the ingestion metrics (`MailRefusal`: why). */
  refused?(reason: MailRefusal): void;
}

/**
 * Why a mail (or one recipient of it) was refused, as the ingestion metrics name refusals: 550/421 an address that is
 * not an integration's or monitor's, 452 too many recipients, 552 too large, 554 unreadable, 451 the database away.
 */
export type MailRefusal = 'unknown_recipient' | 'too_many_recipients' | 'too_large' | 'invalid' | 'unavailable';

/** A subject saying the job failed makes a mail to a monitor a /fail ping ("Backup job FAILED", "[Error] …"). */
const FAILED_SUBJECT = /\b(fail|fails|failed|failure|error|errors|unsuccessful|aborted)\b/i;
/** The part of a failure mail's text that goes into the monitor's alert, as a /fail's body would. */
const PING_OUTPUT_MAX = 10_000;

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });
const REFUSAL_OF: Record<number, MailRefusal> = { 421: 'unknown_recipient', 550: 'unknown_recipient', 452: 'too_many_recipients', 552: 'too_large', 554: 'invalid', 451: 'unavailable' };
const TRY_LATER = 'Temporary failure, please try again later';

/**
 * The SMTP listener of email to alert. What it answers:
 * - RCPT: 550 for an address of another domain, an unknown token or a revoked integration (421 and the connection
 *   closed past MAX_REFUSED_RECIPIENTS of them); 452 past MAX_RECIPIENTS; 451 when the look-up fails (the database is
 *   away): the sender keeps the mail and retries.
 * - DATA: 552 past MAX_MAIL_BYTES (counted while the message streams in; what came in is dropped at once, not kept to
 *   the end); 554 for a message that cannot be read; 451 when storing fails, so nothing is lost: a 250 is sent only
 *   once every recipient's alert is committed. Auto-replies, bounces and Alertdesk's own mail are taken (250) and dropped.
 * No AUTH (mail comes from MTAs, as to any MX); STARTTLS only with a configured certificate.
 */
export function createSmtpListener(opts: SmtpListenerOptions) {
  const accepted = new WeakMap<SMTPServerSession, Map<string, Mailbox>>();
  const refusedCount = new WeakMap<SMTPServerSession, number>();
  const refuse = (session: SMTPServerSession, rcpt: string) => {
    const refused = (refusedCount.get(session) ?? 0) + 1;
    refusedCount.set(session, refused);
    return refused > MAX_REFUSED_RECIPIENTS ? smtpError(421, 'Too many unknown recipients, closing connection') : smtpError(550, `No such mailbox here: ${rcpt}`);
  };
  const tls = opts.tls ? { cert: fs.readFileSync(opts.tls.certFile), key: fs.readFileSync(opts.tls.keyFile) } : null;

  /** An SMTP refusal, counted by why. */
  const refusal = (err: Error & { responseCode: number }) => {
    opts.refused?.(REFUSAL_OF[err.responseCode] ?? 'invalid');
    return err;
  };

  const onRcptTo = (address: SMTPServerAddress, session: SMTPServerSession, rawCallback: (err?: Error | null) => void) => {
    const callback = (err?: (Error & { responseCode: number }) | null) => rawCallback(err ? refusal(err) : err);
    const rcpt = address.address.toLowerCase();
    // The recipient limit is kept here rather than by smtp-server (its maxRecipients answers 452 without telling us).
    if (session.envelope.rcptTo.length >= MAX_RECIPIENTS && !session.envelope.rcptTo.some((r) => r.address.toLowerCase() === rcpt)) return callback(smtpError(452, 'Error: too many recipients'));
    const at = rcpt.lastIndexOf('@');
    // A "+tag" after the token is the sender's own label (token+backup@…), as many mail systems allow.
    const token = at > 0 ? rcpt.slice(0, at).split('+')[0] : '';
    if (at < 0 || rcpt.slice(at + 1) !== opts.domain || !token) return callback(refuse(session, rcpt));
    opts.lookup(token).then(
      (mailbox) => {
        if (!mailbox || mailbox.revoked) return callback(refuse(session, rcpt));
        let map = accepted.get(session);
        if (!map) accepted.set(session, (map = new Map()));
        map.set(rcpt, mailbox);
        callback();
      },
      (err: unknown) => {
        opts.log.warn({ err }, 'inbound mail: recipient look-up failed');
        callback(smtpError(451, TRY_LATER));
      },
    );
  };

  const onData = (stream: SMTPServerDataStream, session: SMTPServerSession, rawCallback: (err?: Error | null, message?: string) => void) => {
    const callback = (err?: Error | null, message?: string) => rawCallback(err && 'responseCode' in err ? refusal(err as Error & { responseCode: number }) : err, message);
    const chunks: Buffer[] = [];
    let bytes = 0;
    let tooLarge = false;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (tooLarge) return;
      if (bytes > MAX_MAIL_BYTES) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    stream.on('end', () => {
      if (tooLarge || stream.sizeExceeded) return callback(smtpError(552, `Message exceeds the ${MAX_MAIL_BYTES / 1024 / 1024} MB limit`));
      const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const mailboxes = accepted.get(session);
      const recipients = session.envelope.rcptTo.flatMap((r) => {
        const mailbox = mailboxes?.get(r.address.toLowerCase());
        return mailbox ? [{ address: r.address.toLowerCase(), mailbox }] : [];
      });
      receive(Buffer.concat(chunks), envelopeFrom, recipients).then(
        (message) => callback(null, message),
        (err: Error) => callback(err),
      );
    });
  };

  /** The message, read and stored for each recipient: the 250 text, or an error carrying its SMTP code. */
  async function receive(raw: Buffer, envelopeFrom: string, recipients: Array<{ address: string; mailbox: Mailbox }>): Promise<string> {
    let parsed: Awaited<ReturnType<typeof parseMail>>;
    try {
      parsed = await parseMail(raw, envelopeFrom);
    } catch (err) {
      opts.log.info({ err }, 'inbound mail: unreadable message refused');
      throw smtpError(554, 'Message could not be read');
    }
    const ignored = ignoreReason(parsed.headers, envelopeFrom);
    if (ignored) {
      opts.log.info({ reason: ignored, messageId: parsed.mail.messageId }, 'inbound mail: taken without an alert');
      return `Accepted, no alert (${ignored})`;
    }
    try {
      await Promise.all(
        recipients.map(async ({ address, mailbox }) => {
          if ('heartbeatTokenHash' in mailbox) return pingByMail(mailbox, parsed.mail);
          const { event, timedOut } = mailToEvent(parsed.mail, mailbox.settings, address);
          if (timedOut.length) opts.log.warn({ integrationId: mailbox.auth.id, patterns: timedOut }, 'inbound mail: a pattern ran too long and counted as not matching');
          await opts.deliver(mailbox.auth, event);
        }),
      );
    } catch (err) {
      opts.log.warn({ err }, 'inbound mail: storing failed; the sender is asked to retry');
      throw smtpError(451, TRY_LATER);
    }
    return 'Accepted';
  }

  /**
   * A mail to a monitor: a ping, or a /fail when its subject says so (its text as the job's output). A monitor deleted
   * meanwhile (404) or pinged too often (429) takes the mail without a ping: asking the sender to retry would not help.
   */
  async function pingByMail(mailbox: HeartbeatMailbox, mail: { subject: string; text: string }) {
    const failed = FAILED_SUBJECT.test(mail.subject);
    try {
      await opts.ping(mailbox.heartbeatTokenHash, failed ? 'fail' : 'success', failed ? `${mail.subject}\n\n${mail.text}`.slice(0, PING_OUTPUT_MAX) : null);
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 404 || status === 429) return opts.log.info({ status }, 'inbound mail: a monitor\'s mail was taken without a ping');
      throw err;
    }
  }

  const server = new SMTPServer({
    name: opts.domain,
    banner: 'Alertdesk',
    logger: false,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    disableReverseLookup: true,
    size: MAX_MAIL_BYTES,
    maxClients: 500,
    closeTimeout: 3_000,
    onRcptTo,
    onData,
  });
  // Without a listener an 'error' (a client resetting its connection) would end the process.
  server.on('error', (err) => opts.log.debug({ err }, 'inbound mail: connection error'));
  // Replies are small writes in a conversation: without this, Nagle's algorithm and the client's delayed ACK hold
  // many of them back ~40 ms each, and one connection takes a few mails a second instead of dozens.
  server.server.on('connection', (socket: Socket) => socket.setNoDelay(true));

  return {
    /** Starts listening; resolves with the port it got (`port` 0: one the OS picks). */
    listen(port: number, host: string): Promise<number> {
      return new Promise((resolve, reject) => {
        const fail = (err: Error) => reject(err);
        server.server.once('error', fail);
        server.listen(port, host, () => {
          server.server.off('error', fail);
          resolve((server.server.address() as AddressInfo).port);
        });
      });
    },
    /** Stops taking connections and waits for those open (at most closeTimeout, then they get 421). */
    close(): Promise<void> {
      return new Promise((resolve) => {
        if (!server.server.listening) return resolve();
        server.close(() => resolve());
      });
    },
  };
}
