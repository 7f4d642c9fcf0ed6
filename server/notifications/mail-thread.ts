import { parentPort, workerData } from 'node:worker_threads';
import { smtpMailer, type MailThreadAnswer, type MailThreadRequest } from './mailer.ts';

/**
 * The mail thread (`threadMailer`): nodemailer over SMTP, off the server's main thread. Each mail's outcome goes back
 * with its id; what nodemailer would log goes back as a line for the server's log.
 */
const port = parentPort!;
const answer = (m: MailThreadAnswer) => port.postMessage(m);
const { url, from } = workerData as { url: string; from: string };
const line = (level: 'info' | 'warn') => (obj: object, msg: string) => {
  const err = (obj as { err?: unknown }).err;
  answer({ kind: 'log', level, msg, err: err === undefined ? null : String((err as Error)?.message ?? err) });
};
const mailer = smtpMailer(url, from, { info: line('info'), warn: line('warn') });

// The thread ends by `terminate()` (threadMailer's close), which closes its connections with it.
port.on('message', (m: MailThreadRequest) => {
  mailer.send(m.mail).then(
    () => answer({ kind: 'sent', id: m.id }),
    (err: { message?: string; code?: string; responseCode?: number; response?: string }) =>
      answer({ kind: 'failed', id: m.id, error: { message: String(err?.message ?? err), code: err?.code, responseCode: err?.responseCode, response: err?.response } }),
  );
});
