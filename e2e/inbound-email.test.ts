import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { EMAIL_MSG } from '../contract/integrations.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

const DOMAIN = 'alerts.e2e.test';

async function mail(server: E2EServer, to: string, subject: string, text: string) {
  const port = server.app.inboundMail.port();
  if (!port) throw new Error('the SMTP listener is not listening');
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: '"Veeam Backup" <veeam@client.example>', to, subject, text });
  } finally {
    transport.close();
  }
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function openIntegrations(page: Page, url: string) {
  await page.goto(`${url}/app/tenant-admin`);
  await page.getByRole('tab', { name: 'Integrations' }).click();
  await expect.poll(() => page.getByTestId('integration-card').count()).toBeGreaterThan(0);
}

describe.skipIf(!chromiumAvailable())('email to alert in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser(
    (s, b) => ([server, browser] = [s, b]),
    () => ({ inboundMail: { port: 0, host: '127.0.0.1', domain: DOMAIN, tls: null } }),
  );

  it('shows the integration’s address, edits its mail rules, and a mail to it appears on the dashboard', async () => {
    const { context, page } = await newPage(browser);
    const who = await registerThroughWizard(page, server.url, { name: 'Rita Register', email: uniqueEmail('mail'), org: 'Acme Operations' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    const created = await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Veeam Backup' } });
    expect(created.status()).toBe(201);

    await openIntegrations(page, server.url);
    const card = page.getByTestId('integration-card').filter({ hasText: 'Veeam Backup' });
    const address = (await card.getByTestId('copy-email address').innerText()).trim();
    expect(address).toMatch(new RegExp(`^[a-z0-9]{24}@${DOMAIN.replace(/\./g, '\\.')}$`));
    expect(await card.getByText('Default mail rules').isVisible()).toBe(true);
    await screenshot(page, 'inbound-email-card-light');

    // The mail rules: a bad pattern is named before anything is saved; a good one is saved.
    await card.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByTestId('integration-form');
    await form.getByTestId('email-settings-toggle').click();
    await form.getByTestId('email-dedup-pattern').fill('(a+)+');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => form.getByText(EMAIL_MSG.nestedRepetition).isVisible()).toBe(true);
    await form.getByTestId('email-dedup-pattern').fill('on (\\S+)$');
    await form.getByTestId('email-own-words').click();
    // A word listed under two priorities is named at the list it was added to.
    await form.getByTestId('email-words-critical').fill('failed');
    await form.getByTestId('email-words-critical').press('Enter');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => form.getByText(`failed: ${EMAIL_MSG.wordTwice}`).isVisible()).toBe(true);
    await form.getByTestId('email-words-critical').press('Backspace');
    await form.getByTestId('email-words-critical').fill('P1');
    await form.getByTestId('email-words-critical').press('Enter');
    await settledShot(page, 'inbound-email-settings-light');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => form.count()).toBe(0);
    await expect.poll(() => card.getByText('Own mail rules').isVisible()).toBe(true);
    const saved = await (await page.request.get(`${server.url}/api/tenants/${tenantId}/integrations`)).json();
    expect(saved.items[0].emailSettings).toMatchObject({ dedupPattern: 'on (\\S+)$', dedupField: 'subject' });
    expect(saved.items[0].emailSettings.priorityWords.slice(0, 5)).toEqual(
      ['critical', 'emergency', 'fatal', 'disaster', 'P1'].map((word) => ({ word, priority: 'critical' })),
    );

    // A backup tool mails the address; the alert shows on the dashboard, live.
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state')).toBe('live');
    await mail(server, address, 'Backup job Nightly failed on fs-2', 'The target disk is full.');
    const alert = page.getByTestId('alert-card').filter({ hasText: 'Backup job Nightly failed on fs-2' });
    await expect.poll(() => alert.count()).toBe(1);
    expect((await alert.innerText()).toLowerCase()).toContain('high');
    const [stored] = (await (await page.request.get(`${server.url}/api/tenants/${tenantId}/alerts`)).json()).items;
    expect(stored).toMatchObject({ dedupKey: 'fs-2', source: 'veeam@client.example', description: 'The target disk is full.' });
    await screenshot(page, 'inbound-email-dashboard-light');

    // Renewing the address shows a new one.
    await openIntegrations(page, server.url);
    await card.getByRole('button', { name: 'Renew address' }).click();
    const confirm = page.getByTestId('confirm-modal');
    await expect.poll(() => confirm.getByText(EMAIL_MSG.addressRenewed).isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Renew address' }).click();
    await expect.poll(async () => (await card.getByTestId('copy-email address').innerText()).trim()).not.toBe(address);
    await context.close();

    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, who.email, who.password);
    await openIntegrations(dark.page, server.url);
    await screenshot(dark.page, 'inbound-email-card-dark');
    await dark.page.getByTestId('integration-card').getByRole('button', { name: 'Edit' }).click();
    await dark.page.getByTestId('email-settings-toggle').click();
    await settledShot(dark.page, 'inbound-email-settings-dark');
    await dark.context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, who.email, who.password);
    await openIntegrations(phone.page, server.url);
    await expectNoSidewaysScroll(phone.page);
    expect(await phone.page.getByTestId('integration-email').isVisible()).toBe(true);
    await screenshot(phone.page, 'inbound-email-card-phone');
    await phone.page.getByTestId('integration-card').getByRole('button', { name: 'Edit' }).click();
    await phone.page.getByTestId('email-settings-toggle').click();
    await expectNoSidewaysScroll(phone.page);
    await settledShot(phone.page, 'inbound-email-settings-phone');
    await phone.context.close();
  });
});
