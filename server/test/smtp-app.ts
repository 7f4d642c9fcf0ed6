import { afterAll, beforeAll } from 'vitest';
import { createMailer } from '../notifications/mailer.ts';
import { startSmtpServer } from './smtp.ts';
import { startTestApp, type TestDatabase } from './test-app.ts';

/**
 * For the describe it is called in: a real SMTP server and a fresh app over `db` whose mails go through it, started
 * before its tests and stopped after them. Read them inside a test: `env().app`, `smtp().received`.
 */
export function useSmtpTestApp(db: TestDatabase) {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
  let env: Awaited<ReturnType<typeof startTestApp>> | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'Alertdesk <no-reply@alertdesk.test>', log: { info: () => {} } });
    env = await startTestApp(db, { smtpUrl: smtp.url }, mailer);
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });
  return {
    env() {
      if (!env) throw new Error('test app not started');
      return env;
    },
    smtp() {
      if (!smtp) throw new Error('SMTP server not started');
      return smtp;
    },
  };
}
