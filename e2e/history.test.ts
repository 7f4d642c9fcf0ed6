import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HISTORY_EXPORT_COLUMNS, HISTORY_MSG } from '../contract/alerts.ts';
import type { AlertsTable } from '../server/db/schema.ts';
import { chromiumAvailable, downloadText, newPage, parseCsv, registerThroughWizard, screenshot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A resolved or closed alert of the tenant, written straight into the table, resolved `ago` ms before now. */
function historyAlert(tenantId: string, title: string, over: Partial<AlertsTable> & { ago: number }): AlertsTable {
  const { ago, ...rest } = over;
  const resolved = new Date(Date.now() - ago).toISOString();
  const created = new Date(Date.now() - ago - HOUR).toISOString();
  const row: AlertsTable = {
    id: crypto.randomUUID(),
    tenant_id: tenantId,
    client_id: null,
    integration_id: null,
    dedup_key: null,
    title,
    description: '',
    priority: 'medium',
    status: 'resolved',
    source: 'monitoring.example',
    search_text: '',
    created_at: created,
    updated_at: resolved,
    acknowledged_by: null,
    acknowledged_at: null,
    resolved_by: null,
    resolved_at: resolved,
    closed_by: null,
    closed_at: rest.status === 'closed' ? resolved : null,
    assigned_to: null,
    tags: '[]',
    metadata: '{}',
    occurrences: 1,
    last_seen_at: created,
    escalation_state: 'none',
    ...rest,
  };
  row.search_text = `${row.title}\n${row.source}\n${row.dedup_key ?? ''}\n${row.description}`.toLowerCase();
  return row;
}

const choose = async (page: Page, testId: string, option: string) => {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};
const titles = (page: Page) => page.getByTestId('history-table').locator('tbody tr').locator('button').allInnerTexts();
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

describe.skipIf(!chromiumAvailable())('alert history in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('keeps search, filters, range and page in the address through a reload and a shared link, and exports what it shows as CSV', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('history');
    const { password } = await registerThroughWizard(page, server.url, { name: 'Hana History', email, org: 'Harbor IT' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    const userId = me.user.id as string;
    const client = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/clients`, { data: { name: 'Contoso', status: 'active' } })).json();
    const formula = '=cmd|" /C calc"!A0';
    await server.deps.db
      .insertInto('alerts')
      .values([
        historyAlert(tenantId, 'Disk full on db-1', { ago: 2 * HOUR, priority: 'critical', client_id: client.id, resolved_by: userId, description: '  Cleaned the WAL.  ' }),
        historyAlert(tenantId, formula, { ago: 3 * HOUR, priority: 'high', client_id: client.id, source: '@evil' }),
        historyAlert(tenantId, 'Backup failed, "nightly"', { ago: 2 * DAY, priority: 'high', status: 'closed', client_id: client.id, closed_by: userId }),
        historyAlert(tenantId, 'Disk full on web-2', { ago: 10 * DAY, priority: 'low', client_id: client.id }),
        historyAlert(tenantId, 'Disk full on old-3', { ago: 40 * DAY, priority: 'info', status: 'closed' }),
        // Enough for a second page.
        ...Array.from({ length: 25 }, (_, i) => historyAlert(tenantId, `Ping lost on host-${String(i).padStart(2, '0')}`, { ago: 5 * DAY + i * HOUR, priority: 'info' })),
      ])
      .execute();

    await page.goto(`${server.url}/app/alerts/history`);
    await expect.poll(() => titles(page)).toHaveLength(20);
    await screenshot(page, 'history-light');

    // Client, then the last 7 days: the address says so.
    await choose(page, 'history-client', 'Contoso');
    await choose(page, 'history-range', 'Last 7 days');
    await expect.poll(() => titles(page)).toEqual(['Disk full on db-1', formula, 'Backup failed, "nightly"']);
    expect(query(page)).toEqual({ clientId: client.id, range: '7d' });
    await page.getByTestId('history-search').fill('backup');
    await expect.poll(() => query(page)).toEqual({ clientId: client.id, range: '7d', q: 'backup' });
    await expect.poll(() => titles(page)).toEqual(['Backup failed, "nightly"']);

    // A reload shows the same view.
    await page.reload();
    await expect.poll(() => titles(page)).toEqual(['Backup failed, "nightly"']);
    expect(await page.getByTestId('history-search').inputValue()).toBe('backup');
    expect(await page.getByTestId('history-client').inputValue()).toBe('Contoso');
    expect(await page.getByTestId('history-range').inputValue()).toBe('Last 7 days');

    // The export holds exactly what the filters select, formulas defused, commas and quotes quoted.
    await page.getByTestId('history-search').fill('');
    await expect.poll(() => titles(page)).toHaveLength(3);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('history-export').click()]);
    const today = new Date().toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`alert-history-harbor-it-${today}.csv`);
    const text = await downloadText(download);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text).toContain(`"'=cmd|"" /C calc""!A0"`);
    expect(text).toContain('"Backup failed, ""nightly"""');
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual([...HISTORY_EXPORT_COLUMNS]);
    const col = (name: (typeof HISTORY_EXPORT_COLUMNS)[number]) => HISTORY_EXPORT_COLUMNS.indexOf(name);
    expect(rows.map((r) => r[col('Title')])).toEqual(['Disk full on db-1', `'${formula}`, 'Backup failed, "nightly"']);
    expect(rows.map((r) => r[col('Client')])).toEqual(['Contoso', 'Contoso', 'Contoso']);
    expect(rows.map((r) => r[col('Status')])).toEqual(['resolved', 'resolved', 'closed']);
    expect(rows[0][col('Resolved by')]).toBe('Hana History');
    expect(rows[0][col('Description')]).toBe('Cleaned the WAL.');
    expect(rows[1][col('Source')]).toBe("'@evil");
    expect(rows[2][col('Closed by')]).toBe('Hana History');
    await expect.poll(() => page.getByTestId('history-export-done').innerText()).toContain(HISTORY_MSG.exported(3, download.suggestedFilename()));

    // While it downloads, a bar and the rows so far (the stream slowed down in the page, so it can be seen); then a
    // refusal. In the page's fetch: the app's service worker would hide the requests from Playwright's routing.
    await page.evaluate(() => {
      const real = window.fetch;
      const w = window as unknown as { exportMode: 'slow' | 'fail' | 'normal' };
      w.exportMode = 'slow';
      window.fetch = async (input, init) => {
        if (!String(input).includes('/history/export')) return real(input, init);
        if (w.exportMode === 'fail') {
          const body = { error: { code: 'unavailable', message: 'The database is unavailable. Please try again shortly.' } };
          return new Response(JSON.stringify(body), { status: 503, headers: { 'content-type': 'application/json' } });
        }
        const res = await real(input, init);
        if (w.exportMode === 'normal') return res;
        const reader = res.body!.getReader();
        const slow = new ReadableStream<Uint8Array>({
          async pull(ctrl) {
            const { done, value } = await reader.read();
            if (done) return ctrl.close();
            for (let i = 0; i < value.length; i += 60) {
              ctrl.enqueue(value.slice(i, i + 60));
              await new Promise((r) => setTimeout(r, 500));
            }
          },
        });
        return new Response(slow, { status: res.status, headers: res.headers });
      };
    });
    await page.getByTestId('history-export').click();
    await expect.poll(() => page.getByTestId('history-export-progress').innerText()).toMatch(/Exporting… [12] of 3 alerts/);
    await expect.poll(() => page.getByRole('progressbar', { name: 'Export progress' }).getAttribute('aria-valuenow')).toMatch(/^(33|67)$/);
    await screenshot(page, 'history-export-progress-light');
    await page.getByTestId('history-export-progress').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('history-export-progress').count()).toBe(0);

    await page.evaluate(() => ((window as unknown as { exportMode: string }).exportMode = 'fail'));
    await page.getByTestId('history-export').click();
    await expect.poll(() => page.getByTestId('history-export-error').innerText()).toContain(HISTORY_MSG.exportFailed);
    await screenshot(page, 'history-export-error-light');
    // Once the server is back, Retry downloads it.
    await page.evaluate(() => ((window as unknown as { exportMode: string }).exportMode = 'normal'));
    const [again] = await Promise.all([page.waitForEvent('download'), page.getByTestId('history-export-error').getByRole('button', { name: 'Retry' }).click()]);
    expect(parseCsv((await downloadText(again)).slice(1))).toHaveLength(4);
    await page.getByTestId('history-export-done').getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => page.getByTestId('history-export-done').count()).toBe(0);

    // A custom range: days in the address; one that ends before it starts is refused on the spot.
    await choose(page, 'history-range', 'Custom range');
    await expect.poll(() => query(page).range).toBe('custom');
    expect(query(page).from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const day = (msAgo: number) => new Date(Date.now() - msAgo).toLocaleDateString('en-CA'); // YYYY-MM-DD, local
    // Both dates typed before the page renders again (a fast typist, a slow machine): neither undoes the other.
    await page.getByTestId('history-to').waitFor();
    await page.evaluate(
      ([from, to]) => {
        const type = (testId: string, value: string) => {
          const input = document.querySelector(`input[data-testid="${testId}"]`) as HTMLInputElement;
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
          input.dispatchEvent(new Event('input', { bubbles: true }));
        };
        type('history-from', from);
        type('history-to', to);
      },
      [day(12 * DAY), day(8 * DAY)],
    );
    await expect.poll(() => titles(page)).toEqual(['Disk full on web-2']);
    await page.reload();
    await expect.poll(() => titles(page)).toEqual(['Disk full on web-2']);
    expect(await page.getByTestId('history-from').inputValue()).toBe(day(12 * DAY));
    expect(query(page)).toMatchObject({ range: 'custom', from: day(12 * DAY), to: day(8 * DAY) });
    await page.getByTestId('history-from').fill(day(0));
    await expect.poll(() => page.getByText(HISTORY_MSG.toBeforeFrom).isVisible()).toBe(true);
    expect(await page.getByTestId('history-export').isDisabled()).toBe(true);
    await screenshot(page, 'history-range-refused-light');

    // Nothing matches: the empty state, and nothing to export.
    await page.getByTestId('history-clear').click();
    await page.getByTestId('history-search').fill('nothing like this');
    await expect.poll(() => page.getByTestId('history-empty').isVisible()).toBe(true);
    expect(await page.getByTestId('history-export').isDisabled()).toBe(true);

    // Page 2 of everything is an address of its own.
    await page.getByTestId('history-search').fill('');
    await expect.poll(() => titles(page)).toHaveLength(20);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => titles(page)).toHaveLength(10);
    expect(query(page)).toEqual({ page: '2' });
    await page.reload();
    await expect.poll(() => titles(page)).toHaveLength(10);
    expect(await page.getByRole('button', { name: 'Page 2' }).getAttribute('data-active')).toBe('true');

    // A link shared with a colleague's browser (here: the same person, dark and on a phone) shows the same view.
    const shared = `${server.url}/app/alerts/history?clientId=${client.id}&range=30d&priority=high`;
    await context.close();
    for (const opts of [{ theme: 'dark' as const, name: 'dark' }, { theme: 'dark' as const, width: 390, height: 844, name: 'phone-dark' }, { theme: 'light' as const, width: 390, height: 844, name: 'phone-light' }]) {
      const other = await newPage(browser, opts);
      await signIn(other.page, server.url, email, password);
      await other.page.goto(shared);
      const phone = opts.width === 390;
      const shown = () => (phone ? other.page.getByTestId('alert-card').allInnerTexts() : titles(other.page));
      await expect.poll(async () => (await shown()).length).toBe(2);
      expect((await shown()).join('\n')).toContain('Backup failed, "nightly"');
      expect(await other.page.getByTestId('history-priority').inputValue()).toBe('High');
      expect(await other.page.getByTestId('history-range').inputValue()).toBe('Last 30 days');
      await screenshot(other.page, `history-${opts.name}`);
      await other.page.getByTestId('history-export').click();
      await expect.poll(() => other.page.getByTestId('history-export-done').isVisible()).toBe(true);
      await screenshot(other.page, `history-exported-${opts.name}`);
      await other.context.close();
    }
  });
});
