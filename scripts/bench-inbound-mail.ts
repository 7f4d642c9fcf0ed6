// tsx scripts/bench-inbound-mail.ts [-- --mails 2000 --connections 4]
// Email to alert under load: starts the real server with its SMTP listener on a fresh database (SQLite always;
// PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set), sends N mails (text and HTML parts, ~3 KB; a
// quarter of them repeats of earlier subjects, so deduplication is exercised) over a few concurrent SMTP connections
// from a second process (bare sockets, one mail after another per connection, as an MTA delivers), and prints mails/s accepted (a 250 is sent only once the alert is committed) and what the
// database holds afterwards: every accepted mail must be an alert or an occurrence of one. Goal: >= 50 mails/s.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../server/config.ts';
import { buildApp } from '../server/app.ts';
import { freshDatabase, type BenchTarget } from './bench-db.ts';
import { rawSmtp } from '../server/modules/inbound-mail/raw-smtp.test-support.ts';

const GOAL = 50;
const { values: args } = parseArgs({
  options: {
    mails: { type: 'string', default: '2000' },
    connections: { type: 'string', default: '4' },
    sender: { type: 'boolean', default: false },
  },
});

interface SendJob {
  port: number;
  address: string;
  mails: number;
  connections: number;
}
interface SendResult {
  accepted: number;
  refused: Record<string, number>;
  elapsedMs: number;
  p50: number;
  p99: number;
}

const body = (i: number) =>
  [
    `Backup job "Nightly-${i % 500}" on fs-${i % 37} finished with errors.`,
    '',
    'Job details',
    '-----------',
    ...Array.from({ length: 30 }, (_, l) => `VM vm-${l}: processed ${(l * 7919) % 1000} GB, ${l % 3 === 0 ? 'warning: snapshot removal took long' : 'success'}`),
  ].join('\n');

/** One mail as an MTA hands it over: MIME text and HTML parts, dot-stuffed, CRLF line ends. */
function message(i: number, to: string) {
  // Every fourth mail repeats an earlier subject: an occurrence of an open alert, not a new one.
  const n = i % 4 === 3 ? i - 3 : i;
  const text = body(n);
  const html = `<html><body><pre>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre></body></html>`;
  return [
    'From: "Veeam Backup" <veeam@client.example>',
    `To: ${to}`,
    `Subject: Backup job Nightly-${n} failed on fs-${n % 37}`,
    `Message-ID: <${randomUUID()}@client.example>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain; charset=utf-8',
    '',
    text,
    '--b',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '--b--',
    '',
  ]
    .join('\r\n')
    .replace(/^\./gm, '..');
}

/**
 * The sender process: `connections` SMTP connections, each sending its share of the mails one after another as an
 * MTA does (MAIL, RCPT, DATA, the message, the reply), over bare sockets so the client costs little of the two cores.
 */
async function sender(job: SendJob): Promise<SendResult> {
  const refused: Record<string, number> = {};
  const latencies: number[] = [];
  let accepted = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: job.connections }, async () => {
      const smtp = await rawSmtp(job.port);
      await smtp.command('EHLO bench.client.example');
      for (let i = next++; i < job.mails; i = next++) {
        const at = performance.now();
        const steps = [await smtp.command('MAIL FROM:<veeam@client.example>'), await smtp.command(`RCPT TO:<${job.address}>`), await smtp.command('DATA')];
        const failed = steps.find((r) => r.code >= 400);
        let reply = failed;
        if (!failed) {
          await smtp.write(`${message(i, job.address)}\r\n.\r\n`);
          reply = await smtp.next();
        } else await smtp.command('RSET');
        if (reply && reply.code !== 250) refused[reply.code] = (refused[reply.code] ?? 0) + 1;
        else {
          accepted++;
          latencies.push(performance.now() - at);
        }
      }
      await smtp.command('QUIT');
      smtp.close();
    }),
  );
  const elapsedMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { accepted, refused, elapsedMs, p50: pct(0.5), p99: pct(0.99) };
}

function sendFromChild(job: SendJob): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    const child = fork(import.meta.filename, ['--sender'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (msg: { result?: SendResult; error?: string }) => (msg.result ? resolve(msg.result) : reject(new Error(msg.error))));
    child.once('error', reject);
    child.send(job);
  });
}

async function bench(target: BenchTarget) {
  const store = freshDatabase(target);
  const config: Config = {
    ...loadConfig({ JOB_WORKER: 'false' }),
    databaseUrl: store.url,
    databaseSchema: store.schema,
    webDir: null,
    logLevel: 'silent',
    publicUrl: 'http://127.0.0.1',
    inboundMail: { port: 0, host: '127.0.0.1', domain: 'alerts.bench.test', tls: null },
  };
  const { app, deps } = await buildApp(config, { logger: false });
  await app.ready();
  const port = app.inboundMail.port();
  if (!port) throw new Error('the SMTP listener did not start');
  const reg = await app.inject({
    method: 'POST',
    url: '/api/functions/registerUserWithTenant',
    payload: { userData: { email: `bench-${randomUUID().slice(0, 8)}@example.com`, password: 'bench-pass', displayName: 'Bench' }, tenantData: { name: 'Bench MSP', plan: 'trial' } },
  });
  const tenantId = reg.json().tenantId as string;
  const cookie = `alertdesk_session=${reg.cookies.find((c) => c.name === 'alertdesk_session')!.value}`;
  const created = await app.inject({ method: 'POST', url: `/api/tenants/${tenantId}/integrations`, headers: { cookie, origin: 'http://127.0.0.1' }, payload: { name: 'Veeam' } });
  const address = created.json().integration.emailAddress as string;

  const mails = Number(args.mails);
  const connections = Number(args.connections);
  await sendFromChild({ port, address, mails: 100, connections });
  await sql`delete from alerts`.execute(deps.db);
  const result = await sendFromChild({ port, address, mails, connections });
  const counts = await sql<{ alerts: number; occurrences: number }>`select count(*) as alerts, coalesce(sum(occurrences), 0) as occurrences from alerts`.execute(deps.db);
  await app.close();
  await store.drop();
  const stored = { alerts: Number(counts.rows[0].alerts), occurrences: Number(counts.rows[0].occurrences) };
  const perSecond = (result.accepted / result.elapsedMs) * 1000;
  const refused = Object.entries(result.refused)
    .map(([code, n]) => `${n} × ${code}`)
    .join(', ');
  console.log(
    `${target.name.padEnd(8)} ${mails} mails over ${connections} connections: ${result.accepted} accepted${refused ? ` (refused: ${refused})` : ''} in ${(result.elapsedMs / 1000).toFixed(1)} s = ${perSecond.toFixed(0)} mails/s ` +
      `(goal >= ${GOAL}: ${perSecond >= GOAL ? 'met' : 'NOT met'}); one mail's conversation p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms; ` +
      `stored ${stored.alerts} alerts, ${stored.occurrences} occurrences (${stored.occurrences === result.accepted ? 'every accepted mail stored' : `MISMATCH with ${result.accepted} accepted`})`,
  );
  return perSecond >= GOAL && stored.occurrences === result.accepted;
}

if (args.sender) {
  process.once('message', (job: SendJob) => {
    sender(job).then(
      (result) => process.send!({ result }, () => process.exit(0)),
      (err: Error) => process.send!({ error: err.message }, () => process.exit(1)),
    );
  });
} else {
  const targets: BenchTarget[] = [{ name: 'sqlite', url: '' }];
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl) targets.push({ name: 'postgres', url: pgUrl });
  let ok = true;
  for (const target of targets) ok = (await bench(target)) && ok;
  process.exit(ok ? 0 : 1);
}
