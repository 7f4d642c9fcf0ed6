import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HEARTBEAT_MSG } from '../contract/heartbeats.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

const card = (page: Page, name: string) => page.locator(`[data-testid="heartbeat-card"][data-name="${name}"]`);

/** The document is no wider than the window: nothing makes the page scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

describe.skipIf(!chromiumAvailable())('heartbeat monitors in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('creates a monitor in the Heartbeats tab, shows its ping URL once, is pinged by fetch and shows Up; pause, resume, delete', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Hana Heartbeat', email: uniqueEmail('owner'), org: 'Pulse MSP' });
    const { tenantId, clientId } = await page.evaluate(async () => {
      const me = await (await fetch('/api/me')).json();
      const tenantId = me.tenants[0].id as string;
      const res = await fetch(`/api/tenants/${tenantId}/clients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Globex', status: 'active' }) });
      return { tenantId, clientId: (await res.json()).id as string };
    });

    await page.goto(`${server.url}/app/tenant-admin?tab=heartbeats`);
    await expect.poll(() => page.getByTestId('heartbeats-empty').innerText()).toBe(HEARTBEAT_MSG.none);
    await screenshot(page, 'heartbeats-empty-light');

    await page.getByRole('button', { name: 'New monitor' }).click();
    const form = page.getByRole('dialog', { name: 'New heartbeat monitor' });
    // The name is required, said before anything is sent.
    await form.getByRole('button', { name: 'Create monitor' }).click();
    await expect.poll(() => form.getByText(HEARTBEAT_MSG.nameRequired).isVisible()).toBe(true);
    await form.getByLabel('Name').fill('Nightly backup');
    // Every hour, five minutes of grace: long enough to stay up while the test looks at it in other windows.
    await form.getByLabel('Expected every: unit').selectOption({ label: 'hours' });
    await form.getByRole('textbox', { name: 'Expected every' }).fill('1');
    await form.getByLabel('Grace time: unit').selectOption({ label: 'minutes' });
    await form.getByRole('textbox', { name: 'Grace time' }).fill('5');
    await form.getByLabel('Client', { exact: true }).click();
    await page.getByRole('option', { name: 'Globex' }).click();
    await form.getByLabel('Alert priority', { exact: true }).click();
    await page.getByRole('option', { name: 'Critical' }).click();
    await settledShot(page, 'heartbeats-form-light');
    await form.getByRole('button', { name: 'Create monitor' }).click();

    const reveal = page.getByTestId('ping-url-modal');
    await expect.poll(() => reveal.getByText(HEARTBEAT_MSG.urlShownOnce).isVisible()).toBe(true);
    const pingUrl = await reveal.getByTestId('copy-ping URL').innerText();
    expect(pingUrl).toMatch(new RegExp(`^${server.url}/api/heartbeat/[A-Za-z0-9_-]{43}$`));
    expect(await reveal.getByTestId('copy-curl command').innerText()).toBe(`curl -fsS -m 10 --retry 5 ${pingUrl}`);
    expect(await reveal.getByTestId('copy-PowerShell command').innerText()).toBe(`Invoke-RestMethod ${pingUrl}`);
    await settledShot(page, 'heartbeats-ping-url-light');
    await reveal.getByRole('button', { name: 'I have copied the URL' }).click();

    const monitor = card(page, 'Nightly backup');
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('new');
    expect(await monitor.innerText()).toContain('Waiting for the first ping');
    expect(await monitor.innerText()).toContain('Client: Globex');
    expect(await monitor.innerText()).toContain('Every 1 hour, 5 minutes grace');
    // The URL is not shown again: only its first characters.
    expect(await page.getByTestId('heartbeats-panel').innerText()).not.toContain(pingUrl);
    expect(await monitor.innerText()).toContain(`…/api/heartbeat/${pingUrl.split('/').pop()!.slice(0, 6)}…`);

    // A job pings it, as curl would: no cookie (credentials omitted), no body.
    const answer = await page.evaluate(async (url) => {
      const res = await fetch(url, { credentials: 'omit' });
      return { status: res.status, text: await res.text() };
    }, pingUrl);
    expect(answer).toEqual({ status: 200, text: 'OK' });
    // The list reads itself again every 10 s: the state shows without a reload.
    await expect.poll(() => monitor.getAttribute('data-state'), { timeout: 20_000 }).toBe('up');
    expect(await monitor.getByTestId('heartbeat-state').textContent()).toBe('Up');
    expect(await monitor.getByTestId('heartbeat-last-ping').innerText()).toMatch(/Last ping: just now|Last ping: 1 min ago/);
    expect(await monitor.getByTestId('heartbeat-next').innerText()).toMatch(/^Next ping due /);
    await screenshot(page, 'heartbeats-light');

    // The client's details show the monitor, to every member.
    await page.goto(`${server.url}/app/clients?client=${clientId}`);
    const clientMonitor = page.getByTestId('client-heartbeat');
    await expect.poll(() => clientMonitor.getAttribute('data-state')).toBe('up');
    expect(await clientMonitor.innerText()).toContain('Nightly backup');
    await settledShot(page, 'heartbeats-client-details-light');

    // Dark and narrow (a phone).
    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, owner.email, owner.password);
    await dark.page.goto(`${server.url}/app/tenant-admin?tab=heartbeats`);
    await expect.poll(() => card(dark.page, 'Nightly backup').getAttribute('data-state')).toBe('up');
    await screenshot(dark.page, 'heartbeats-dark');
    await dark.page.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => dark.page.getByRole('dialog', { name: 'Edit heartbeat monitor' }).isVisible()).toBe(true);
    await settledShot(dark.page, 'heartbeats-form-dark');
    await dark.page.getByRole('dialog', { name: 'Edit heartbeat monitor' }).getByRole('button', { name: 'Cancel' }).click();
    // Renew: confirmed first, then the new URL is shown once; the old one stops working.
    await dark.page.getByRole('button', { name: 'Renew URL' }).click();
    await dark.page.getByRole('dialog', { name: 'Renew ping URL' }).getByRole('button', { name: 'Renew URL' }).click();
    const renewed = dark.page.getByTestId('ping-url-modal');
    await expect.poll(() => renewed.getByText(HEARTBEAT_MSG.urlShownOnce).isVisible()).toBe(true);
    await settledShot(dark.page, 'heartbeats-ping-url-dark');
    const newUrl = await renewed.getByTestId('copy-ping URL').innerText();
    expect(newUrl).not.toBe(pingUrl);
    expect(await dark.page.evaluate(async (url) => (await fetch(url, { credentials: 'omit' })).status, pingUrl)).toBe(404);
    await dark.context.close();

    const phone = await newPage(browser, { theme: 'dark', width: 390, height: 844 });
    await signIn(phone.page, server.url, owner.email, owner.password);
    await phone.page.goto(`${server.url}/app/tenant-admin?tab=heartbeats`);
    await expect.poll(() => card(phone.page, 'Nightly backup').getAttribute('data-state')).toBe('up');
    await expectNoSidewaysScroll(phone.page);
    await screenshot(phone.page, 'heartbeats-narrow-dark');
    await phone.context.close();
    const lightPhone = await newPage(browser, { width: 390, height: 844 });
    await signIn(lightPhone.page, server.url, owner.email, owner.password);
    await lightPhone.page.goto(`${server.url}/app/tenant-admin?tab=heartbeats`);
    await expect.poll(() => card(lightPhone.page, 'Nightly backup').getAttribute('data-state')).toBe('up');
    await expectNoSidewaysScroll(lightPhone.page);
    await screenshot(lightPhone.page, 'heartbeats-narrow-light');
    await lightPhone.context.close();

    // The job reports a failure: down at once, with its alert a click away, shown as any alert is.
    await page.goto(`${server.url}/app/tenant-admin?tab=heartbeats`);
    expect(await page.evaluate(async (url) => (await fetch(`${url}/fail`, { method: 'POST', body: 'rsync: connection refused', credentials: 'omit' })).status, newUrl)).toBe(200);
    await expect.poll(() => monitor.getAttribute('data-state'), { timeout: 20_000 }).toBe('down');
    await screenshot(page, 'heartbeats-down-light');
    await monitor.getByRole('link', { name: 'Open alert' }).click();
    const alertModal = page.getByRole('dialog');
    await expect.poll(() => alertModal.getByTestId('alert-title').innerText()).toBe(HEARTBEAT_MSG.alertTitleFailed('Nightly backup'));
    expect(await alertModal.innerText()).toContain('rsync: connection refused');
    await settledShot(page, 'heartbeats-alert-light');
    // The next success resolves it.
    expect(await page.evaluate(async (url) => (await fetch(url, { credentials: 'omit' })).status, newUrl)).toBe(200);

    // Pause, resume, delete (with its confirmation).
    await page.goto(`${server.url}/app/tenant-admin?tab=heartbeats`);
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('up');
    await monitor.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('paused');
    await monitor.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => monitor.getAttribute('data-state')).toBe('up');
    await monitor.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete heartbeat monitor' });
    expect(await confirm.innerText()).toContain(HEARTBEAT_MSG.deleteConfirm);
    await settledShot(page, 'heartbeats-delete-light');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('heartbeats-empty').isVisible()).toBe(true);
    // Its URL is gone with it.
    expect(await page.evaluate(async (url) => (await fetch(url, { credentials: 'omit' })).status, newUrl)).toBe(404);
    expect(tenantId).toBeTruthy();
    await context.close();
    // Two waits for the list's 10 s refresh and four browser windows: more than the usual 90 s on a loaded machine.
  }, 180_000);
});
