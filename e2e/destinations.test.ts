import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESTINATION_MSG } from '../contract/destinations.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

const card = (page: Page, name: string) => page.locator(`[data-testid="destination-card"][data-name="${name}"]`);

describe.skipIf(!chromiumAvailable())('Destinations in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  // A local webhook receiver: answers 500 to the first request, 200 after.
  const got: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(got.length === 1 ? 500 : 200).end(got.length === 1 ? 'receiver hiccup' : 'ok');
    });
  });
  let hookUrl = '';
  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alertdesk`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));
  withServerAndBrowser(
    (s, b) => ([server, browser] = [s, b]),
    () => ({ outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } }),
  );

  it('creates a webhook, shows its secret once, sends a test event, shows the delivery log and sends again', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Wanda Webhook', email: uniqueEmail('owner'), org: 'Hook MSP' });
    await page.goto(`${server.url}/app/tenant-admin?tab=destinations`);
    await expect.poll(() => page.getByTestId('destinations-empty').innerText()).toBe(DESTINATION_MSG.none);
    await screenshot(page, 'destinations-empty-light');

    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('dialog', { name: 'New webhook destination' });
    await form.getByRole('button', { name: 'Create destination' }).click();
    await expect.poll(() => form.getByText(DESTINATION_MSG.nameRequired).isVisible()).toBe(true);
    await form.getByLabel('Name').fill('PSA bridge');
    await form.getByLabel('URL').fill(hookUrl);
    await form.getByLabel('Alert resolved').uncheck();
    await settledShot(page, 'destinations-form-light');
    await form.getByRole('button', { name: 'Create destination' }).click();

    const secret = page.getByTestId('destination-secret');
    await expect.poll(() => secret.getByText(DESTINATION_MSG.secretShownOnce).isVisible()).toBe(true);
    expect(await secret.getByTestId('copy-signing secret').innerText()).toMatch(/^whsec_/);
    await settledShot(page, 'destinations-secret-light');
    await secret.getByRole('button', { name: 'I have copied the secret' }).click();

    const row = card(page, 'PSA bridge');
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.innerText()).toContain('Alert triggered, Alert acknowledged');
    await row.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.getByText(/Test event to PSA bridge: HTTP 500/).isVisible()).toBe(true);
    expect(got).toHaveLength(1);
    expect(got[0].headers['webhook-signature']).toMatch(/^v1,/);
    await screenshot(page, 'destinations-light');

    await row.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByTestId('delivery-log');
    await expect.poll(() => log.getByTestId('delivery-row').count()).toBe(1);
    expect(await log.getByTestId('delivery-outcome').innerText()).toMatch(/^HTTP 500 in \d+ ms; next attempt /);
    expect(await log.innerText()).toContain('receiver hiccup');
    await settledShot(page, 'destinations-log-light');
    // A pending delivery is retried on its schedule; the test event's is sent again from its row once it is settled:
    // here it waits for its 5 s retry, which the worker sends.
    await expect.poll(() => log.getByTestId('delivery-row').getAttribute('data-status'), { timeout: 20_000 }).toBe('succeeded');
    await log.getByRole('button', { name: 'Send again' }).click();
    await expect.poll(() => got.length).toBe(3);
    expect(got[2].headers['webhook-id']).toBe(got[0].headers['webhook-id']);
    await page.keyboard.press('Escape');

    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, owner.email, owner.password);
    await dark.page.goto(`${server.url}/app/tenant-admin?tab=destinations`);
    await expect.poll(() => card(dark.page, 'PSA bridge').isVisible()).toBe(true);
    await screenshot(dark.page, 'destinations-dark');
    await card(dark.page, 'PSA bridge').getByRole('button', { name: 'Edit' }).click();
    await settledShot(dark.page, 'destinations-form-dark');
    await dark.context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, owner.email, owner.password);
    await phone.page.goto(`${server.url}/app/tenant-admin?tab=destinations`);
    await expect.poll(() => card(phone.page, 'PSA bridge').isVisible()).toBe(true);
    const { scrollWidth, innerWidth } = await phone.page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await screenshot(phone.page, 'destinations-phone');
    await card(phone.page, 'PSA bridge').getByRole('button', { name: 'Delivery log' }).click();
    await settledShot(phone.page, 'destinations-log-phone');
    await phone.context.close();

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByTestId('confirm-modal').getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByTestId('destination-secret');
    await expect.poll(() => rotated.getByText(DESTINATION_MSG.secretShownOnce).isVisible()).toBe(true);
    expect(await rotated.getByTestId('copy-signing secret').innerText()).toMatch(/^whsec_/);
    await rotated.getByRole('button', { name: 'I have copied the secret' }).click();

    await row.getByRole('button', { name: 'Delete PSA bridge' }).click();
    await page.getByTestId('confirm-modal').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('destinations-empty').isVisible()).toBe(true);
    await context.close();
  });
});
