// npm run bench:yardstick [-- --only sqlite|postgres] [--smtp ok,refuse,slow] [--seconds 10] [--yardstick path]
// Ingestion's honest ratio (issue 26): runs the shared yardstick (../shared/bench/ingest-yardstick.mjs: autocannon
// drives a bare Fastify + SQLite route, this server and, when installed, Alertmanager the same way, one after the
// other) against this server started as `npm start` starts it (its own process, job worker on, as shipped), with a
// mail server here that takes its pages, refuses connections, or answers each mail after 2 s. Prints the yardstick's
// lines for each database and mail server, and the server's CPU (all its threads) per alert it stored.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eachDatabase, processCpuMs, startInbox, startServer } from './bench-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    smtp: { type: 'string', default: 'ok,refuse' },
    seconds: { type: 'string', default: '10' },
    yardstick: { type: 'string', default: path.resolve(root, '..', 'shared', 'bench', 'ingest-yardstick.mjs') },
    'worker-off': { type: 'boolean', default: false },
  },
});

if (!fs.existsSync(args.yardstick)) {
  console.log(`bench:yardstick skipped: the yardstick is not at ${args.yardstick} (pass --yardstick <path>)`);
  process.exit(0);
}

const modes = args.smtp.split(',').map((m) => m.trim()) as Array<'ok' | 'refuse' | 'slow'>;

await eachDatabase('bench_yardstick', args.only, async (name, env) => {
  for (const mode of modes) {
    const inbox = await startInbox(mode);
    const { url, child } = await startServer({ ...env, SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, ...(args['worker-off'] ? { JOB_WORKER: 'false' } : {}) });
    try {
      const cpuAtStart = processCpuMs(child.pid!);
      const out = await new Promise<string>((resolve, reject) => {
        const y = spawn(process.execPath, [args.yardstick, '--url', url, '--seconds', args.seconds], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
        let text = '';
        y.stdout.on('data', (c: Buffer) => (text += c.toString()));
        y.on('error', reject);
        y.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`the yardstick exited with ${code}: ${text}`))));
      });
      const label = `${name}, mail ${mode === 'ok' ? 'accepted' : mode === 'refuse' ? 'refused' : 'answered after 2 s'}${args['worker-off'] ? ', JOB_WORKER=false' : ''}`;
      // The server's CPU (all its threads) over the whole run, per alert it stored: it idles while the yardstick drives
      // the other targets, so this is what ingesting (and paging) cost it, steadier than a rate on a busy machine.
      const cpuMs = processCpuMs(child.pid!) - cpuAtStart;
      const stored = Number(/stored (\d+) of/.exec(out)?.[1] ?? NaN);
      console.log(`— ${label} (pages mailed: ${inbox.mails()}; server CPU ${((cpuMs / stored) * 1000).toFixed(0)} µs per alert stored)`);
      for (const line of out.trim().split('\n')) console.log(`  ${line}`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await inbox.close();
    }
  }
});
