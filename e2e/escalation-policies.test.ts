import { describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ESCALATION_MSG, ESCALATION_TIMING_HELP } from '../contract/escalation.ts';
import { MSG } from '../contract/messages.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, withServerAndBrowser, type E2EServer, signIn, settledShot, addMember } from './support.ts';

/** A required field's label: Mantine adds a ' *' that getByLabel reads as part of the text. */
const REQUIRED = (label: string) => new RegExp(`^${label}( \\*)?$`);
const LIST_URL = /\/api\/tenants\/[^/]+\/escalationPolicies$/;
const ONE_URL = /\/api\/tenants\/[^/]+\/escalationPolicies\/[^/?]+$/;



/** Picks an option of a MultiSelect inside `scope`, found by its label. */
async function pick(page: Page, scope: ReturnType<Page['getByTestId']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

const cardNames = (page: Page) => page.getByTestId('policy-name').allInnerTexts();

describe.skipIf(!chromiumAvailable())('escalation policies in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let account: { email: string; password: string };
  let tenantId: string;
  let memberId: string;
  withServerAndBrowser((s, b) => {
    server = s;
    browser = b;
    vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 100 } } });
  });

  it('creates a policy with a member at level 1, shows its card, edits it and deletes the default with a warning', async () => {
    const { context, page } = await newPage(browser);
    account = await registerThroughWizard(page, server.url, { name: 'Olga Owner', email: uniqueEmail('escalation'), org: 'Escalation MSP' });
    const row = await server.deps.db.selectFrom('tenant_members').innerJoin('users', 'users.id', 'tenant_members.user_id').select('tenant_id').where('users.email', '=', account.email).executeTakeFirstOrThrow();
    tenantId = row.tenant_id;
    memberId = (await addMember(server, tenantId, 'Mia Member')).id;

    await page.getByRole('link', { name: 'Escalation Policies' }).click();
    await page.waitForURL('**/app/escalation-policies');
    await expect.poll(() => page.getByTestId('policies-empty').innerText()).toBe(MSG.noEscalationPolicies);
    await screenshot(page, 'escalation-policies-empty-light');

    await page.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Policy' });
    // The timing rules are explained where the times are set.
    for (const line of ESCALATION_TIMING_HELP) await expect.poll(() => dialog.getByText(line).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    await expect.poll(() => dialog.getByText(MSG.policyNameRequired).isVisible()).toBe(true);
    expect(await dialog.getByText(MSG.level1UserRequired).isVisible()).toBe(true);
    await dialog.getByLabel(REQUIRED('Policy name')).fill('Business hours');
    await expect.poll(() => dialog.getByText(MSG.policyNameRequired).count()).toBe(0);
    await dialog.getByLabel('Description').fill('Daytime paging for the NOC');
    await pick(page, dialog.getByTestId('policy-form-level_1'), 'Users', 'Mia Member');
    await expect.poll(() => dialog.getByText(MSG.level1UserRequired).count()).toBe(0);
    await pick(page, dialog.getByTestId('policy-form-level_2'), 'Users', 'Olga Owner');
    await dialog.getByLabel('Critical').fill('10');
    // Cleared, Low becomes 0: no target (spec section 5's coercion).
    await dialog.getByLabel('Low').fill('');
    await dialog.getByTestId('policy-form-level_3').getByLabel('SMS').uncheck();
    await dialog.getByTestId('policy-form-level_3').getByLabel('Minutes after Level 2').fill('90');
    // The first policy of a tenant is offered as its default.
    expect(await dialog.getByLabel('Default policy').isChecked()).toBe(true);
    await settledShot(page, 'escalation-policy-form-light');
    await dialog.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    await expect.poll(() => page.getByText(ESCALATION_MSG.created).isVisible()).toBe(true);
    await expect.poll(() => dialog.isVisible()).toBe(false);

    const card = page.getByTestId('policy-card');
    await expect.poll(() => cardNames(page)).toEqual(['Business hours']);
    expect(await card.getByTestId('policy-default-badge').innerText()).toMatch(/default/i);
    expect(await card.getByText('Daytime paging for the NOC').isVisible()).toBe(true);
    expect(await card.getByTestId('policy-time-critical').innerText()).toBe('10 min');
    expect(await card.getByTestId('policy-time-high').innerText()).toBe('30 min');
    expect(await card.getByTestId('policy-time-low').innerText()).toBe(ESCALATION_MSG.noTarget);
    expect(await card.getByTestId('policy-time-info').innerText()).toBe(ESCALATION_MSG.noTarget);
    expect(await card.getByTestId('policy-level_1').getByTestId('policy-level-users').innerText()).toBe('Mia Member');
    expect(await card.getByTestId('policy-level_2').getByTestId('policy-level-users').innerText()).toBe('Olga Owner');
    expect(await card.getByTestId('policy-level_3').getByTestId('policy-level-users').innerText()).toBe(MSG.noUsersAssigned);
    expect(await card.getByTestId('policy-level_3').innerText()).toContain('90 min after Level 2');
    const stored = await server.deps.db.selectFrom('escalation_policies').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.escalation_times)).toEqual({ critical: 10, high: 30, medium: 60, low: 0, info: null });
    expect(JSON.parse(stored.level_1)).toEqual({ userIds: [memberId], scheduleIds: [], notify: 'primary', notificationChannels: ['email', 'push'] });
    expect(JSON.parse(stored.level_3)).toMatchObject({ timeAfterPrevious: 90, notificationChannels: ['email', 'push'] });
    expect(stored.is_default).toBe(1);
    await screenshot(page, 'escalation-policies-light');

    // Edit: the form starts from the policy's values.
    await page.getByRole('button', { name: 'Edit Business hours' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Policy' });
    expect(await edit.getByLabel(REQUIRED('Policy name')).inputValue()).toBe('Business hours');
    expect(await edit.getByLabel('Critical').inputValue()).toBe('10');
    await edit.getByLabel(REQUIRED('Policy name')).fill('Around the clock');
    await edit.getByLabel('Info').fill('480');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByText(ESCALATION_MSG.updated).isVisible()).toBe(true);
    await expect.poll(() => cardNames(page)).toEqual(['Around the clock']);
    expect(await card.getByTestId('policy-time-info').innerText()).toBe('480 min');

    // A client can route its alerts to the policy (the client form's "Escalation policy" select).
    await page.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('button', { name: 'Add Client' }).first().click();
    const addClient = page.getByRole('dialog', { name: 'Add Client' });
    await addClient.getByLabel(REQUIRED('Name')).fill('Initech');
    await addClient.getByRole('combobox', { name: ESCALATION_MSG.selectLabel }).click();
    await page.getByRole('option', { name: 'Around the clock (default)', exact: true }).click();
    await settledShot(page, 'escalation-client-policy-select-light');
    await addClient.getByRole('button', { name: 'Add Client' }).click();
    await expect.poll(() => addClient.isVisible()).toBe(false);
    const policyOfClient = async () =>
      (await server.deps.db.selectFrom('clients').select('escalation_policy_id').where('tenant_id', '=', tenantId).executeTakeFirst())?.escalation_policy_id;
    await expect.poll(policyOfClient).toBe(stored.id);
    await page.getByRole('link', { name: 'Escalation Policies' }).click();

    // A person who left the tenant shows as 'Unknown User'.
    await server.deps.db.deleteFrom('tenant_members').where('tenant_id', '=', tenantId).where('user_id', '=', memberId).execute();
    await page.reload();
    await expect.poll(() => card.getByTestId('policy-level_1').getByTestId('policy-level-users').innerText()).toBe(MSG.unknownUser);

    // Delete: the confirmation warns that this is the default.
    await page.getByRole('button', { name: 'Delete Around the clock' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Policy' });
    await expect.poll(() => confirm.getByText(ESCALATION_MSG.deleteConfirm('Around the clock')).isVisible()).toBe(true);
    expect(await confirm.getByTestId('policy-delete-default-warning').innerText()).toBe(ESCALATION_MSG.deleteDefaultWarning);
    await settledShot(page, 'escalation-policy-delete-light');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText(ESCALATION_MSG.deleted).isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('policies-empty').isVisible()).toBe(true);
    expect(await server.deps.db.selectFrom('escalation_policies').select('id').where('tenant_id', '=', tenantId).execute()).toEqual([]);
    // The client no longer names it.
    expect(await policyOfClient()).toBeNull();
    await context.close();
  });

  it('shows the spec’s error texts when a call fails', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, server.url, account.email, account.password);
    await page.goto(`${server.url}/app/escalation-policies`);
    await expect.poll(() => page.getByTestId('policies-empty').isVisible()).toBe(true);

    await page.route(LIST_URL, (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 500, body: '{}' }) : route.fallback()));
    await page.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Policy' });
    await dialog.getByLabel(REQUIRED('Policy name')).fill('Will fail');
    await pick(page, dialog.getByTestId('policy-form-level_1'), 'Users', 'Olga Owner');
    // Not the default this time: its delete confirmation has no warning.
    await dialog.getByLabel('Default policy').click({ force: true });
    expect(await dialog.getByLabel('Default policy').isChecked()).toBe(false);
    await dialog.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    await expect.poll(() => dialog.getByTestId('failure-alert').innerText()).toContain(MSG.policyCreateFailed);
    await page.unroute(LIST_URL);
    await dialog.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    await expect.poll(() => cardNames(page)).toEqual(['Will fail']);

    await page.route(ONE_URL, (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.getByRole('button', { name: 'Edit Will fail' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Policy' });
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.getByTestId('failure-alert').innerText()).toContain(MSG.policyUpdateFailed);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete Will fail' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Policy' });
    expect(await confirm.getByTestId('policy-delete-default-warning').count()).toBe(0);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => confirm.getByTestId('failure-alert').innerText()).toContain(MSG.policyDeleteFailed);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.unroute(ONE_URL);

    await page.route(LIST_URL, (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.reload();
    // The list query retries with back-off before it gives up.
    await expect.poll(() => page.getByText(MSG.escalationLoadFailed).isVisible(), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'escalation-policies-load-error-light');
    await page.unroute(LIST_URL);
    await page.getByText('Retry').click();
    await expect.poll(() => cardNames(page)).toEqual(['Will fail']);
    await context.close();
  });

  it('looks right in the dark theme and on a 390 px wide phone', async () => {
    // Two policies, one the default, with people at every level.
    const owner = await server.deps.db.selectFrom('users').select('id').where('email', '=', account.email).executeTakeFirstOrThrow();
    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, account.email, account.password);
    await dark.page.evaluate(
      async ({ tenant, user }) => {
        const post = async (path: string, b: unknown) => {
          const res = await fetch(`/api/tenants/${tenant}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
          if (res.status !== 201) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
          return res.json();
        };
        const rotations = Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, [{ startHour: 0, endHour: 24, primaryOnCall: user }]]));
        const schedule = await post('onCallSchedules', { name: 'Ops rota', startTime: '2026-01-01', endTime: '2026-12-31', rotations });
        const body = (name: string, isDefault: boolean) => ({
          name,
          description: `${name}: pages the on-call engineer first, then the team lead, then the service owner.`,
          isDefault,
          level_1: { userIds: [user] },
          level_2: { userIds: [user], scheduleIds: [schedule.id] },
          level_3: { userIds: [user], timeAfterPrevious: 120 },
        });
        for (const b of [body('Night shift with a rather long policy name', true), body('Backups', false)]) await post('escalationPolicies', b);
      },
      { tenant: tenantId, user: owner.id },
    );
    await dark.page.goto(`${server.url}/app/escalation-policies`);
    await expect.poll(() => cardNames(dark.page)).toEqual(['Night shift with a rather long policy name', 'Backups', 'Will fail']);
    expect(await dark.page.getByTestId('policy-card').first().getByTestId('policy-level_2').innerText()).toContain('On call from: Ops rota');
    await screenshot(dark.page, 'escalation-policies-dark');
    await dark.page.getByRole('button', { name: 'Edit Backups' }).click();
    const edit = dark.page.getByRole('dialog', { name: 'Edit Policy' });
    await edit.getByLabel(REQUIRED('Policy name')).fill('');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.getByText(MSG.policyNameRequired).isVisible()).toBe(true);
    await settledShot(dark.page, 'escalation-policy-form-dark');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // An integration can route its alerts to a policy (the integration form's "Escalation policy" select).
    await dark.page.goto(`${server.url}/app/tenant-admin?tab=integrations`);
    await dark.page.getByRole('button', { name: 'New integration' }).click();
    const integrationForm = dark.page.getByTestId('integration-form');
    await integrationForm.getByLabel('Name').fill('Prometheus');
    await integrationForm.getByRole('combobox', { name: ESCALATION_MSG.selectLabel }).click();
    await dark.page.getByRole('option', { name: 'Backups', exact: true }).click();
    await settledShot(dark.page, 'escalation-integration-policy-select-dark');
    await integrationForm.getByRole('button', { name: 'Create integration' }).click();
    const backups = await server.deps.db.selectFrom('escalation_policies').select('id').where('tenant_id', '=', tenantId).where('name', '=', 'Backups').executeTakeFirstOrThrow();
    const policyOfIntegration = async () =>
      (await server.deps.db.selectFrom('integrations').select('escalation_policy_id').where('tenant_id', '=', tenantId).executeTakeFirst())?.escalation_policy_id;
    await expect.poll(policyOfIntegration).toBe(backups.id);
    // Its card says who is paged for it (after the key-reveal dialog is closed).
    await dark.page.keyboard.press('Escape');
    await expect.poll(() => dark.page.getByTestId('integration-policy').innerText()).toBe('Escalation: Backups');
    await dark.context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, account.email, account.password);
    await phone.page.goto(`${server.url}/app/escalation-policies`);
    await expect.poll(() => cardNames(phone.page).then((n) => n.length)).toBe(3);
    // Nothing sticks out sideways.
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone.page, 'escalation-policies-narrow');
    await phone.page.getByRole('button', { name: 'Edit Backups' }).click();
    const form = phone.page.getByRole('dialog', { name: 'Edit Policy' });
    await expect.poll(() => form.isVisible()).toBe(true);
    expect(await form.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await settledShot(phone.page, 'escalation-policy-form-narrow');
    await phone.context.close();
  });
});
