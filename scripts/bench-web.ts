// What the browser benchmarks (bench:live, bench:first-visit) share: the web app built as it ships, the real server
// (its own process, as `npm start` runs it; SQLite in a temporary folder) serving it on a free port, and Debian's
// Chromium. BENCH_NO_MINIFY=1 builds the app unminified, so a profile (bench:first-visit --trace) names React's and
// Mantine's functions; BENCH_WEB_DIR serves an app built beforehand instead (two builds alternated, run for run).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './bench-server.ts';

/** Builds the web app, starts the server on it and launches Chromium; `close` undoes all three. */
export async function startWebBench(name: string) {
  const root = path.resolve(import.meta.dirname, '..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `alertdesk-bench-${name}-`));
  // BENCH_WEB_DIR: an app built beforehand (vite build --outDir …), for runs alternating two builds.
  const webDir = process.env.BENCH_WEB_DIR ?? path.join(dir, 'web');
  const built = process.env.BENCH_WEB_DIR ? { status: 0 } : spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', webDir, '--logLevel', 'error', ...(process.env.BENCH_NO_MINIFY ? ['--minify', 'false'] : [])], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) throw new Error('vite build failed');
  // The server in a process of its own, as `npm start` runs it: the benchmark's own work (Playwright's protocol
  // traffic) does not share its event loop.
  const { url, child } = await startServer({ DATABASE_URL: path.join(dir, 'bench.db'), WEB_DIR: webDir, LOG_LEVEL: 'silent' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
