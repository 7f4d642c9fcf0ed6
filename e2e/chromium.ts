import fs from 'node:fs';
import { chromium, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium (browser downloads by test tools fail here), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_OPTIONS: LaunchOptions = {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
};

/** True when a real Chromium is here. Outside CI a missing browser skips the browser tests; under CI=true it fails. */
export function chromiumAvailable(): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but no Chromium at ${CHROMIUM}: the browser tests cannot be skipped in CI`);
  return false;
}

/**
 * One Chromium for the whole browser-test run (started by the global setup): each test file connects to it instead of
 * launching its own, 35 launches fewer per run. A connection's close ends its own contexts, never the browser.
 */
export function launchBrowserServer() {
  return chromium.launchServer(CHROMIUM_OPTIONS);
}
