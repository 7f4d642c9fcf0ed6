import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { PRICING_MSG } from '../contract/pricing.ts';
import { SYSTEM_MSG, tenantDeleteConfirm, userDeleteConfirm } from '../contract/system.ts';
import { createSuperAdmin } from '../server/modules/users/admin.service.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { chromiumAvailable, launchBrowser, newPage, screenshot, startServer, type E2EServer } from './support.ts';

describe.skipIf(!chromiumAvailable())('system administration in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  const admin = { email: uniqueEmail('root'), password: 'root-pass-1' };

  /** Registers an owner and tenant through the real callable, over HTTP like the wizard. */
  async function registerOwner(tenantName: string, plan = 'trial') {
    const email = uniqueEmail('owner');
    const res = await fetch(`${server.url}/api/functions/registerUserWithTenant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ userData: { email, password: 'secret123', displayName: `${tenantName} Owner` }, tenantData: { name: tenantName, plan } }),
    });
    expect(res.status).toBe(200);
    return { email, ...((await res.json()) as { userId: string; tenantId: string }) };
  }

  /** Clients and alerts as their modules would store them. */
  async function seedTenantData(tenantId: string, clients: number, alerts: { priority: string; daysAgo: number }[]) {
    const db = server.deps.db as unknown as Kysely<any>;
    for (let i = 0; i < clients; i++) {
      const at = new Date().toISOString();
      const name = `Client ${i + 1}`;
      await db
        .insertInto('clients')
        .values({ id: randomUUID(), tenant_id: tenantId, name, name_lower: name.toLowerCase(), status: 'active', tags: '[]', custom_fields: '{}', search_text: name.toLowerCase(), created_by: 'seed', created_at: at, updated_at: at })
        .execute();
    }
    for (const a of alerts) {
      const at = new Date(Date.now() - a.daysAgo * 86_400_000).toISOString();
      await db
        .insertInto('alerts')
        .values({ id: randomUUID(), tenant_id: tenantId, title: 'Disk full', description: '', priority: a.priority, status: 'new', source: 'seed', search_text: 'disk full', created_at: at, updated_at: at, tags: '[]', metadata: '{}', last_seen_at: at })
        .execute();
    }
  }

  async function signInAsAdmin(page: Page, tab?: string) {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    // A super admin of no tenant lands on System Administration, not on an empty dashboard.
    await page.waitForURL('**/app/system-admin');
    await page.goto(`${server.url}/app/system-admin${tab ? `?tab=${tab}` : ''}`);
    await expect.poll(() => page.getByRole('heading', { name: 'System Administration' }).isVisible()).toBe(true);
  }

  const openTab = async (page: Page, name: string) => page.getByRole('tab', { name }).click();
  const tenantRow = (page: Page, name: string) => page.getByTestId('tenant-row').filter({ hasText: name });
  const userRow = (page: Page, email: string) => page.getByTestId('user-row').filter({ hasText: email });
  const pickOption = async (page: Page, label: string, option: string) => {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await createSuperAdmin(server.deps.db, { ...admin, displayName: 'Root Admin' });
    const north = await registerOwner('Northwind IT', 'growth');
    await seedTenantData(north.tenantId, 3, [
      { priority: 'critical', daysAgo: 0 },
      { priority: 'high', daysAgo: 0 },
      { priority: 'high', daysAgo: 2 },
      { priority: 'medium', daysAgo: 5 },
      { priority: 'low', daysAgo: 12 },
      { priority: 'info', daysAgo: 20 },
    ]);
    const baker = await registerOwner('Baker & Co. MSP', 'starter');
    await seedTenantData(baker.tenantId, 1, [
      { priority: 'critical', daysAgo: 1 },
      { priority: 'medium', daysAgo: 1 },
      { priority: 'medium', daysAgo: 8 },
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows every tab to a super admin with real figures, in both themes and on a phone', async () => {
    for (const [theme, width] of [
      ['light', 1366],
      ['dark', 1366],
      ['light', 390],
      ['dark', 390],
    ] as const) {
      const device = width === 390 ? 'phone' : 'desktop';
      const { context, page } = await newPage(browser, { theme, width, height: 900 });
      await signInAsAdmin(page);
      await expect.poll(() => tenantRow(page, 'Northwind IT').isVisible()).toBe(true);
      expect(await tenantRow(page, 'Northwind IT').getByTestId('tenant-users').innerText()).toBe('1 / 15');
      expect(await tenantRow(page, 'Northwind IT').getByTestId('tenant-clients').innerText()).toBe('3 / 25');
      expect(await tenantRow(page, 'Northwind IT').textContent()).toContain('Growth');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `system-admin-tenants-${theme}-${device}`);

      await openTab(page, 'Users');
      await expect.poll(() => userRow(page, admin.email).isVisible()).toBe(true);
      expect(await userRow(page, admin.email).textContent()).toContain('Super Admin');
      await screenshot(page, `system-admin-users-${theme}-${device}`);

      await openTab(page, 'Pricing Plans');
      await expect.poll(() => page.getByTestId('plan-card-trial').isVisible()).toBe(true);
      expect(await page.getByTestId('plan-card-trial').textContent()).toContain('Default');
      expect(await page.getByTestId('plan-card-trial').getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
      // The settings summary loads on its own (a busy machine shows "Loading..." a moment longer).
      await expect.poll(() => page.getByTestId('pricing-settings-summary').innerText()).toContain('USD');
      await screenshot(page, `system-admin-pricing-${theme}-${device}`);

      await openTab(page, 'Billing');
      await expect.poll(() => page.getByText('Billing management will be implemented in a future update.').isVisible()).toBe(true);

      await openTab(page, 'Analytics');
      await expect.poll(() => page.getByTestId('stat-Tenants').isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await page.getByTestId('stat-Tenants').innerText()).toBe('2');
      expect(await page.getByTestId('stat-Clients').innerText()).toBe('4');
      expect(await page.getByTestId('stat-Alerts (30 days)').innerText()).toBe('9');
      expect(await page.getByTestId('tenants-by-plan').innerText()).toMatch(/Growth\s+1/);
      await expect.poll(() => page.locator('[data-testid="alerts-per-day-chart"] svg .recharts-area').count()).toBeGreaterThan(0);
      await page.waitForTimeout(600); // let the chart's entry animation finish before the picture
      await screenshot(page, `system-admin-analytics-${theme}-${device}`);
      await context.close();
    }
  });

  it('adds a plan, makes it the default, and the home page moves the Most Popular badge', async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page, 'pricing');
    await page.getByRole('button', { name: 'Add Plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Plan' });
    await dialog.getByRole('button', { name: 'Add Plan' }).click();
    await expect.poll(() => dialog.getByText(PRICING_MSG.planNameRequired).isVisible()).toBe(true);
    expect(await dialog.getByText(PRICING_MSG.priceRequired).isVisible()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Enterprise');
    await dialog.getByRole('textbox', { name: 'Price', exact: true }).fill('$299/month');
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill('For large MSPs with many clients.');
    await dialog.getByLabel('Max users').fill('');
    await dialog.getByRole('button', { name: 'Add Plan' }).click();
    await expect.poll(() => dialog.getByText(PRICING_MSG.maxUsersPositive).isVisible()).toBe(true);
    await dialog.getByLabel('Max users').fill('60');
    await dialog.getByLabel('Max clients').fill('120');
    for (const f of ['Basic alerts', 'Email notifications', 'SMS notifications', 'Escalation policies', 'Custom integrations']) {
      await dialog.getByRole('checkbox', { name: `Include ${f}` }).check();
    }
    await page.screenshot({ path: `e2e/screenshots/system-admin-plan-dialog-light.png` }); // the dialog as seen, not the page under it
    await dialog.getByRole('button', { name: 'Add Plan' }).click();
    await expect.poll(() => page.getByTestId('plan-card-enterprise').isVisible()).toBe(true);
    expect(await page.getByTestId('plan-card-enterprise').innerText()).toContain('60 users · 120 clients');

    await page.getByTestId('plan-card-enterprise').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Plan: Enterprise' });
    await edit.getByRole('switch', { name: 'Default plan' }).check();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByTestId('plan-card-enterprise').textContent()).toContain('Default');
    expect(await page.getByTestId('plan-card-trial').textContent()).not.toContain('Default');
    expect(await page.getByTestId('plan-card-trial').getByRole('button', { name: 'Delete' }).isDisabled()).toBe(false);
    expect(await page.getByTestId('plan-card-enterprise').getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await screenshot(page, 'system-admin-pricing-new-default-light');

    const visitor = await newPage(browser, { width: 1366 });
    await visitor.page.goto(`${server.url}/`);
    await expect.poll(() => visitor.page.getByTestId('home-plan-enterprise').isVisible()).toBe(true);
    expect(await visitor.page.getByTestId('home-plan-enterprise').getByTestId('most-popular').count()).toBe(1);
    expect(await visitor.page.getByTestId('home-plan-trial').getByTestId('most-popular').count()).toBe(0);
    await screenshot(visitor.page, 'home-badge-moved-light');
    await visitor.context.close();

    // The default plan cannot be deleted; the old one now can.
    page.on('dialog', () => {});
    await page.getByTestId('plan-card-trial').getByRole('button', { name: 'Edit' }).click();
    const trial = page.getByRole('dialog', { name: 'Edit Plan: Trial' });
    await trial.getByRole('switch', { name: 'Default plan' }).check();
    await trial.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByTestId('plan-card-trial').textContent()).toContain('Default');
    await page.getByTestId('plan-card-enterprise').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Plan' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('plan-card-enterprise').count()).toBe(0);

    // Settings really save.
    await page.getByRole('button', { name: 'Edit Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Pricing Settings' });
    await settings.getByLabel('Currency').fill('EU');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => settings.getByText(PRICING_MSG.currencyInvalid).isVisible()).toBe(true);
    await settings.getByLabel('Currency').fill('eur');
    await settings.getByLabel('Yearly discount (%)').fill('20');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => page.getByTestId('pricing-settings-summary').innerText()).toContain('EUR');
    expect(await page.getByTestId('pricing-settings-summary').innerText()).toContain('20%');
    await context.close();
  });

  it('changes a tenant’s plan and its limits and features follow', async () => {
    const owner = await registerOwner('Riverside Clinic IT', 'trial');
    await seedTenantData(owner.tenantId, 2, []);
    const { context, page } = await newPage(browser, { width: 1280 });
    await signInAsAdmin(page);
    await expect.poll(() => tenantRow(page, 'Riverside Clinic IT').isVisible()).toBe(true);
    expect(await tenantRow(page, 'Riverside Clinic IT').getByTestId('tenant-users').innerText()).toBe('1 / 5');
    await tenantRow(page, 'Riverside Clinic IT').getByRole('button', { name: 'Edit Riverside Clinic IT' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Tenant' });
    await dialog.getByLabel('Tenant name').fill('');
    expect(await dialog.getByRole('button', { name: 'Save Changes' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Tenant name').fill('Riverside Clinic IT');
    await pickOption(page, 'Plan', 'Scale');
    await expect.poll(() => dialog.getByTestId('plan-change-note').innerText()).toContain('30 users and 50 clients');
    await page.screenshot({ path: `e2e/screenshots/system-admin-tenant-plan-change-light.png` }); // the dialog as seen, not the page under it
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => tenantRow(page, 'Riverside Clinic IT').getByTestId('tenant-users').innerText()).toBe('1 / 30');
    expect(await tenantRow(page, 'Riverside Clinic IT').getByTestId('tenant-clients').innerText()).toBe('2 / 50');
    const row = await server.deps.db.selectFrom('tenants').selectAll().where('id', '=', owner.tenantId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ plan: 'scale', max_users: 30, max_clients: 50 });
    expect(JSON.parse(row.features)).toContain('white_labeling');

    await tenantRow(page, 'Riverside Clinic IT').getByRole('button', { name: 'Edit Riverside Clinic IT' }).click();
    await pickOption(page, 'Plan', 'Starter');
    await page.getByRole('dialog', { name: 'Edit Tenant' }).getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => tenantRow(page, 'Riverside Clinic IT').getByTestId('tenant-users').innerText()).toBe('1 / 5');
    const after = await server.deps.db.selectFrom('tenants').selectAll().where('id', '=', owner.tenantId).executeTakeFirstOrThrow();
    expect(JSON.parse(after.features).sort()).toEqual(['basic_alerts', 'email_notifications']);
    await context.close();
  });

  it('adds, edits and deletes users and tenants with the spec’s confirmations', async () => {
    const { context, page } = await newPage(browser, { theme: 'dark' });
    await signInAsAdmin(page, 'users');
    await page.getByRole('button', { name: 'Add User' }).click();
    const add = page.getByRole('dialog', { name: 'Add User' });
    expect(await add.getByRole('button', { name: 'Add User' }).isDisabled()).toBe(true);
    const email = uniqueEmail('staff');
    await add.getByLabel('Email').fill(email);
    await pickOption(page, 'Role', 'Super Admin');
    await page.screenshot({ path: `e2e/screenshots/system-admin-add-user-dark.png` }); // the dialog as seen, not the page under it
    await add.getByRole('button', { name: 'Add User' }).click();
    await expect.poll(() => page.getByText(SYSTEM_MSG.setPasswordSent).isVisible()).toBe(true);
    await expect.poll(() => userRow(page, email).textContent()).toContain('Super Admin');
    expect(await userRow(page, email).innerText()).toContain('Password not set yet');
    expect(server.mailer.last(email).subject).toBe('Set your Alertdesk password');

    await userRow(page, email).getByRole('button', { name: `Edit ${email}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    expect(await edit.getByLabel('Email').isDisabled()).toBe(true);
    await pickOption(page, 'Role', 'User');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => userRow(page, email).getByText('Super Admin').count()).toBe(0);

    // Oneself: no delete, no role change.
    expect(await userRow(page, admin.email).getByRole('button', { name: `Delete ${admin.email}` }).isDisabled()).toBe(true);
    await userRow(page, admin.email).getByRole('button', { name: `Edit ${admin.email}` }).click();
    expect(await page.getByRole('dialog', { name: 'Edit User' }).getByRole('combobox', { name: 'Role' }).isDisabled()).toBe(true);
    await page.getByRole('dialog', { name: 'Edit User' }).getByRole('button', { name: 'Cancel' }).click();

    await userRow(page, email).getByRole('button', { name: `Delete ${email}` }).click();
    const confirmUser = page.getByRole('dialog', { name: 'Delete User' });
    expect(await confirmUser.innerText()).toContain(userDeleteConfirm(email));
    await confirmUser.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => userRow(page, email).count()).toBe(0);

    await openTab(page, 'Tenants');
    await page.getByRole('button', { name: 'Add Tenant' }).click();
    const addTenant = page.getByRole('dialog', { name: 'Add Tenant' });
    expect(await addTenant.getByRole('button', { name: 'Add Tenant' }).isDisabled()).toBe(true);
    await addTenant.getByLabel('Tenant name').fill('Short-lived MSP');
    await pickOption(page, 'Plan', 'Growth');
    await addTenant.getByRole('button', { name: 'Add Tenant' }).click();
    await expect.poll(() => tenantRow(page, 'Short-lived MSP').getByTestId('tenant-users').isVisible()).toBe(true);
    expect(await tenantRow(page, 'Short-lived MSP').getByTestId('tenant-users').innerText()).toBe('0 / 15');
    await tenantRow(page, 'Short-lived MSP').getByRole('button', { name: 'Delete Short-lived MSP' }).click();
    const confirmTenant = page.getByRole('dialog', { name: 'Delete Tenant' });
    expect(await confirmTenant.innerText()).toContain(tenantDeleteConfirm('Short-lived MSP'));
    expect(tenantDeleteConfirm('Short-lived MSP')).toBe('Are you sure you want to delete Short-lived MSP? This action cannot be undone.');
    await page.screenshot({ path: `e2e/screenshots/system-admin-delete-tenant-dark.png` }); // the dialog as seen, not the page under it
    await confirmTenant.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => tenantRow(page, 'Short-lived MSP').count()).toBe(0);
    await context.close();
  });

  it('shows the spec’s error texts when loading or saving fails', async () => {
    const { context, page } = await newPage(browser);
    const fail = (pattern: string, method?: string) =>
      page.route(pattern, (route) =>
        method && route.request().method() !== method
          ? route.fallback()
          : route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"Internal server error"}}' }),
      );
    await signInAsAdmin(page);
    await expect.poll(() => tenantRow(page, 'Northwind IT').isVisible()).toBe(true);

    await fail('**/api/tenants/*', 'PUT');
    await tenantRow(page, 'Northwind IT').getByRole('button', { name: 'Edit Northwind IT' }).click();
    await page.getByRole('dialog', { name: 'Edit Tenant' }).getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.tenantUpdateFailed);
    await page.getByRole('dialog', { name: 'Edit Tenant' }).getByRole('button', { name: 'Cancel' }).click();

    await fail('**/api/tenants/*', 'DELETE');
    await tenantRow(page, 'Northwind IT').getByRole('button', { name: 'Delete Northwind IT' }).click();
    await page.getByRole('dialog', { name: 'Delete Tenant' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.tenantDeleteFailed);
    await page.getByRole('dialog', { name: 'Delete Tenant' }).getByRole('button', { name: 'Cancel' }).click();

    await fail('**/api/tenants', 'POST');
    await page.getByRole('button', { name: 'Add Tenant' }).click();
    await page.getByRole('dialog', { name: 'Add Tenant' }).getByLabel('Tenant name').fill('Never MSP');
    await page.getByRole('dialog', { name: 'Add Tenant' }).getByRole('button', { name: 'Add Tenant' }).click();
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.tenantAddFailed);
    await page.getByRole('dialog', { name: 'Add Tenant' }).getByRole('button', { name: 'Cancel' }).click();

    await fail('**/api/users', 'POST');
    await fail('**/api/users/*', 'PUT');
    await fail('**/api/users/*', 'DELETE');
    await openTab(page, 'Users');
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('dialog', { name: 'Add User' }).getByLabel('Email').fill(uniqueEmail('nope'));
    await page.getByRole('dialog', { name: 'Add User' }).getByRole('button', { name: 'Add User' }).click();
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.systemUserAddFailed);
    await page.getByRole('dialog', { name: 'Add User' }).getByRole('button', { name: 'Cancel' }).click();
    const someone = page.getByTestId('user-row').filter({ hasNotText: admin.email }).first();
    await someone.getByRole('button', { name: /^Edit / }).click();
    await page.getByRole('dialog', { name: 'Edit User' }).getByRole('button', { name: 'Save Changes' }).click();
    // Same role: nothing to save is still a request; the failure reads as the spec says.
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.systemUserRoleFailed);
    await page.getByRole('dialog', { name: 'Edit User' }).getByRole('button', { name: 'Cancel' }).click();
    await someone.getByRole('button', { name: /^Delete / }).click();
    await page.getByRole('dialog', { name: 'Delete User' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.systemUserDeleteFailed);
    await page.getByRole('dialog', { name: 'Delete User' }).getByRole('button', { name: 'Cancel' }).click();

    await fail('**/api/pricingPlans', 'POST');
    await fail('**/api/pricingPlans/*', 'DELETE');
    await fail('**/api/settings/pricing', 'PUT');
    await openTab(page, 'Pricing Plans');
    await page.getByRole('button', { name: 'Add Plan' }).click();
    const addPlan = page.getByRole('dialog', { name: 'Add Plan' });
    await addPlan.getByRole('textbox', { name: 'Name', exact: true }).fill('Never');
    await addPlan.getByRole('textbox', { name: 'Price', exact: true }).fill('$1');
    await addPlan.getByRole('button', { name: 'Add Plan' }).click();
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.pricingSaveFailed);
    await addPlan.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('plan-card-scale').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Plan' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.pricingDeleteFailed);
    await page.getByRole('dialog', { name: 'Delete Plan' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit Settings' }).click();
    await page.getByRole('dialog', { name: 'Pricing Settings' }).getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => page.getByTestId('failure-alert').innerText()).toContain(MSG.pricingSettingsFailed);
    await page.getByRole('dialog', { name: 'Pricing Settings' }).getByRole('button', { name: 'Cancel' }).click();

    // Loading failures, and Retry on the pricing tab.
    await fail('**/api/pricingPlans', 'GET');
    await fail('**/api/tenants?*', 'GET');
    await fail('**/api/users?*', 'GET');
    await page.goto(`${server.url}/app/system-admin?tab=pricing`);
    await expect.poll(() => page.getByText(MSG.pricingLoadFailed, { exact: true }).isVisible(), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'system-admin-pricing-error-light');
    await page.unroute('**/api/pricingPlans');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.getByTestId('plan-card-trial').isVisible()).toBe(true);
    await openTab(page, 'Tenants');
    await expect.poll(() => page.getByText(MSG.tenantsLoadFailed).isVisible(), { timeout: 20_000 }).toBe(true);
    await openTab(page, 'Users');
    await expect.poll(() => page.getByText(MSG.systemUsersLoadFailed).isVisible(), { timeout: 20_000 }).toBe(true);
    await context.close();
  });
});
