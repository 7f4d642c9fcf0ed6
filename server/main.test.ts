import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

/** The real entry point: starts on a fresh SQLite file, migrates, serves, and stops cleanly on SIGTERM. */
describe('server/main.ts', () => {
  it('migrates, listens, answers, and exits 0 on SIGTERM after in-flight requests', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-main-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: path.join(dir, 'db.sqlite'), WEB_DIR: path.join(dir, 'no-web'), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listen line in:\n${out}`)), 20_000);
        child.stdout.on('data', () => {
          const m = out.match(/"address":"(http:\/\/[^"]+)"/);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
      });
      expect(fs.existsSync(path.join(dir, 'db.sqlite'))).toBe(true);
      const inFlight = fetch(`${address}/api/pricingPlans`);
      const health = await fetch(`${address}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      child.kill('SIGTERM');
      const plans = await inFlight;
      expect(plans.status).toBe(200);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(out).toContain('closed cleanly');
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the web app from a WEB_DIR given relative to where it starts (the static files need an absolute path)', () => {
    expect(loadConfig({ WEB_DIR: 'dist/web' }).webDir).toBe(path.resolve('dist/web'));
    expect(loadConfig({}).webDir).toBe(path.resolve('dist', 'web'));
  });
});
