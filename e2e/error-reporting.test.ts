import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/**
 * A stand-in for the error-reporting service (edge of the world): keeps every envelope the browser SDK posts and
 * answers the feedback dialog's script request with a script that puts a marker in the page.
 */
async function reportingService() {
  const envelopes: string[] = [];
  const dialogRequests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
      if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
      if (req.url?.startsWith('/api/embed/error-page/')) {
        dialogRequests.push(req.url);
        return res
          .writeHead(200, { ...cors, 'content-type': 'text/javascript' })
          .end("document.body.insertAdjacentHTML('beforeend', '<div data-testid=\"feedback-dialog\">feedback</div>');");
      }
      envelopes.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as import('node:net').AddressInfo).port;
  /** Every item of every envelope: its header's type and its parsed payload. */
  const items = () =>
    envelopes.flatMap((text) => {
      const lines = text.split('\n').filter(Boolean).slice(1);
      const out: Array<{ type: string; payload: any }> = [];
      for (let i = 0; i + 1 < lines.length; i += 2) out.push({ type: JSON.parse(lines[i]!).type, payload: JSON.parse(lines[i + 1]!) });
      return out;
    });
  return { dsn: `http://public@127.0.0.1:${port}/1`, envelopes, dialogRequests, items, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.skipIf(!chromiumAvailable())('error reporting in the browser (production mode, SENTRY_DSN_WEB set)', () => {
  let service: Awaited<ReturnType<typeof reportingService>>;
  beforeAll(async () => {
    service = await reportingService();
  });
  afterAll(async () => service?.close());

  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser(
    (s, b) => ((server = s), (browser = b)),
    () => ({ production: true, sentry: { serverDsn: null, webDsn: service.dsn } }),
  );

  it('shows the crash text when a page cannot render, opens the feedback dialog and reports the crash once, scrubbed', async () => {
    const { context, page } = await newPage(browser);
    const { email } = await registerThroughWizard(page, server.url, { email: uniqueEmail('crash'), org: 'Crash MSP' });
    await page.getByRole('link', { name: 'Clients' }).first().waitFor();

    // The clients page's code cannot be fetched (a deploy replaced it, or the network dropped it): its lazy route
    // fails, which is a crash of that page.
    await page.route(/\/assets\/ClientsPage-[^/]+\.js/, (route) => route.abort('connectionreset'));
    await page.getByRole('link', { name: 'Clients' }).first().click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: MSG.crash }).count()).toBe(1);
    await page.getByTestId('feedback-dialog').waitFor();
    await screenshot(page, 'crash-fallback');

    const events = () => service.items().filter((i) => i.type === 'event' && i.payload.exception);
    await expect.poll(() => events().length).toBe(1);
    expect(service.dialogRequests.length).toBe(1);
    const event = events()[0]!.payload;
    expect(JSON.stringify(event.exception)).toMatch(/ClientsPage|dynamically imported module|Failed to fetch/i);
    // Scrubbed: neither the person's email nor their session cookie leaves the browser.
    const all = service.envelopes.join('\n');
    expect(all).not.toContain(email);
    const cookies = await context.cookies();
    for (const c of cookies) expect(all).not.toContain(c.value);
    // Once: a second look a moment later finds no duplicate.
    await page.waitForTimeout(500);
    expect(events().length).toBe(1);
    await context.close();
  });
});
