import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { PSA_MSG } from '../contract/psa.ts';
import { connectWiseStandIn } from '../server/modules/psa/psa-test-standins.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';

const creds = { companyId: 'msp', publicKey: 'pubKEY123', privateKey: 'privSECRET456', clientId: 'cw-client-id-789' };
const card = (page: Page, name: string) => page.locator(`[data-testid="psa-card"][data-name="${name}"]`);
const mapRow = (page: Page, client: string) => page.locator(`[data-testid="psa-map-row"][data-client="${client}"]`);
/** axe-core's moderate, serious and critical findings on the page as it is (after transitions), as rule ids. */
const axeFailures = async (page: Page) => {
  await page.waitForTimeout(300);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => ['moderate', 'serious', 'critical'].includes(v.impact ?? '')).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
};
const noOverflow = async (page: Page) => {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
};

// Issue 30 in Chromium: a ConnectWise PSA connection against the stand-in (secrets kept on edit, Test connection),
// the company mapping (a suggestion accepted, a company searched), an alert opening a ticket whose number the card and
// the detail link into the PSA, the "has ticket" filter; both themes and a phone.
describe.skipIf(!chromiumAvailable())('PSA tickets in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let cw: Awaited<ReturnType<typeof connectWiseStandIn>>;
  beforeAll(async () => {
    cw = await connectWiseStandIn(creds);
  });
  afterAll(() => cw.close());
  withServerAndBrowser(
    (s, b) => ([server, browser] = [s, b]),
    () => ({ outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } }),
  );

  it('connects ConnectWise PSA, maps companies, and an alert opens a ticket its card links to', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Petra PSA', email: uniqueEmail('psa'), org: 'Ticket MSP' });
    const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
    const t = `${server.url}/api/tenants/${tenantId}`;
    const acme = await (await page.request.post(`${t}/clients`, { data: { name: 'Acme HQ', status: 'active', aliases: ['Acme Corporation'] } })).json();
    await page.request.post(`${t}/clients`, { data: { name: 'Globe Trading', status: 'active' } });
    const { key } = await (await page.request.post(`${t}/integrations`, { data: { name: 'Zabbix', clientId: acme.id } })).json();

    await page.goto(`${server.url}/app/tenant-admin?tab=psa`);
    await expect.poll(() => page.getByTestId('psa-empty').isVisible()).toBe(true);
    await screenshot(page, 'psa-empty-light');

    // Create: what is missing is said per field, then the connection is made.
    await page.getByRole('button', { name: 'New PSA connection' }).click();
    const form = page.getByRole('dialog', { name: 'New PSA connection' });
    await form.getByRole('button', { name: 'Create connection' }).click();
    await expect.poll(() => form.getByText(PSA_MSG.nameRequired).isVisible()).toBe(true);
    expect(await form.getByText(PSA_MSG.secretRequired).count()).toBe(2);
    await form.getByRole('textbox', { name: 'Name' }).fill('ConnectWise');
    await form.getByTestId('psa-setting-siteUrl').fill(cw.siteUrl);
    await form.getByTestId('psa-setting-companyId').fill(creds.companyId);
    await form.getByTestId('psa-setting-publicKey').fill(creds.publicKey);
    await form.getByTestId('psa-setting-privateKey').fill(creds.privateKey);
    await form.getByTestId('psa-setting-clientId').fill(creds.clientId);
    await form.getByTestId('psa-setting-board').fill('Alerts');
    expect(await form.getByTestId('psa-setting-privateKey').getAttribute('type')).toBe('password');
    await settledShot(page, 'psa-form-light');
    await form.getByRole('button', { name: 'Create connection' }).click();

    const row = card(page, 'ConnectWise');
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.innerText()).toContain('Critical, High open a ticket on trigger');
    expect(await row.getByTestId('copy-inbound URL').innerText()).toContain('/api/ingest/psa/');
    // The callback is registered with ConnectWise by a job.
    await expect.poll(() => cw.callbacks.length, { timeout: 10_000 }).toBe(1);
    await row.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => row.getByTestId('psa-test-result').innerText()).toBe(`Test connection: ${PSA_MSG.testOk}`);
    expect(await page.content()).not.toContain(creds.privateKey);

    // Edit: the secrets are said to be stored; left empty they are kept (the test still connects).
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit PSA connection' });
    expect(await edit.getByTestId('psa-setting-privateKey').inputValue()).toBe('');
    expect(await edit.getByText('Stored. Leave empty to keep the current value.').count()).toBe(2);
    await edit.getByRole('textbox', { name: 'Name' }).fill('ConnectWise PSA');
    await edit.getByText('Only when nobody acknowledged it within some minutes').click();
    await edit.getByRole('textbox', { name: 'Minutes without acknowledgement' }).fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => edit.getByText(PSA_MSG.minutesRequired).isVisible()).toBe(true);
    await settledShot(page, 'psa-form-rules-light');
    await edit.getByText('As soon as the alert triggers').click();
    await edit.getByRole('button', { name: 'Save' }).click();
    const saved = card(page, 'ConnectWise PSA');
    await expect.poll(() => saved.isVisible()).toBe(true);
    await saved.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => saved.getByTestId('psa-test-result').getAttribute('data-ok')).toBe('true');
    await screenshot(page, 'psa-light');
    expect(await axeFailures(page)).toEqual([]);

    // Company mapping: the suggestion from the alias, accepted in one click; another client's company searched for.
    await saved.getByRole('button', { name: 'Company mapping' }).click();
    const map = page.getByTestId('psa-company-map');
    await expect.poll(() => mapRow(page, 'Acme HQ').getByTestId('psa-map-state').textContent()).toBe('Suggested: Acme Corporation');
    expect(await mapRow(page, 'Globe Trading').getByTestId('psa-map-state').textContent()).toBe('Not mapped');
    await settledShot(page, 'psa-map-light');
    expect(await axeFailures(page)).toEqual([]);
    await map.getByTestId('psa-accept-all').click();
    expect(await mapRow(page, 'Acme HQ').getByTestId('psa-map-state').textContent()).toBe('Mapped');
    const picker = map.getByLabel('ConnectWise PSA company of Globe Trading');
    await picker.click();
    await picker.fill('Glob');
    await page.getByRole('option', { name: 'Globex Inc. (Globex)' }).click();
    expect(await map.getByTestId('psa-map-count').innerText()).toBe('2 of 2 clients mapped');
    await map.getByTestId('psa-map-save').click();
    await expect.poll(() => map.isVisible()).toBe(false);
    const stored = await (await page.request.get(`${t}/psaConnections`)).json();
    const mapping = await (await page.request.get(`${t}/psaConnections/${stored.items[0].id}/companyMap`)).json();
    expect(mapping.items.map((i: { clientName: string; companyId: string }) => [i.clientName, i.companyId]).sort()).toEqual([
      ['Acme HQ', 'AcmeCorp'],
      ['Globe Trading', 'Globex'],
    ]);

    // A critical alert opens a ticket; a medium one does not (the default rules).
    const send = async (title: string, priority: string) => {
      const res = await fetch(`${server.url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ title, priority, dedupKey: title }) });
      expect(res.status).toBe(202);
    };
    await send('Disk full on fs-1', 'critical');
    await send('CPU warm on app-2', 'medium');
    await expect.poll(() => cw.tickets.size, { timeout: 15_000 }).toBe(1);
    const [ticket] = [...cw.tickets.values()];
    expect(ticket.company.identifier).toBe('AcmeCorp');

    await page.goto(`${server.url}/app/dashboard`);
    const alertCard = page.locator('[data-testid="alert-card"]', { hasText: 'Disk full on fs-1' });
    await expect.poll(() => alertCard.getByTestId('alert-ticket').innerText(), { timeout: 15_000 }).toBe(`#${ticket.id}`);
    expect(await alertCard.getByTestId('alert-ticket').getAttribute('href')).toContain(`service_recid=${ticket.id}`);
    expect(await alertCard.getByTestId('alert-ticket').getAttribute('target')).toBe('_blank');
    expect(await page.locator('[data-testid="alert-card"]', { hasText: 'CPU warm on app-2' }).getByTestId('alert-ticket').count()).toBe(0);
    await screenshot(page, 'psa-dashboard-light');

    // The filter: with a ticket, without one.
    await page.getByTestId('filter-ticket').click();
    await page.getByRole('option', { name: 'Has ticket' }).click();
    await expect.poll(() => page.getByTestId('alert-card').count()).toBe(1);
    expect(page.url()).toContain('hasTicket=true');
    await page.getByTestId('filter-ticket').click();
    await page.getByRole('option', { name: 'No ticket' }).click();
    await expect.poll(() => page.getByTestId('alert-card').allInnerTexts()).toEqual([expect.stringContaining('CPU warm on app-2')]);
    await page.goto(`${server.url}/app/dashboard?hasTicket=true`);
    await expect.poll(() => page.getByTestId('alert-card').count()).toBe(1);

    // The detail shows the ticket too, and its timeline says it was opened.
    const alertId = await page.getByTestId('alert-card').getAttribute('data-alert-id');
    await page.goto(`${server.url}/app/dashboard?hasTicket=true&alert=${alertId}`);
    const modal = page.getByTestId('alert-modal');
    await expect.poll(() => modal.getByTestId('alert-ticket').innerText(), { timeout: 20_000 }).toBe(`Ticket #${ticket.id}`);
    expect(await modal.innerText()).toContain(PSA_MSG.ticketOpened('ConnectWise PSA', String(ticket.id)));
    await settledShot(page, 'psa-alert-detail-light');
    await page.keyboard.press('Escape');

    // Dark theme.
    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, owner.email, owner.password);
    await dark.page.goto(`${server.url}/app/tenant-admin?tab=psa`);
    await expect.poll(() => card(dark.page, 'ConnectWise PSA').isVisible()).toBe(true);
    await screenshot(dark.page, 'psa-dark');
    expect(await axeFailures(dark.page)).toEqual([]);
    await card(dark.page, 'ConnectWise PSA').getByRole('button', { name: 'Edit' }).click();
    await settledShot(dark.page, 'psa-form-dark');
    expect(await axeFailures(dark.page)).toEqual([]);
    await dark.page.keyboard.press('Escape');
    await card(dark.page, 'ConnectWise PSA').getByRole('button', { name: 'Company mapping' }).click();
    await expect.poll(() => mapRow(dark.page, 'Acme HQ').getByTestId('psa-map-state').textContent()).toBe('Mapped');
    await settledShot(dark.page, 'psa-map-dark');
    expect(await axeFailures(dark.page)).toEqual([]);
    await dark.page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => dark.page.getByTestId('alert-ticket').count()).toBe(1);
    await screenshot(dark.page, 'psa-dashboard-dark');
    await dark.context.close();

    // A phone: nothing wider than the screen.
    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, owner.email, owner.password);
    await phone.page.goto(`${server.url}/app/tenant-admin?tab=psa`);
    await expect.poll(() => card(phone.page, 'ConnectWise PSA').isVisible()).toBe(true);
    await noOverflow(phone.page);
    await screenshot(phone.page, 'psa-phone');
    await card(phone.page, 'ConnectWise PSA').getByRole('button', { name: 'Company mapping' }).click();
    await expect.poll(() => mapRow(phone.page, 'Acme HQ').isVisible()).toBe(true);
    await settledShot(phone.page, 'psa-map-phone');
    await phone.page.keyboard.press('Escape');
    await phone.page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => phone.page.getByTestId('alert-ticket').count()).toBe(1);
    await noOverflow(phone.page);
    await screenshot(phone.page, 'psa-dashboard-phone');
    await phone.context.close();

    // A connection whose key is wrong: the test says what the PSA answered, and never the key.
    await page.goto(`${server.url}/app/tenant-admin?tab=psa`);
    const wrong = await page.request.post(`${t}/psaConnections`, { data: { type: 'connectwise', name: 'Wrong key', settings: { siteUrl: cw.siteUrl, ...creds, privateKey: 'not-the-key', board: 'Alerts', newStatus: 'New', closedStatus: 'Closed' } } });
    expect(wrong.status()).toBe(201);
    // Its callback cannot be registered: the connection's last error says so.
    const lastError = card(page, 'Wrong key').getByTestId('psa-last-error');
    await expect.poll(async () => (await page.reload(), await card(page, 'Wrong key').waitFor(), (await lastError.count()) ? await lastError.textContent() : ''), { timeout: 10_000 }).toContain('answered 401');
    await card(page, 'Wrong key').getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => card(page, 'Wrong key').getByTestId('psa-test-result').getAttribute('data-ok')).toBe('false');
    const said = await card(page, 'Wrong key').getByTestId('psa-test-result').innerText();
    expect(said).toMatch(/^Test connection: GET .*system\/info answered 401/);
    expect(said).not.toContain('not-the-key');
    await screenshot(page, 'psa-test-failed-light');
    expect(await axeFailures(page)).toEqual([]);
    await card(page, 'Wrong key').getByRole('button', { name: 'Delete Wrong key' }).click();
    await page.getByTestId('confirm-modal').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => card(page, 'Wrong key').count()).toBe(0);

    // Delete, after a confirmation.
    await card(page, 'ConnectWise PSA').getByRole('button', { name: 'Delete ConnectWise PSA' }).click();
    await page.getByTestId('confirm-modal').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('psa-empty').isVisible()).toBe(true);
    await context.close();
  });
});
