import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
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

/** What nodemailer passes `getSocket`: its connection options, from SMTP_URL. */
interface SocketOptions {
  host?: string;
  port?: number | string;
  secure?: boolean;
  connectionTimeout?: number | string;
}

/** nodemailer's own defaults: the port by `secure`, two minutes to connect. */
const DEFAULT_CONNECTION_TIMEOUT_MS = 120_000;

/**
 * Opens each SMTP connection with Nagle's algorithm off (nodemailer's `getSocket`, documented for proxies: a connected
 * socket it uses as is, upgraded to TLS by itself for smtps: and STARTTLS). nodemailer writes a mail's closing dot as a
 * write of its own after the body; with Nagle on, that small write waits for the body's acknowledgement, which the
 * mail server delays (Linux: up to 40 ms) since it has nothing to answer before the dot. Every mail took ≈ 44 ms on a
 * pooled connection, whatever the server; with this, 0.6 ms against a local one.
 */
export function connectWithoutDelay(options: SocketOptions, callback: (err: Error | null, socket?: { connection: net.Socket }) => void): void {
  const port = Number(options.port) || (options.secure ? 465 : 587);
  const socket = net.connect({ host: options.host || 'localhost', port, noDelay: true });
  let settled = false;
  const settle = (err: Error | null) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (err) {
      socket.destroy();
      callback(err);
    } else callback(null, { connection: socket });
  };
  const timer = setTimeout(() => settle(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })), Number(options.connectionTimeout) || DEFAULT_CONNECTION_TIMEOUT_MS);
  // Kept for the socket's life: an error nodemailer no longer listens for (after it closed) must not end the process.
  socket.on('error', (err) => settle(err));
  socket.once('connect', () => settle(null));
}

type MailLog = { info(obj: object, msg: string): void; warn?(obj: object, msg: string): void };

/** A warning, where the log has that level (else as information). */
const warn = (log: MailLog, obj: object, msg: string) => (log.warn ?? log.info).call(log, obj, msg);

/**
 * SMTP when SMTP_URL is set, sent from a thread of its own (`thread: false`: from this one). Otherwise every mail is
 * written to the server log so links stay usable locally; in production (NODE_ENV=production) only its recipient and
 * subject are, since its text may hold single-use links.
 */
export function createMailer(opts: { smtpUrl: string | null; from: string; log: MailLog; production?: boolean; connections?: number; thread?: boolean }): Mailer {
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
  return opts.thread === false ? smtpMailer(url, opts.from, opts.log) : threadMailer(url, opts.from, opts.log);
}

