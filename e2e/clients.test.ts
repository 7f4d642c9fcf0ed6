import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CLIENT_MSG } from '../contract/clients.ts';
import { MSG } from '../contract/messages.ts';
import { chromiumAvailable, launchBrowser, newPage, registerThroughWizard, screenshot, startServer, type E2EServer, signIn } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/** A required field's label: Mantine adds a ' *' that getByLabel reads as part of the text. */
const REQUIRED = (label: string) => new RegExp(`^${label}( \\*)?$`);
const LIST_URL = /\/api\/tenants\/[^/]+\/clients(\?.*)?$/;


/** Creates clients through the API from inside the page, with the page's own session. */
async function seedClients(page: Page, clients: Array<Record<string, unknown>>) {
  await page.evaluate(async (list) => {
    const me = await (await fetch('/api/me')).json();
    for (const c of list) {
      const res = await fetch(`/api/tenants/${me.tenants[0].id}/clients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(c) });
      if (res.status !== 201) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
    }
  }, clients);
}

/**
 * A modal's screenshot: after its opening transition, and of the viewport only (a full-page shot would stretch the
 * page under the fixed overlay).
 */
async function settledShot(page: Page, name: string) {
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.resolve(import.meta.dirname, 'screenshots', `${name}.png`) });
}

const tableNames = (page: Page) => page.getByTestId('clients-table').getByTestId('client-name').allInnerTexts();

describe.skipIf(!chromiumAvailable())('client management in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let account: { email: string; password: string };
  let tenantId: string;

  beforeAll(async () => {
    // Debounced search, refetches after each change: give the page a few seconds on a busy machine.
    vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 100 } } });
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('adds a client with tags, finds it, sorts, edits, shows details and deletes it', async () => {
    const { context, page } = await newPage(browser);
    account = await registerThroughWizard(page, server.url, { email: uniqueEmail('clients'), org: 'Client Test MSP' });
    const tenant = await server.deps.db.selectFrom('tenant_members').select('tenant_id').innerJoin('users', 'users.id', 'tenant_members.user_id').where('users.email', '=', account.email).executeTakeFirstOrThrow();
    tenantId = tenant.tenant_id;

    // The dashboard's Manage Clients button leads here (through /clients).
    await page.getByRole('link', { name: 'Manage Clients' }).click();
    await page.waitForURL('**/app/clients');
    await expect.poll(() => page.getByText(CLIENT_MSG.noClients).isVisible()).toBe(true);
    await screenshot(page, 'clients-empty-light');

    // Add: the spec's messages, each cleared as soon as its field is edited.
    await page.getByRole('button', { name: 'Add Client' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Client' });
    await dialog.getByRole('button', { name: 'Add Client' }).click();
    await expect.poll(() => dialog.getByText(MSG.clientNameRequired).isVisible()).toBe(true);
    await dialog.getByLabel(REQUIRED('Name')).fill('Globex Corporation');
    await expect.poll(() => dialog.getByText(MSG.clientNameRequired).count()).toBe(0);

    await dialog.getByLabel('Contact email').fill('hank-at-globex');
    await dialog.getByLabel('Website').fill('not a website');
    await dialog.getByRole('button', { name: 'Add Client' }).click();
    await expect.poll(() => dialog.getByText(MSG.invalidEmail).isVisible()).toBe(true);
    await expect.poll(() => dialog.getByText(MSG.invalidWebsite).isVisible()).toBe(true);
    await dialog.getByLabel('Contact email').fill('hank@globex.example');
    await expect.poll(() => dialog.getByText(MSG.invalidEmail).count()).toBe(0);
    expect(await dialog.getByText(MSG.invalidWebsite).isVisible()).toBe(true);
    await dialog.getByLabel('Website').fill('www.globex.example');
    await expect.poll(() => dialog.getByText(MSG.invalidWebsite).count()).toBe(0);

    // Choosing the selected status again clears it.
    await dialog.getByLabel(REQUIRED('Status')).click();
    await page.getByRole('option', { name: 'Active', exact: true }).click();
    await dialog.getByRole('button', { name: 'Add Client' }).click();
    await expect.poll(() => dialog.getByText(MSG.statusRequired).isVisible()).toBe(true);
    await dialog.getByLabel(REQUIRED('Status')).click();
    await page.getByRole('option', { name: 'Pending', exact: true }).click();
    await expect.poll(() => dialog.getByText(MSG.statusRequired).count()).toBe(0);

    await dialog.getByLabel('Company size').click();
    await page.getByRole('option', { name: 'Medium (51-200 employees)', exact: true }).click();
    await dialog.getByLabel('Contact name').fill('Hank Scorpio');
    await dialog.getByLabel('City').fill('Cypress Creek');
    const tags = dialog.getByLabel('Tags');
    for (const tag of ['vip', '  backup  ', 'VIP']) {
      await tags.fill(tag);
      await tags.press('Enter');
    }
    await dialog.getByRole('button', { name: 'Add custom field' }).click();
    await dialog.getByLabel('Custom field 1 name').fill('Contract');
    await dialog.getByLabel('Custom field 1 value').fill('C-42');
    await settledShot(page, 'clients-form-light');
    await dialog.getByRole('button', { name: 'Add Client' }).click();
    await expect.poll(() => page.getByText(CLIENT_MSG.created).isVisible()).toBe(true);
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => tableNames(page)).toEqual(['Globex Corporation']);
    const stored = await server.deps.db.selectFrom('clients').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.tags)).toEqual(['vip', 'backup']);
    expect(JSON.parse(stored.custom_fields)).toEqual({ Contract: 'C-42' });
    expect(stored).toMatchObject({ status: 'pending', size: 'medium', website: 'www.globex.example', contact_email: 'hank@globex.example' });

    // More clients than one page holds (the trial plan allows 10; this tenant gets room for more).
    await server.deps.db.updateTable('tenants').set({ max_clients: 30 }).where('id', '=', tenantId).execute();
    const extra = ['Acme Anvils', 'bravo Bakery', 'Cyberdyne Systems', 'delta Dental', 'Initech', 'Massive Dynamic', 'Soylent Foods', 'Stark Industries', 'Umbrella Labs', 'Wayne Enterprises', 'wonka Sweets'];
    await seedClients(
      page,
      extra.map((name, i) => ({ name, status: ['active', 'inactive', 'pending'][i % 3], contactName: `Contact ${i}`, contactEmail: `person${i}@${name.split(' ')[0].toLowerCase()}.example` })),
    );
    await page.reload();
    await expect.poll(() => tableNames(page)).toEqual(['Acme Anvils', 'bravo Bakery', 'Cyberdyne Systems', 'delta Dental', 'Globex Corporation', 'Initech', 'Massive Dynamic', 'Soylent Foods', 'Stark Industries', 'Umbrella Labs']);
    expect(await page.getByTestId('clients-range').innerText()).toBe('Showing 1-10 of 12');
    await screenshot(page, 'clients-list-light');
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect.poll(() => tableNames(page)).toEqual(['Wayne Enterprises', 'wonka Sweets']);

    // Sort by name descending, then by status.
    await page.getByTestId('sort-name').click();
    await expect.poll(() => tableNames(page).then((n) => n.slice(0, 3))).toEqual(['wonka Sweets', 'Wayne Enterprises', 'Umbrella Labs']);
    expect(await page.getByTestId('clients-range').innerText()).toBe('Showing 1-10 of 12');
    await page.getByTestId('sort-status').click();
    await expect.poll(() => tableNames(page).then((n) => n.slice(0, 4))).toEqual(['Acme Anvils', 'delta Dental', 'Soylent Foods', 'Wayne Enterprises']);
    // Created: newest first, then oldest first.
    await page.getByTestId('sort-createdAt').click();
    await expect.poll(() => tableNames(page).then((n) => n.includes('Globex Corporation'))).toBe(false);
    await page.getByTestId('sort-createdAt').click();
    await expect.poll(() => tableNames(page).then((n) => n[0])).toBe('Globex Corporation');

    // Status filter on the server.
    await page.getByTestId('clients-status-filter').click();
    await page.getByRole('option', { name: 'Pending', exact: true }).click();
    await expect.poll(() => tableNames(page).then((n) => [...n].sort())).toEqual(['Cyberdyne Systems', 'Globex Corporation', 'Massive Dynamic', 'Umbrella Labs']);
    await page.getByTestId('clients-status-filter').click();
    await page.getByRole('option', { name: 'All statuses', exact: true }).click();

    // Search by contact name and by email, case-insensitively; nothing found shows the empty text.
    await page.getByTestId('clients-search').fill('HANK scor');
    await expect.poll(() => tableNames(page)).toEqual(['Globex Corporation']);
    await page.getByTestId('clients-search').fill('@cyberdyne.EXAMPLE');
    await expect.poll(() => tableNames(page)).toEqual(['Cyberdyne Systems']);
    await page.getByTestId('clients-search').fill('no such client anywhere');
    await expect.poll(() => page.getByText(CLIENT_MSG.noMatches).isVisible()).toBe(true);
    await page.getByTestId('clients-search').fill('globex');
    await expect.poll(() => tableNames(page)).toEqual(['Globex Corporation']);

    // Edit from the row's icon.
    await page.getByRole('button', { name: 'Edit Globex Corporation' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Client' });
    expect(await edit.getByLabel(REQUIRED('Name')).inputValue()).toBe('Globex Corporation');
    await edit.getByLabel(REQUIRED('Name')).fill('Globex Holdings');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText(CLIENT_MSG.updated).isVisible()).toBe(true);
    await page.getByTestId('clients-search').fill('holdings');
    await expect.poll(() => tableNames(page)).toEqual(['Globex Holdings']);

    // Details, then Edit Client from there.
    await page.getByTestId('clients-table').getByTestId('client-name').first().click();
    const details = page.getByRole('dialog', { name: 'Client Details' });
    await expect.poll(() => details.getByTestId('client-details').isVisible()).toBe(true);
    // Badges and labels are upper-cased by CSS, so compare without case.
    const text = (await details.innerText()).toLowerCase();
    for (const s of ['Globex Holdings', 'Hank Scorpio', 'hank@globex.example', 'www.globex.example', 'Medium (51-200 employees)', 'vip', 'backup', 'Contract', 'C-42', 'Pending', 'Cypress Creek']) {
      expect(text).toContain(s.toLowerCase());
    }
    await settledShot(page, 'clients-details-light');
    await details.getByRole('button', { name: 'Edit Client' }).click();
    const fromDetails = page.getByRole('dialog', { name: 'Edit Client' });
    expect(await fromDetails.getByLabel('Custom field 1 value').inputValue()).toBe('C-42');
    await fromDetails.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => fromDetails.isVisible()).toBe(false);

    // Delete with the spec's confirmation.
    await page.getByRole('button', { name: 'Delete Globex Holdings' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Client' });
    await expect.poll(() => confirm.getByText(MSG.clientDeleteConfirm).isVisible()).toBe(true);
    await settledShot(page, 'clients-delete-light');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText(CLIENT_MSG.deleted).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(CLIENT_MSG.noMatches).isVisible()).toBe(true);
    await page.getByTestId('clients-search').fill('');
    await expect.poll(() => page.getByTestId('clients-range').innerText()).toBe('Showing 1-10 of 11');
    await context.close();
  });

  it('shows the plan limit and the spec’s error texts when a call fails', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, account.email, account.password);
    const count = Number((await server.deps.db.selectFrom('clients').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow()).n);
    await server.deps.db.updateTable('tenants').set({ max_clients: count }).where('id', '=', tenantId).execute();
    await page.goto(`${server.url}/app/clients`);
    await page.getByRole('button', { name: 'Add Client' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Client' });
    await dialog.getByLabel(REQUIRED('Name')).fill('Over the limit');
    await dialog.getByRole('button', { name: 'Add Client' }).click();
    await expect.poll(() => dialog.getByTestId('client-form-error').innerText()).toBe(`Your plan allows at most ${count} clients.`);
    await settledShot(page, 'clients-plan-limit-light');

    // A failing create, update, delete and details call each show their spec text.
    await page.route(LIST_URL, (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 500, body: '{}' }) : route.fallback()));
    await dialog.getByRole('button', { name: 'Add Client' }).click();
    await expect.poll(() => dialog.getByTestId('client-form-error').innerText()).toBe(MSG.clientCreateFailed);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const one = /\/api\/tenants\/[^/]+\/clients\/[^/?]+$/;
    await page.route(one, (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.getByRole('button', { name: 'Edit Acme Anvils' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Client' });
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.getByTestId('client-form-error').innerText()).toBe(MSG.clientUpdateFailed);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete Acme Anvils' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Client' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => confirm.getByTestId('client-delete-error').innerText()).toBe(MSG.clientDeleteFailed);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('clients-table').getByTestId('client-name').first().click();
    await expect.poll(() => page.getByTestId('client-details-error').innerText()).toBe(MSG.clientGetFailed);
    await page.getByRole('dialog', { name: 'Client Details' }).getByRole('button', { name: 'Close', exact: true }).click();

    await page.route(LIST_URL, (route) => (route.request().method() === 'GET' ? route.fulfill({ status: 500, body: '{}' }) : route.fallback()));
    await page.reload();
    // The list query retries with back-off before it gives up.
    await expect.poll(() => page.getByText(MSG.clientsLoadFailed).isVisible(), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'clients-load-error-light');
    await page.unroute(LIST_URL);
    await page.getByText('Retry').click();
    await expect.poll(() => tableNames(page).then((n) => n.length)).toBe(10);
    await context.close();
  });

  it('looks right in the dark theme', async () => {
    const { context, page } = await newPage(browser, { theme: 'dark' });
    await signIn(page, server.url, account.email, account.password);
    await page.goto(`${server.url}/app/clients`);
    await expect.poll(() => tableNames(page).then((n) => n.length)).toBe(10);
    await screenshot(page, 'clients-list-dark');
    await page.getByTestId('clients-table').getByTestId('client-name').first().click();
    await expect.poll(() => page.getByTestId('client-details').isVisible()).toBe(true);
    await settledShot(page, 'clients-details-dark');
    await page.getByRole('dialog', { name: 'Client Details' }).getByRole('button', { name: 'Edit Client' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Client' });
    // The focus goes to the form's first field and stays there: the details, closing, handed it back to the list behind
    // the form 10 ms later (a keystroke typed into the form then went to the list).
    const nameField = edit.getByLabel(REQUIRED('Name'));
    await expect.poll(() => nameField.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.waitForTimeout(300);
    expect(await nameField.evaluate((el) => el === document.activeElement)).toBe(true);
    await nameField.fill('');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.getByText(MSG.clientNameRequired).isVisible()).toBe(true);
    // The refused field is brought into view and focused, though the button is at the bottom.
    await expect.poll(() => edit.getByLabel(REQUIRED('Name')).evaluate((el) => el === document.activeElement)).toBe(true);
    await settledShot(page, 'clients-form-dark');
    await context.close();
  });

  it('lists a client’s open alerts and recent history in its details, each leading to the alert; /clients?client= opens them', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('client-alerts'), org: 'Client Alerts MSP' });
    const tenant = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
    const newClient = async (name: string) => (await (await page.request.post(`${server.url}/api/tenants/${tenant}/clients`, { data: { name, status: 'active' } })).json()).id as string;
    const initech = await newClient('Initech');
    const quiet = await newClient('Quiet Corp');
    const busy = await newClient('Busy Bees');
    const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenant}/integrations`, { data: { name: 'Prometheus' } })).json();
    const ingest = async (event: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(event) });
      expect(res.status).toBe(202);
      return ((await res.json()) as { alertId: string }).alertId;
    };
    // Initech: a low alert first, then a critical one (listed first: most urgent), one resolved; another client's alert and one of no client.
    await ingest({ title: 'Printer offline', priority: 'low', client: 'Initech' });
    const critical = await ingest({ title: 'TPS server down', priority: 'critical', client: initech });
    await ingest({ title: 'Backup late', priority: 'high', client: 'Initech', dedupKey: 'initech-backup' });
    await ingest({ action: 'resolve', dedupKey: 'initech-backup' });
    await ingest({ title: 'Someone else’s disk', priority: 'high', client: 'Busy Bees' });
    await ingest({ title: 'Unbound alert', priority: 'medium' });

    // A link to /clients?client=… (as the dashboard makes) opens that client's details.
    await page.goto(`${server.url}/clients?client=${initech}`);
    await page.waitForURL((u) => u.pathname === '/app/clients' && u.searchParams.get('client') === initech);
    const details = page.getByRole('dialog', { name: 'Client Details' });
    const open = details.getByTestId('client-open-alerts');
    const history = details.getByTestId('client-alert-history');
    await expect.poll(() => open.getByTestId('client-alert-title').allInnerTexts()).toEqual(['TPS server down', 'Printer offline']);
    expect(await open.getByTestId('priority-badge').allTextContents()).toEqual(['Critical', 'Low']);
    expect(await open.getByTestId('client-open-alerts-count').innerText()).toBe('2 open');
    expect(await open.getByTestId('client-alert-link').first().getAttribute('href')).toBe(`/app/dashboard?alert=${critical}`);
    expect(await open.getByTestId('client-alerts-dashboard-link').getAttribute('href')).toBe(`/app/dashboard?clientId=${initech}`);
    // Each shows its age, with the exact time on hover.
    expect(await open.locator('time').first().innerText()).toMatch(/^(just now|\d+ min ago)$/);
    await expect.poll(() => history.getByTestId('client-alert-link').allInnerTexts()).toHaveLength(1);
    expect(await history.getByTestId('client-alert-link').innerText()).toContain('Backup late');
    expect(await history.getByTestId('client-alert-history-count').innerText()).toBe('1 resolved');
    expect(await history.getByTestId('client-alerts-history-link').getAttribute('href')).toBe(`/app/alerts/history?clientId=${initech}`);
    expect(await details.innerText()).not.toContain('Someone else’s disk');
    await details.getByTestId('client-alerts').scrollIntoViewIfNeeded();
    await settledShot(page, 'clients-details-alerts-light');

    // An alert opens on the dashboard; Back returns to the client's details.
    await open.getByTestId('client-alert-link').first().click();
    await page.waitForURL((u) => u.pathname === '/app/dashboard' && u.searchParams.get('alert') === critical);
    await expect.poll(() => page.getByRole('dialog').getByTestId('alert-title').innerText()).toBe('TPS server down');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/app/clients' && u.searchParams.get('client') === initech);
    await expect.poll(() => open.getByTestId('client-alert-link').count()).toBe(2);
    // The history link opens the alert history on this client.
    await history.getByTestId('client-alerts-history-link').click();
    await page.waitForURL((u) => u.pathname === '/app/alerts/history' && u.searchParams.get('clientId') === initech);
    await expect.poll(() => page.getByTestId('history-table').innerText()).toContain('Backup late');
    await page.goBack();
    await expect.poll(() => open.getByTestId('client-alert-link').count()).toBe(2);
    // Closing removes the parameter.
    await details.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => details.count()).toBe(0);

    // No alerts at all: both empty texts. Opening from the list puts the client in the address.
    await page.getByTestId('clients-table').getByRole('button', { name: 'Quiet Corp', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('client')).toBe(quiet);
    await expect.poll(() => open.innerText()).toContain(CLIENT_MSG.noOpenAlerts);
    await expect.poll(() => history.innerText()).toContain(CLIENT_MSG.noResolvedAlerts);
    expect(await open.getByTestId('client-alerts-dashboard-link').count()).toBe(0);
    expect(await history.getByTestId('client-alerts-history-link').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).searchParams.get('client')).toBe(null);

    // More open alerts than shown: the count says so and the link leads to all of them.
    for (let i = 1; i <= 12; i++) await ingest({ title: `Hive sensor ${i}`, priority: i % 2 ? 'medium' : 'info', client: busy });
    await page.goto(`${server.url}/app/clients?client=${busy}`);
    await expect.poll(() => open.getByTestId('client-alert-link').count()).toBe(10);
    expect(await open.getByTestId('client-open-alerts-count').innerText()).toBe('Showing 10 of 13');
    expect(await open.getByTestId('client-alerts-dashboard-link').innerText()).toBe('See all 13 on the dashboard');
    await open.getByTestId('client-alerts-dashboard-link').click();
    await page.waitForURL((u) => u.pathname === '/app/dashboard' && u.searchParams.get('clientId') === busy);

    // A failing list says so, with Retry.
    await page.route(/\/api\/tenants\/[^/]+\/alerts\?/, (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.goto(`${server.url}/app/clients?client=${initech}`);
    await expect.poll(() => open.getByTestId('client-alerts-error').innerText(), { timeout: 20_000 }).toContain(CLIENT_MSG.openAlertsLoadFailed);
    await page.unroute(/\/api\/tenants\/[^/]+\/alerts\?/);
    await open.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => open.getByTestId('client-alert-link').count()).toBe(2);
    const cookies = await context.cookies();
    await context.close();

    // Both themes and a phone.
    for (const [name, opts] of [
      ['clients-details-alerts-dark', { theme: 'dark' as const }],
      ['clients-details-alerts-phone', { width: 390, height: 844 }],
    ] as const) {
      const other = await newPage(browser, opts);
      await other.context.addCookies(cookies);
      await other.page.goto(`${server.url}/app/clients?client=${initech}`);
      await other.page.getByRole('dialog', { name: 'Client Details' }).getByTestId('client-alert-link').first().waitFor();
      await settledShot(other.page, `${name}-top`);
      await other.page.getByTestId('client-alerts').scrollIntoViewIfNeeded();
      await settledShot(other.page, name);
      await other.context.close();
    }
  });

  it('works on a 390 px wide phone, as cards with a sort menu', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await signIn(page, server.url, account.email, account.password);
    await page.goto(`${server.url}/app/clients`);
    const cards = page.getByTestId('clients-cards').getByTestId('client-name');
    await expect.poll(() => cards.count()).toBe(10);
    expect(await page.getByTestId('clients-table').isVisible()).toBe(false);
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'clients-list-narrow');
    await page.getByRole('combobox', { name: 'Sort clients' }).click();
    await page.getByRole('option', { name: 'Name (Z to A)', exact: true }).click();
    await expect.poll(() => cards.first().innerText()).toBe('wonka Sweets');
    await page.getByRole('button', { name: 'Edit wonka Sweets' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Edit Client' }).isVisible()).toBe(true);
    await settledShot(page, 'clients-form-narrow');
    await context.close();
  });
});
