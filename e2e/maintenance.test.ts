import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MAINTENANCE_MSG } from '../contract/maintenance.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/** A time as a `datetime-local` input takes it, in the browser's zone (the test's machine's). */
const localInput = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

describe.skipIf(!chromiumAvailable())('maintenance windows and snooze in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('creates a window in the Maintenance tab; an alert opened in it shows the Maintenance badge and the dashboard a banner; snoozes it from its modal', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Mia Maintenance', email: uniqueEmail('owner'), org: 'Quiet MSP' });
    const { key } = await page.evaluate(async () => {
      const me = await (await fetch('/api/me')).json();
      const tenantId = me.tenants[0].id as string;
      const res = await fetch(`/api/tenants/${tenantId}/integrations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Zabbix' }) });
      await fetch(`/api/tenants/${tenantId}/clients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Globex', status: 'active' }) });
      return { key: (await res.json()).key as string };
    });

    await page.goto(`${server.url}/app/escalation-policies?tab=maintenance`);
    await expect.poll(() => page.getByTestId('maintenance-empty').innerText()).toBe(MAINTENANCE_MSG.none);
    await page.getByTestId('maintenance-new').click();
    const form = page.getByRole('dialog', { name: 'New maintenance window' });
    await form.getByLabel('Name').fill('Patch night');
    await form.getByLabel('Start').fill(localInput(Date.now() - 5 * 60_000));
    // An end before the start is refused with the server's words, beside the field.
    await form.getByLabel('End').fill(localInput(Date.now() - 10 * 60_000));
    await form.getByRole('button', { name: 'Create window' }).click();
    await expect.poll(() => form.getByText(MAINTENANCE_MSG.endBeforeStart).isVisible()).toBe(true);
    await form.getByLabel('End').fill(localInput(Date.now() + 2 * 3_600_000));
    await settledShot(page, 'maintenance-form-light');
    await form.getByRole('button', { name: 'Create window' }).click();
    const card = page.getByTestId('maintenance-window');
    await expect.poll(() => card.getByTestId('maintenance-state').textContent()).toBe('Active');
    expect(await card.innerText()).toContain(MAINTENANCE_MSG.wholeTenant);
    await screenshot(page, 'maintenance-tab-light');

    // A monitoring tool sends an alert: accepted as ever (202), held by the window.
    const status = await page.evaluate(async (k) => {
      const res = await fetch('/api/ingest/events', { method: 'POST', credentials: 'omit', headers: { 'content-type': 'application/json', authorization: `Bearer ${k}` }, body: JSON.stringify({ title: 'Disk full on db-1', priority: 'critical' }) });
      return res.status;
    }, key);
    expect(status).toBe(202);

    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => page.getByTestId('maintenance-banner').isVisible()).toBe(true);
    expect(await page.getByTestId('maintenance-banner').innerText()).toContain('Maintenance window "Patch night" is active until');
    await expect.poll(() => page.getByTestId('maintenance-badge').first().isVisible()).toBe(true);
    await screenshot(page, 'maintenance-dashboard-light');

    // Snooze it for an hour from its modal: the badge says until when, the timeline who did it.
    await page.getByTestId('alert-open').first().click();
    const modal = page.getByRole('dialog');
    await expect.poll(() => modal.getByTestId('maintenance-badge').isVisible()).toBe(true);
    await modal.getByTestId('snooze-menu').click();
    await page.getByTestId('snooze-60').click();
    await expect.poll(() => modal.getByTestId('snoozed-badge').isVisible()).toBe(true);
    expect(await modal.getByTestId('snoozed-badge').textContent()).toMatch(/^Snoozed until /);
    await expect.poll(() => modal.getByTestId('alert-timeline').innerText()).toContain('Snoozed by Mia Maintenance until');
    expect(await modal.getByTestId('alert-timeline').innerText()).toContain('Opened during maintenance window "Patch night": nobody paged');
    await settledShot(page, 'maintenance-alert-modal-light');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('snoozed-badge').first().isVisible()).toBe(true);

    // The client's details say which window is on for it (the whole organization's covers it).
    await page.goto(`${server.url}/clients`);
    await page.getByTestId('clients-table').getByTestId('client-name').first().click();
    const details = page.getByRole('dialog', { name: 'Client Details' });
    await expect.poll(() => details.getByTestId('client-maintenance-active').isVisible()).toBe(true);
    expect(await details.getByTestId('client-maintenance-active').innerText()).toContain('Patch night: Active until');
    await settledShot(page, 'maintenance-client-details-light');
    await context.close();

    // Dark theme, and a phone's width: the same screens, nothing wider than the window.
    for (const [theme, width, suffix] of [
      ['dark', 1280, 'dark'],
      ['light', 390, 'phone'],
    ] as const) {
      const { context: c, page: p } = await newPage(browser, { theme, width });
      await signIn(p, server.url, owner.email, owner.password);
      await expect.poll(() => p.getByTestId('maintenance-banner').isVisible()).toBe(true);
      await expect.poll(() => p.getByTestId('maintenance-badge').first().isVisible()).toBe(true);
      await screenshot(p, `maintenance-dashboard-${suffix}`);
      await expectNoSidewaysScroll(p);
      await p.goto(`${server.url}/app/escalation-policies?tab=maintenance`);
      await expect.poll(() => p.getByTestId('maintenance-window').isVisible()).toBe(true);
      await screenshot(p, `maintenance-tab-${suffix}`);
      await expectNoSidewaysScroll(p);
      await p.getByTestId('maintenance-actions').click();
      await p.getByRole('menuitem', { name: 'Edit' }).click();
      await settledShot(p, `maintenance-form-${suffix}`);
      await p.getByRole('dialog', { name: 'Edit maintenance window' }).getByText('Every week').click();
      await settledShot(p, `maintenance-form-weekly-${suffix}`);
      await c.close();
    }

    // End now, as the owner: the window ends and the banner goes.
    const { context: c2, page: p2 } = await newPage(browser);
    await signIn(p2, server.url, owner.email, owner.password);
    await p2.goto(`${server.url}/app/escalation-policies?tab=maintenance`);
    await p2.getByTestId('maintenance-actions').click();
    await p2.getByTestId('maintenance-end-now').click();
    await p2.getByTestId('confirm-modal').getByRole('button', { name: 'End now' }).click();
    await expect.poll(() => p2.getByTestId('maintenance-state').textContent()).toBe('Ended');
    await p2.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => p2.getByTestId('maintenance-badge').first().isVisible()).toBe(true);
    expect(await p2.getByTestId('maintenance-banner').count()).toBe(0);
    await c2.close();
  });
});
