// What the browser benchmarks (bench:live, bench:first-visit) share: the web app built as it ships, the real server
// (SQLite in a temporary folder) serving it on a free port, and Debian's Chromium.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '../server/config.ts';
import { buildApp } from '../server/app.ts';

/** Builds the web app, starts the server on it and launches Chromium; `close` undoes all three. */
export async function startWebBench(name: string) {
  const root = path.resolve(import.meta.dirname, '..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `alertdesk-bench-${name}-`));
  const webDir = path.join(dir, 'web');
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', webDir, '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) throw new Error('vite build failed');
  const config = { ...loadConfig({ REGISTER_LIMIT_IP: '1000' }), databaseUrl: path.join(dir, 'bench.db'), webDir, logLevel: 'silent' as const, port: 0, host: '127.0.0.1' };
  const { app, deps } = await buildApp({ ...config, publicUrl: 'http://127.0.0.1:0' }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  deps.config.publicUrl = url;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
