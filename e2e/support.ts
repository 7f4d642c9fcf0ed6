import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { loadConfig, type Config } from '../server/config.ts';
import { buildApp } from '../server/app.ts';
import type { Deps } from '../server/deps.ts';
import type { FastifyInstance } from 'fastify';
import { MemoryMailer } from '../server/test/test-app.ts';
import { copyMigratedSqlite } from '../server/test/schema-pool.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { CHROMIUM_OPTIONS } from './chromium.ts';

export { chromiumAvailable } from './chromium.ts';

export interface E2EServer {
  url: string;
  app: FastifyInstance;
  deps: Deps;
  mailer: MemoryMailer;
  close(): Promise<void>;
}

/** The real server, serving the freshly built web app, on a free port over a fresh SQLite database. */
export async function startServer(overrides: Partial<Config> = {}): Promise<E2EServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-e2e-db-'));
  await copyMigratedSqlite(path.join(dir, 'e2e.db'));
  const mailer = new MemoryMailer();
  // Every browser of a run registers from 127.0.0.1: the per-address registration limit is for the world, not for us.
  const base = loadConfig({ REGISTER_LIMIT_IP: '1000', INBOUND_SMTP_PORT: '0' });
  const config: Config = { ...base, databaseUrl: path.join(dir, 'e2e.db'), webDir: inject('webDir'), logLevel: 'warn', port: 0, host: '127.0.0.1', ...overrides };
  // The public URL must match the port the server gets, for CSRF checks and emailed links.
  const { app, deps } = await buildApp({ ...config, publicUrl: 'http://127.0.0.1:0' }, { mailer, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  deps.config.publicUrl = url;
  return {
    url,
    app,
    deps,
    mailer,
    async close() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A browser: a connection to the run's shared Chromium (global setup), or one of its own when there is none. */
export async function launchBrowser(): Promise<Browser> {
  const ws = inject('browserWs');
  return ws ? chromium.connect(ws) : chromium.launch(CHROMIUM_OPTIONS);
}

export async function newPage(browser: Browser, opts: { theme?: 'light' | 'dark'; width?: number; height?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    colorScheme: opts.theme ?? 'light',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page };
}

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** Saves a full-page screenshot under e2e/screenshots/ for a person to look at. */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Signs in through the sign-in screen as a person would and waits for the dashboard. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/app/dashboard');
}

/** A screenshot of the viewport only (a modal above the page), after the modal's opening transition. */
export async function settledShot(page: Page, name: string) {
  await page.waitForTimeout(400);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Registers through the wizard as a person would; returns the credentials used. */
export async function registerThroughWizard(page: Page, baseUrl: string, opts: { name?: string; email: string; password?: string; org?: string }) {
  const password = opts.password ?? 'secret123';
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByLabel('Full name').fill(opts.name ?? 'Rita Register');
  await page.getByLabel('Email').fill(opts.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Organization name').fill(opts.org ?? 'Rita MSP');
  await page.getByRole('button', { name: 'Complete Registration' }).click();
  await page.waitForURL('**/app/dashboard', { timeout: 10_000 });
  return { email: opts.email, password };
}

/**
 * One server and one browser for the enclosing describe block: started before its tests, closed after them.
 * `ready` hands them to the block's own variables.
 */
export function withServerAndBrowser(ready: (server: E2EServer, browser: Browser) => void, overrides: () => Partial<Config> = () => ({})) {
  let server: E2EServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(overrides());
    browser = await launchBrowser();
    ready(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

/** A colleague created by `addMember`: their user id, name, and how they sign in. */
export interface Member {
  id: string;
  name: string;
  email: string;
  password: string;
}

/**
 * A colleague: registered through the API (with an organization of their own, named so it sorts after the one under
 * test and is not the one their browser opens), then made an active member of the tenant as an accepted invitation would.
 */
export async function addMember(server: E2EServer, tenantId: string, name: string): Promise<Member> {
  const email = uniqueEmail('member');
  const password = 'secret123';
  const res = await fetch(`${server.url}/api/functions/registerUserWithTenant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ userData: { email, password, displayName: name }, tenantData: { name: 'Zeta own MSP', plan: 'trial' } }),
  });
  const { userId } = (await res.json()) as { userId: string };
  const at = new Date().toISOString();
  await server.deps.db
    .insertInto('tenant_members')
    .values({ id: crypto.randomUUID(), tenant_id: tenantId, user_id: userId, email, display_name: name, role: 'user', status: 'active', joined_at: at, invited_by: null, created_at: at })
    .execute();
  return { id: userId, name, email, password };
}

/**
 * A download's text. The browser may be the run's shared one, across a connection, where Playwright keeps the file on
 * its side: it is saved here first.
 */
export async function downloadText(download: Download): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-e2e-download-'));
  try {
    const file = path.join(dir, 'download');
    await download.saveAs(file);
    return fs.readFileSync(file, 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows of a CSV text (RFC 4180: quoted cells may hold commas, doubled quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}
