import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { reportingService } from '../server/test/reporting-service.ts';

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
