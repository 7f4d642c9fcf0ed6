// npm run bench:inbox [-- --rate 1000 --seconds 10] [--only sqlite|postgres] [--smtp ok|refuse|slow]
// Ingest → page in the inbox (issue 26): the server runs as `npm start` runs it (its own process, job worker on,
// PAGE_STORM_LIMIT=0 so every alert is paged by itself), and this process is both the monitoring tool and the mail
// server. It sends critical alerts at a steady rate to a tenant whose default policy pages its owner by email, and
// times each alert from its 202 to the moment the SMTP server here accepted its page. Prints p50, p95 and max of that
// latency, pages per second and how many pages are missing, on SQLite and (with BENCH_DATABASE_URL or
// TEST_DATABASE_URL) on PostgreSQL. `--smtp refuse` (connections refused) and `--smtp slow` (each mail answered after
// 2 s) measure instead what a broken mail server costs ingestion: the achieved ingest rate and its p99. It also prints the
// CPU each alert paged cost the server (all its threads: HTTP, database, escalation, the mail thread, V8's own) and this
// process (the load and the mail server): on 2 cores, their sum bounds the pages per second the machine can deliver.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { apiClient, eachDatabase, processCpuMs, startInbox, startServer } from './bench-server.ts';

const { values: args } = parseArgs({
  options: { rate: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '10' }, only: { type: 'string' }, smtp: { type: 'string', default: 'ok' } },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const SMTP_MODE = args.smtp as 'ok' | 'refuse' | 'slow';

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

async function run(name: string, env: Record<string, string>) {
  const inbox = await startInbox(SMTP_MODE);
  const { url, child } = await startServer({ ...env, SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, PAGE_STORM_LIMIT: '0' });
  try {
    const api = apiClient(url);
    const plans = await api('GET', '/api/pricingPlans');
    const list = Array.isArray(plans) ? plans : plans.items;
    const id = randomUUID().slice(0, 8);
    await api('POST', '/api/functions/registerUserWithTenant', {
      userData: { email: `inbox-${id}@example.com`, password: 'inbox-bench-pass-1', displayName: 'Inbox' },
      tenantData: { name: `Inbox ${id}`, plan: (list.find((p: { isDefault: boolean }) => p.isDefault) ?? list[0]).id },
    });
    const me = await api('GET', '/api/me');
    const tenantId = me.tenants[0].id;
    await api('POST', `/api/tenants/${tenantId}/escalationPolicies`, {
      name: 'Inbox',
      isDefault: true,
      escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
      level_1: { userIds: [me.user.id], notificationChannels: ['email'] },
      level_2: { userIds: [], timeAfterPrevious: 30, notificationChannels: ['email'] },
      level_3: { userIds: [], timeAfterPrevious: 60, notificationChannels: ['email'] },
    });
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) keys.push((await api('POST', `/api/tenants/${tenantId}/integrations`, { name: `inbox ${i}` })).key);

    const sentAt = new Map<number, number>();
    const ingestMs: number[] = [];
    let failed = 0;
    let n = 0;
    const total = RATE * SECONDS;
    const tickMs = 10;
    const perTick = Math.max(1, Math.round((RATE * tickMs) / 1000));
    const started = performance.now();
    const cpuAtStart = { server: processCpuMs(child.pid!), bench: process.cpuUsage() };
    const inflight = new Set<Promise<void>>();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const send = (i: number) => {
      const t0 = performance.now();
      const body = JSON.stringify({ title: `Inbox bench ${i}`, priority: 'critical', dedupKey: `inbox-${i}` });
      // node:http on kept-alive sockets: the monitoring tool should cost this machine's cores as little as it can (fetch
      // took about twice the CPU per request, which the server then lacked).
      const p = new Promise<number>((resolve, reject) => {
        const req = http.request(`${url}/api/ingest/events`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${keys[i % keys.length]}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      })
        .then((status) => {
          const t = performance.now();
          if (status === 202) {
            sentAt.set(i, t);
            ingestMs.push(t - t0);
          } else failed++;
        })
        .catch(() => {
          failed++;
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    };
    // A steady rate: each tick sends what the schedule says should have gone by now.
    while (n < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE) + perTick);
      while (n < due) send(n++);
      await new Promise((r) => setTimeout(r, tickMs));
    }
    await Promise.all([...inflight]);
    agent.destroy();
    const sendSeconds = (performance.now() - started) / 1000;
    const ingestSorted = ingestMs.sort((a, b) => a - b);
    if (SMTP_MODE !== 'ok') {
      console.log(
        `${name.padEnd(10)} smtp ${SMTP_MODE}: ${(sentAt.size / sendSeconds).toFixed(0)} alerts/s accepted of ${RATE}/s asked, 202 p50 ${pct(ingestSorted, 50).toFixed(1)} ms p99 ${pct(ingestSorted, 99).toFixed(1)} ms, failed ${failed}`,
      );
      return;
    }
    // Every page, or 60 s without a new one.
    let last = inbox.accepted.size;
    let quiet = 0;
    while (inbox.accepted.size < sentAt.size && quiet < 60) {
      await new Promise((r) => setTimeout(r, 1000));
      quiet = inbox.accepted.size === last ? quiet + 1 : 0;
      last = inbox.accepted.size;
    }
    const serverCpuMs = processCpuMs(child.pid!) - cpuAtStart.server;
    const benchCpu = process.cpuUsage(cpuAtStart.bench);
    const latencies: number[] = [];
    let firstMail = Infinity;
    let lastMail = 0;
    for (const [i, at] of inbox.accepted) {
      const t = sentAt.get(i);
      if (t !== undefined) latencies.push(at - t);
      firstMail = Math.min(firstMail, at);
      lastMail = Math.max(lastMail, at);
    }
    latencies.sort((a, b) => a - b);
    const missing = sentAt.size - latencies.length;
    const pagesPerSecond = latencies.length / ((lastMail - started) / 1000);
    console.log(
      `${name.padEnd(10)} ${sentAt.size} alerts at ${(sentAt.size / sendSeconds).toFixed(0)}/s → inbox p50 ${pct(latencies, 50).toFixed(0)} ms  p95 ${pct(latencies, 95).toFixed(0)} ms  max ${latencies.length ? latencies[latencies.length - 1].toFixed(0) : NaN} ms  ${pagesPerSecond.toFixed(0)} pages/s  missing ${missing}  duplicates ${inbox.mails() - inbox.accepted.size}  (202 p99 ${pct(ingestSorted, 99).toFixed(1)} ms, failed ${failed})`,
    );
    console.log(
      `${''.padEnd(10)} CPU per alert paged: server ${(serverCpuMs / sentAt.size).toFixed(2)} ms (all its threads), this process (load and mail server) ${((benchCpu.user + benchCpu.system) / 1000 / sentAt.size).toFixed(2)} ms`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await inbox.close();
  }
}

await eachDatabase('bench_inbox', args.only, run);