/** The domain of a From address (`Name <pages@example.com>` → example.com), for Message-IDs; localhost without one. */
export function fromDomain(from: string): string {
  return /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/**
 * What nodemailer would otherwise work out or draw at random for every mail, given once: the text parts are
 * quoted-printable (its guess counts every Latin letter of the HTML with a regular expression: a third of a page mail's
 * CPU), and one random UUID makes the Message-ID and the MIME boundaries (it drew eight random buffers a mail).
 */
export function composeOptions(domain: string) {
  const id = randomUUID();
  return { textEncoding: 'quoted-printable' as const, messageId: `<${id}@${domain}>`, baseBoundary: id.replaceAll('-', '') };
}

/** nodemailer over SMTP in this thread: connections reused (`pooledUrl`), opened by `connectWithoutDelay`. */
export function smtpMailer(url: string, from: string, log: MailLog): Mailer {
  let transport: ReturnType<typeof nodemailer.createTransport> | null = null;
  const domain = fromDomain(from);
  return {
    async send(mail) {
      if (!transport) {
        transport = nodemailer.createTransport(url);
        // nodemailer's documented way to give a transport its sockets (it hands this to the pool at the first mail).
        (transport as unknown as { getSocket: typeof connectWithoutDelay }).getSocket = connectWithoutDelay;
        // A pooled connection the mail server drops while idle is an 'error' event: unheard, it would end the process.
        // The pool opens a new connection for the next mail; a mail whose send fails is rejected and retried as always.
        transport.on('error', (err) => warn(log, { err }, 'an idle SMTP connection failed; the next mail opens a new one'));
      }
      await transport.sendMail({ from, ...mail, headers: { ...mail.headers, 'X-Alertdesk-Mail': '1' }, ...composeOptions(domain) });
    },
    close() {
      transport?.close();
      transport = null;
    },
  };
}

/** What the mail thread is asked (`mail-thread.ts`). */
export type MailThreadRequest = { kind: 'send'; id: number; mail: Mail };
/** What the mail thread answers: a mail's outcome (a failure as nodemailer described it), or a line for the log. */
export type MailThreadAnswer =
  | { kind: 'sent'; id: number }
  | { kind: 'failed'; id: number; error: { message: string; code?: string; responseCode?: number; response?: string } }
  | { kind: 'log'; level: 'info' | 'warn'; msg: string; err: string | null };

/** Where tsx's ESM API lives (its package's own `exports`: the import condition). */
function tsxApiUrl(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const exports = JSON.parse(fs.readFileSync(manifest, 'utf8')).exports['./esm/api'] as { import: { default: string } };
  return pathToFileURL(path.join(path.dirname(manifest), exports.import.default)).href;
}

/**
 * The mail thread's first code: its TypeScript imported through tsx's API, as `npm start` runs the server (a thread
 * does not inherit the main thread's loader, and tests run without it).
 */
const threadBoot = () => `import(${JSON.stringify(tsxApiUrl())}).then((tsx) => tsx.tsImport(${JSON.stringify(new URL('./mail-thread.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)}))`;

/**
 * Mail composed and sent on a thread of its own (`mail-thread.ts`, started at the first mail). Building a MIME message
 * and writing it costs nodemailer ≈ 0.5–1 ms of CPU a mail: at a thousand pages a second that was most of the main
 * thread, which also ingests alerts and runs the escalations. A failure keeps nodemailer's `responseCode` (a 5xx is
 * permanent to the email channel). A thread that stops fails the mails it held (they are retried as any failure) and
 * the next mail starts a new one; `close` ends it. It holds the process open only while mails are on their way.
 */
export function threadMailer(url: string, from: string, log: MailLog): Mailer {
  let worker: Worker | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  const settle = (id: number, err: Error | null) => {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (waiting.size === 0) worker?.unref();
    if (err) w.reject(err);
    else w.resolve();
  };
  const failAll = (err: Error) => {
    for (const id of [...waiting.keys()]) settle(id, err);
  };
  const start = () => {
    const w = new Worker(threadBoot(), { eval: true, workerData: { url, from } });
    w.unref();
    w.on('message', (m: MailThreadAnswer) => {
      if (m.kind === 'log') {
        if (m.level === 'warn') warn(log, { err: m.err }, m.msg);
        else log.info({ err: m.err }, m.msg);
      } else if (m.kind === 'sent') settle(m.id, null);
      else settle(m.id, Object.assign(new Error(m.error.message), { code: m.error.code, responseCode: m.error.responseCode, response: m.error.response }));
    });
    w.on('error', (err) => warn(log, { err }, 'the mail thread failed; the next mail starts a new one'));
    // A thread the mailer closed has had its mails failed already; its exit must not fail those of the next thread.
    w.on('exit', () => {
      if (worker !== w) return;
      worker = null;
      failAll(new Error('the mail thread stopped before the mail was sent'));
    });
    return w;
  };
  return {
    send(mail) {
      worker ??= start();
      const id = ++next;
      const w = worker;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        if (waiting.size === 1) w.ref();
        w.postMessage({ kind: 'send', id, mail } satisfies MailThreadRequest);
      });
    },
    close() {
      const w = worker;
      worker = null;
      if (!w) return;
      failAll(new Error('the mailer was closed before the mail was sent'));
      void w.terminate();
    },
  };
}
