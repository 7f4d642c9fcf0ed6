import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { chromiumAvailable, launchBrowserServer } from './chromium.ts';

/**
 * Builds the web app once per run into a private folder (so parallel runs never share a half-written dist), and
 * hands its path to the tests.
 */
export default async function setup(project: TestProject) {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-e2e-web-'));
  const root = path.resolve(import.meta.dirname, '..');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
    // Vitest runs with NODE_ENV=test, which would make Vite build React's development code: build what ships.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error('vite build failed');
  project.provide('webDir', outDir);
  const browser = chromiumAvailable() ? await launchBrowserServer() : null;
  project.provide('browserWs', browser?.wsEndpoint() ?? '');
  return async () => {
    await browser?.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    webDir: string;
    /** The shared Chromium's endpoint ('' when there is none: each file launches its own, or skips). */
    browserWs: string;
  }
}
