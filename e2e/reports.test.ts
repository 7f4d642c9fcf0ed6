import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { addMember, chromiumAvailable, downloadText, newPage, parseCsv, registerThroughWizard, screenshot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/** A tenant with two clients and four alerts sent by its monitoring tool; two acknowledged, one resolved, in the page's browser. */
async function tenantWithAlerts(server: E2EServer, page: Page) {
  await registerThroughWizard(page, server.url, { name: 'Rita Reporter', email: uniqueEmail('reports'), org: 'Harbor IT' });
  const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
  for (const name of ['Globex, Inc.', '=Initech']) {
    const res = await page.request.post(`${server.url}/api/tenants/${tenantId}/clients`, { data: { name, status: 'active' } });
    expect(res.status()).toBe(201);
  }
  const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Prometheus' } })).json();
  const ids: string[] = [];
  for (const event of [
    { title: 'Disk 95% full on db-1', priority: 'critical', source: 'db-1', client: 'Globex, Inc.' },
    { title: 'Backup failed on fs-2', priority: 'high', source: 'veeam', client: 'Globex, Inc.' },
    { title: 'Printer offline', priority: 'low', source: 'printer-3', client: '=Initech' },
    { title: 'Queue slow', priority: 'medium', source: 'mail' },
  ]) {
    const res = await fetch(`${server.url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(event) });
    expect(res.status).toBe(202);
    ids.push(((await res.json()) as { alertId: string }).alertId);
  }
  const alerts = `${server.url}/api/tenants/${tenantId}/alerts`;
  expect((await page.request.post(`${alerts}/${ids[0]}/acknowledge`, { data: {} })).status()).toBe(200);
  expect((await page.request.post(`${alerts}/${ids[1]}/acknowledge`, { data: {} })).status()).toBe(200);
  expect((await page.request.post(`${alerts}/${ids[0]}/resolve`, { data: {} })).status()).toBe(200);
  return { tenantId };
}

describe.skipIf(!chromiumAvailable())('reports in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('shows the figures and charts, exports a table as CSV, and prints one page per client', async () => {
    const { context, page } = await newPage(browser, { width: 1400, height: 900 });
    const { tenantId } = await tenantWithAlerts(server, page);

    // The sidebar in the spec's order, Reports among the first items for an owner.
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const labels = await nav.getByRole('link').allInnerTexts();
    expect(labels.slice(0, 5)).toEqual(['Dashboard', 'Alerts', 'Clients', 'Reports', 'Profile']);
    await nav.getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL('**/app/reports');
    await expect.poll(() => page.getByTestId('stat-opened-value').innerText()).toBe('4');
    expect(await page.getByTestId('stat-never-value').innerText()).toBe('2');
    // No escalation policy: no alert had a target.
    expect(await page.getByTestId('stat-within-value').innerText()).toBe('–');
    await page.getByTestId('chart-priority').locator('svg').first().waitFor();
    await page.getByTestId('chart-client').locator('svg').first().waitFor();
    const byClient = page.getByTestId('table-client');
    expect(await byClient.locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining('Globex, Inc.'), expect.stringContaining('=Initech'), expect.stringContaining('No client')]);
    expect(await page.getByTestId('table-responders').innerText()).toContain('Rita Reporter');
    await screenshot(page, 'reports-light');

    // The per-client table as CSV: quoted where needed, the formula-like name made text.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-client').click()]);
    expect(download.suggestedFilename()).toMatch(/^harbor-it-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}-by-client\.csv$/);
    const text = (await downloadText(download)).replace(/^\uFEFF/, '');
    expect(text).toContain('"Globex, Inc."');
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['Client', 'Client ID', 'Opened', 'Acknowledged', 'Never acknowledged', 'Resolved', 'MTTA seconds', 'MTTR seconds', 'With a target', 'Within target', 'Within target share']);
    expect(rows.slice(1).map((r) => [r[0], r[2], r[3], r[4], r[5]])).toEqual([
      ['Globex, Inc.', '2', '2', '0', '1'],
      ["'=Initech", '1', '0', '1', '0'],
      ['No client', '1', '0', '1', '0'],
    ]);

    // One client's report through the picker.
    await page.getByTestId('report-client-picker').click();
    await page.getByRole('option', { name: '=Initech', exact: true }).click();
    await expect.poll(() => page.getByTestId('stat-opened-value').innerText()).toBe('1');
    expect(await page.getByTestId('report-client-picker').count()).toBe(1);
    expect(await page.getByTestId('table-client').count()).toBe(0);
    await page.goto(`${server.url}/app/reports`);
    await expect.poll(() => page.getByTestId('stat-opened-value').innerText()).toBe('4');

    // The printable report: a page per client with alerts, the app around it gone on paper.
    await page.getByTestId('printable-report').click();
    await expect.poll(() => page.getByTestId('print-page').count()).toBe(2);
    expect(await page.getByTestId('print-page').first().innerText()).toContain('Service report: Globex, Inc.');
    expect(await page.getByTestId('print-page').first().innerText()).toContain('Harbor IT');
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.mantine-AppShell-navbar').isVisible()).toBe(false);
    expect(await page.locator('.mantine-AppShell-header').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    await screenshot(page, 'reports-print');
    const pdf = await page.pdf({ format: 'A4' });
    // Two clients, two sheets of paper.
    expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBe(2);
    await page.emulateMedia({ media: 'screen' });
    await screenshot(page, 'reports-printable-screen');
    await page.getByRole('button', { name: 'Back to reports' }).click();
    await expect.poll(() => page.getByTestId('stat-opened-value').innerText()).toBe('4');

    // Dark, and a phone.
    const dark = await newPage(browser, { theme: 'dark', width: 1400, height: 900 });
    await dark.context.addCookies(await context.cookies());
    await dark.page.goto(`${server.url}/app/reports`);
    await expect.poll(() => dark.page.getByTestId('stat-opened-value').innerText()).toBe('4');
    await dark.page.getByTestId('chart-priority').locator('svg').first().waitFor();
    await screenshot(dark.page, 'reports-dark');
    await dark.context.close();
    const phone = await newPage(browser, { width: 390, height: 844 });
    await phone.context.addCookies(await context.cookies());
    await phone.page.goto(`${server.url}/app/reports`);
    await expect.poll(() => phone.page.getByTestId('stat-opened-value').innerText()).toBe('4');
    // Nothing wider than the screen but the tables' own scrolling.
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone.page, 'reports-narrow');
    await phone.context.close();

    // A plain member has no Reports.
    const member = await addMember(server, tenantId, 'Mo Member');
    const other = await newPage(browser);
    await signIn(other.page, server.url, member.email, member.password);
    expect(await other.page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Reports' }).count()).toBe(0);
    await other.page.goto(`${server.url}/app/reports`);
    await other.page.getByText(MSG.noPermission).waitFor();
    await other.context.close();
    await context.close();
  });

  it('says so when the period has no alerts, and when the report cannot load', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { name: 'Eve Empty', email: uniqueEmail('reports-empty'), org: 'Quiet MSP' });
    await page.goto(`${server.url}/app/reports?period=7`);
    await page.getByText('No alerts were opened in this period.').waitFor();
    expect(await page.getByTestId('printable-report').isDisabled()).toBe(true);
    await screenshot(page, 'reports-empty-light');
    // The server failing: the error state with Retry.
    await page.route('**/reports/summary**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Internal server error' } }) }));
    await page.goto(`${server.url}/app/reports?period=90`);
    await page.getByText('The report could not be loaded').waitFor();
    await page.unroute('**/reports/summary**');
    await page.getByText('Retry').click();
    await page.getByText('No alerts were opened in this period.').waitFor();
    await context.close();
  });
});
