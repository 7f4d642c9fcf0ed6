import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ALERT_MSG } from '../contract/alerts.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, type E2EServer, withServerAndBrowser, addMember } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/** A new tenant in the page's browser, with an integration key to send alerts with. */
async function tenantWithKey(page: Page, server: E2EServer, org: string) {
  await registerThroughWizard(page, server.url, { name: 'Tara Triage', email: uniqueEmail('triage'), org });
  const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
  const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Zabbix' } })).json();
  return { tenantId, key: key as string };
}

async function send(server: E2EServer, key: string, body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  expect(res.status).toBe(202);
  return (await res.json()) as { alertId?: string };
}

const titles = (page: Page) => page.getByTestId('alert-card').locator('[data-testid="alert-open"]').allInnerTexts();
const card = (page: Page, title: string) => page.getByTestId('alert-card').filter({ hasText: title });
const alertIdOf = (page: Page, title: string) => card(page, title).getAttribute('data-alert-id');
const pick = async (page: Page, testId: string, option: string) => {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

describe.skipIf(!chromiumAvailable())('triage on the dashboard in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('sorts by priority then age (or newest), filters by client, assignee and text in the address, and pages past 100', async () => {
    const { context, page } = await newPage(browser);
    const { tenantId, key } = await tenantWithKey(page, server, 'Sorting MSP');
    const client = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/clients`, { data: { name: 'Contoso Dental', status: 'active' } })).json();
    // Oldest first: an info, then a critical, then a low one, a second critical and a high one for the client.
    for (const [title, priority, extra] of [
      ['Info: certificate renews in 30 days', 'info', {}],
      ['Critical: core switch down', 'critical', { dedupKey: 'core' }],
      ['Low: backup took long', 'low', {}],
      ['Critical: firewall unreachable', 'critical', {}],
      ['High: disk 90% on fileserver', 'high', { client: client.id }],
    ] as const) {
      await send(server, key, { title, priority, ...extra });
    }
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => titles(page)).toEqual([
      'Critical: core switch down',
      'Critical: firewall unreachable',
      'High: disk 90% on fileserver',
      'Low: backup took long',
      'Info: certificate renews in 30 days',
    ]);
    // Each card says how old it is (the exact time on hover), its client and how often it fired.
    await send(server, key, { title: 'Critical: core switch down', priority: 'critical', dedupKey: 'core' });
    await expect.poll(() => card(page, 'Critical: core switch down').getByTestId('alert-occurrences').innerText()).toBe('×2');
    const fileserver = card(page, 'High: disk 90% on fileserver');
    expect(await fileserver.getByTestId('alert-age').innerText()).toMatch(/^(just now|\d+ min)$/);
    expect(await fileserver.getByTestId('alert-age').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await fileserver.getByTestId('alert-client').innerText()).toBe('Contoso Dental');

    await pick(page, 'sort', 'Newest first');
    await expect.poll(() => titles(page).then((t) => t[0])).toBe('High: disk 90% on fileserver');
    expect(page.url()).toContain('sort=newest');

    // Filters go into the address; a reload (or a shared link) shows the same list.
    await pick(page, 'filter-client', 'Contoso Dental');
    await expect.poll(() => titles(page)).toEqual(['High: disk 90% on fileserver']);
    expect(new URL(page.url()).searchParams.get('clientId')).toBe(client.id);
    await page.getByTestId('clear-filters').click();
    await page.getByTestId('filter-search').fill('firewall');
    await expect.poll(() => titles(page)).toEqual(['Critical: firewall unreachable']);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('firewall');
    await page.reload();
    await expect.poll(() => titles(page)).toEqual(['Critical: firewall unreachable']);
    expect(await page.getByTestId('filter-search').inputValue()).toBe('firewall');

    // Assigned to me / unassigned.
    const firewallId = (await alertIdOf(page, 'Critical: firewall unreachable'))!;
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    await page.request.post(`${server.url}/api/tenants/${tenantId}/alerts/${firewallId}/assign`, { data: { userId: me.user.id } });
    await page.goto(`${server.url}/app/dashboard?assignee=me`);
    await expect.poll(() => titles(page)).toEqual(['Critical: firewall unreachable']);
    await pick(page, 'filter-assignee', 'Unassigned');
    await expect.poll(() => titles(page).then((t) => t.length)).toBe(4);
    expect(await titles(page)).not.toContain('Critical: firewall unreachable');

    // Past 100: pages, while the figures count everything.
    for (let i = 0; i < 100; i += 20) await Promise.all(Array.from({ length: 20 }, (_, j) => send(server, key, { title: `Bulk check ${i + j}`, priority: 'medium' })));
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => page.getByTestId('active-count').innerText()).toBe('Showing 1–100 of 105');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => page.getByTestId('alert-card').count()).toBe(5);
    expect(await page.getByTestId('active-count').innerText()).toBe('Showing 101–105 of 105');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await screenshot(page, 'triage-page-2-light');
    await context.close();
  });

  it('acknowledges several alerts at once and says which one had changed meanwhile', async () => {
    const { context, page } = await newPage(browser);
    const { key } = await tenantWithKey(page, server, 'Bulk MSP');
    await send(server, key, { title: 'Printer offline', priority: 'low', dedupKey: 'printer' });
    await send(server, key, { title: 'VPN tunnel down', priority: 'high', dedupKey: 'vpn' });
    await send(server, key, { title: 'UPS on battery', priority: 'critical', dedupKey: 'ups' });
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => page.getByTestId('alert-card').count()).toBe(3);
    await card(page, 'Printer offline').getByTestId('alert-select').check();
    await card(page, 'VPN tunnel down').getByTestId('alert-select').check();
    expect(await page.getByTestId('bulk-count').innerText()).toBe('2 selected');
    await screenshot(page, 'triage-bulk-light');
    // Meanwhile the monitoring tool resolves the VPN alert. A live dashboard would drop it from the list (and the
    // selection) at once, so this one loses its live connection first, as on a flaky network.
    await page.route('**/events', (route) => route.abort());
    server.app.alerts.streams.closeAll();
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state')).toBe('reconnecting');
    await send(server, key, { action: 'resolve', dedupKey: 'vpn' });
    await page.getByTestId('bulk-acknowledge').click();
    const problems = page.getByTestId('bulk-problems');
    await expect.poll(() => problems.innerText()).toContain('1 alert was not acknowledged');
    expect(await problems.innerText()).toContain(`VPN tunnel down: ${ALERT_MSG.noLongerAllowed}`);
    await expect.poll(() => card(page, 'Printer offline').getByTestId('status-badge').innerText()).toMatch(/acknowledged/i);
    await expect.poll(() => card(page, 'VPN tunnel down').count()).toBe(0);
    expect(await card(page, 'UPS on battery').getByTestId('status-badge').innerText()).toMatch(/new/i);
    await screenshot(page, 'triage-bulk-result-light');

    // Assign the rest to a colleague, from the table view (kept for this person after a reload).
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const colleague = await addMember(server, me.tenants[0].id, 'Cole Colleague');
    await page.getByTestId('view-toggle').getByRole('button', { name: 'Table' }).click();
    expect(await page.getByTestId('view-toggle').getByRole('button', { name: 'Table' }).getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await expect.poll(() => page.getByTestId('alert-row').count()).toBe(2);
    await page.getByRole('checkbox', { name: 'Select all alerts on this page' }).check();
    await page.getByTestId('bulk-assignee').click();
    await page.getByRole('option', { name: colleague.name }).click();
    await page.getByTestId('bulk-assign').click();
    await expect.poll(() => page.getByTestId('alert-table').innerText()).not.toContain('Unassigned');
    expect(await page.getByTestId('alert-table').innerText()).toContain('Cole Colleague');
    await screenshot(page, 'triage-table-light');
    // The timeline names the person who did it.
    await page.getByTestId('alert-row').filter({ hasText: 'UPS on battery' }).getByTestId('alert-open').click();
    await expect.poll(() => page.getByRole('dialog').getByTestId('alert-timeline').innerText()).toContain('Tara Triage assigned it to Cole Colleague');
    await context.close();
  });

  it('works from the keyboard: j/k, a to acknowledge, Enter to open, / to search, ? for the keys', async () => {
    const { context, page } = await newPage(browser, { theme: 'dark' });
    const { key } = await tenantWithKey(page, server, 'Keys MSP');
    await send(server, key, { title: 'Mail queue growing', priority: 'high' });
    await send(server, key, { title: 'RAID degraded', priority: 'critical' });
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => titles(page)).toEqual(['RAID degraded', 'Mail queue growing']);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect.poll(() => card(page, 'Mail queue growing').getAttribute('data-active')).toBe('true');
    await page.keyboard.press('k');
    await expect.poll(() => card(page, 'RAID degraded').getAttribute('data-active')).toBe('true');
    await page.keyboard.press('a');
    await expect.poll(() => card(page, 'RAID degraded').getByTestId('status-badge').innerText()).toMatch(/acknowledged/i);
    expect(await card(page, 'Mail queue growing').getByTestId('status-badge').innerText()).toMatch(/new/i);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog').getByTestId('alert-title').innerText()).toBe('RAID degraded');
    // Keys do nothing while a dialog is open.
    await page.keyboard.press('r');
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').getByTestId('status-badge').innerText()).toMatch(/acknowledged/i);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('filter-search');
    await page.keyboard.type('mail');
    await expect.poll(() => titles(page)).toEqual(['Mail queue growing']);
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await expect.poll(() => page.getByTestId('keyboard-help').getByText('Acknowledge the alert').isVisible()).toBe(true);
    await settledShot(page, 'triage-keys-dark');
    await context.close();
  });

  it('says at once when the list cannot load (Retry) or a linked alert does not exist, and the badge shows it', async () => {
    const { context, page } = await newPage(browser);
    const { key } = await tenantWithKey(page, server, 'Flaky MSP');
    await send(server, key, { title: 'Still here', priority: 'medium' });
    let listRequests = 0;
    await page.route(/\/api\/tenants\/[^/]+\/alerts(\?.*)?$/, async (route) => {
      listRequests++;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unavailable', message: 'Service unavailable' } }) });
    });
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => page.getByText(ALERT_MSG.alertsLoadFailed).isVisible()).toBe(true);
    // One try and one retry, not a long series of them before saying so.
    expect(listRequests).toBeLessThanOrEqual(2);
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state')).toBe('offline');
    expect(await page.getByTestId('live-indicator').innerText()).toMatch(/offline/i);
    await screenshot(page, 'triage-load-error-light');
    await page.unroute(/\/api\/tenants\/[^/]+\/alerts(\?.*)?$/);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => card(page, 'Still here').count()).toBe(1);
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state')).toBe('live');

    // A link to an alert that does not exist says so, without retrying.
    const started = Date.now();
    await page.goto(`${server.url}/app/dashboard?alert=no-such-alert`);
    await expect.poll(() => page.getByRole('dialog').getByTestId('alert-missing').innerText()).toContain(ALERT_MSG.alertNotFound);
    expect(Date.now() - started).toBeLessThan(8_000);
    await context.close();
  });

  it('fits a phone: the first alert shows without scrolling, filters fold away', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    const { key } = await tenantWithKey(page, server, 'Phone MSP');
    for (const p of ['critical', 'high', 'low']) await send(server, key, { title: `Phone ${p} alert`, priority: p });
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => page.getByTestId('alert-card').count()).toBe(3);
    const box = await page.getByTestId('alert-card').first().boundingBox();
    expect(box!.y + 40).toBeLessThan(844);
    expect(await page.getByTestId('filter-status').isVisible()).toBe(false);
    await page.getByRole('button', { name: /^Filters/ }).click();
    await expect.poll(() => page.getByTestId('filter-status').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'triage-phone');
    await context.close();
  });
});
