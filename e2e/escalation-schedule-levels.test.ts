import { describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ESCALATION_MSG } from '../contract/escalation.ts';
import { MSG } from '../contract/messages.ts';
import { SCHEDULE_MSG } from '../contract/schedules.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { addMember, chromiumAvailable, registerThroughWizard, screenshot, settledShot, signIn, withServerAndBrowser, type E2EServer } from './support.ts';

const SCHEDULES_URL = '/app/escalation-policies?tab=schedules';
const POLICIES_URL = '/app/escalation-policies';

/** A page whose browser runs in New York (the schedules below are in Berlin: the override form shows both clocks). */
async function newYorkPage(browser: Browser, opts: { theme?: 'light' | 'dark'; width?: number } = {}) {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 844 }, colorScheme: opts.theme ?? 'light', timezoneId: 'America/New_York' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Picks an option of a MultiSelect inside `scope`, found by its label. */
async function pick(page: Page, scope: ReturnType<Page['getByTestId']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

// Issue 27: a level that pages "whoever is on call on schedule X" alone, its secondary only when it says so; a schedule
// without an end; overrides entered in the schedule's own zone.
describe.skipIf(!chromiumAvailable())('escalation levels that page the schedule, in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => {
    server = s;
    browser = b;
    vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 100 } } });
  });

  it('builds a schedule with no end, an override in its zone, and a policy whose level 1 is that schedule alone', async () => {
    const { context, page } = await newYorkPage(browser);
    const account = await registerThroughWizard(page, server.url, { name: 'Olga Owner', email: uniqueEmail('schedlevel'), org: 'Rota MSP' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    await addMember(server, tenantId, 'Mia Member');
    await addMember(server, tenantId, 'Ben Backup');

    // A schedule in Berlin with no end: Mia on call, Ben her backup, every day.
    await page.goto(`${server.url}${SCHEDULES_URL}`);
    await page.getByRole('button', { name: 'Create Schedule' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create Schedule' });
    await form.getByLabel(/^Name/).fill('Berlin rota');
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByRole('listbox').getByRole('option', { name: 'Europe/Berlin' }).click();
    await form.getByLabel(SCHEDULE_MSG.noEnd).check();
    expect(await form.getByLabel('End date').isDisabled()).toBe(true);
    const sunday = form.getByTestId('day-0');
    await sunday.getByLabel('Primary').selectOption({ label: 'Mia Member' });
    await sunday.getByLabel('Secondary').selectOption({ label: 'Ben Backup' });
    await sunday.getByRole('button', { name: 'Copy to all days' }).click();
    await settledShot(page, 'schedule-no-end-form-light');
    await form.getByRole('button', { name: 'Create Schedule' }).click();
    await expect.poll(() => form.isVisible()).toBe(false);
    const card = page.getByTestId('schedule-card').filter({ hasText: 'Berlin rota' });
    await expect.poll(() => card.innerText()).toContain(`– ${SCHEDULE_MSG.noEnd.toLowerCase()}`);
    const list = await (await page.request.get(`${server.url}/api/tenants/${tenantId}/onCallSchedules`)).json();
    const schedule = list.items.find((s: { name: string }) => s.name === 'Berlin rota');
    expect(schedule.endTime).toBeNull();
    // The edit form opens with "No end" ticked.
    await card.getByRole('button', { name: 'Edit Berlin rota' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Schedule' });
    expect(await edit.getByLabel(SCHEDULE_MSG.noEnd).isChecked()).toBe(true);
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // An override typed in Berlin time, labelled so, with the New York viewer's own time beside it.
    await card.getByRole('button', { name: 'Timeline and overrides' }).click();
    await card.getByTestId('schedule-timeline').getByRole('button', { name: 'Add override' }).click();
    const ov = page.getByRole('dialog', { name: /Add override/ });
    await ov.getByLabel('Person replaced').selectOption({ label: 'Mia Member' });
    await ov.getByLabel('Covered by').selectOption({ label: 'Ben Backup' });
    await ov.getByLabel('From (Europe/Berlin)').fill('2027-01-10T09:00');
    await ov.getByLabel('Until (Europe/Berlin)').fill('2027-01-10T17:00');
    await expect.poll(() => ov.getByText('Your time: Sun 10 Jan, 03:00').isVisible()).toBe(true);
    expect(await ov.getByText('Your time: Sun 10 Jan, 11:00').isVisible()).toBe(true);
    await settledShot(page, 'schedule-override-zone-light');
    await ov.getByRole('button', { name: 'Add override' }).click();
    await expect.poll(() => ov.isVisible()).toBe(false);
    const row = await server.deps.db.selectFrom('oncall_overrides').select(['starts_at', 'ends_at']).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    expect(row).toEqual({ starts_at: '2027-01-10T08:00:00.000Z', ends_at: '2027-01-10T16:00:00.000Z' });
    await expect.poll(() => card.getByTestId('override-times').innerText()).toBe('Sun 10 Jan, 09:00 – Sun 10 Jan, 17:00 (Europe/Berlin)');
    expect(await card.getByTestId('override-times-local').innerText()).toBe('your time: Sun 10 Jan, 03:00 – Sun 10 Jan, 11:00');
    await screenshot(page, 'schedule-override-zone-list-light');

    // A policy: level 1 with neither a user nor a schedule keeps the spec's text; the schedule alone is enough.
    await page.goto(`${server.url}${POLICIES_URL}`);
    await page.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Policy' });
    await dialog.getByLabel(/^Policy name/).fill('Whoever is on call');
    await dialog.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    await expect.poll(() => dialog.getByText(MSG.level1UserRequired).isVisible()).toBe(true);
    const level1 = dialog.getByTestId('policy-form-level_1');
    expect(await level1.getByTestId('policy-notify-level_1').count()).toBe(0);
    await pick(page, level1, 'On-call schedules', 'Berlin rota');
    await expect.poll(() => dialog.getByText(MSG.level1UserRequired).count()).toBe(0);
    // Whom it pages there: the primary unless said otherwise.
    const notify = level1.getByTestId('policy-notify-level_1');
    expect(await notify.getByLabel('Primary only').isChecked()).toBe(true);
    await notify.getByLabel('Primary and secondary').check();
    await settledShot(page, 'escalation-schedule-level-form-light');
    await dialog.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    await expect.poll(() => page.getByText(ESCALATION_MSG.created).isVisible()).toBe(true);
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const policyCard = page.getByTestId('policy-card').filter({ hasText: 'Whoever is on call' });
    await expect.poll(() => policyCard.getByTestId('policy-level_1').getByTestId('policy-level-schedules').innerText()).toBe('On call from: Berlin rota (primary and secondary)');
    expect(await policyCard.getByTestId('policy-level_1').getByTestId('policy-level-users').count()).toBe(0);
    const stored = await server.deps.db.selectFrom('escalation_policies').select('level_1').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.level_1)).toEqual({ userIds: [], scheduleIds: [schedule.id], notify: 'primary_and_secondary', notificationChannels: ['email', 'push'] });
    await screenshot(page, 'escalation-schedule-level-light');
    await context.close();

    // Dark theme and a phone: the form with the schedule's choice fits.
    for (const [theme, width, name] of [
      ['dark', 1280, 'escalation-schedule-level-form-dark'],
      ['light', 390, 'escalation-schedule-level-form-phone'],
    ] as const) {
      const other = await newYorkPage(browser, { theme, width });
      await signIn(other.page, server.url, account.email, account.password);
      await other.page.goto(`${server.url}${POLICIES_URL}`);
      await other.page.getByRole('button', { name: 'Edit Whoever is on call' }).click();
      const f = other.page.getByRole('dialog', { name: 'Edit Policy' });
      const choice = f.getByTestId('policy-notify-level_1');
      await expect.poll(() => choice.getByLabel('Primary and secondary').isChecked()).toBe(true);
      await choice.scrollIntoViewIfNeeded();
      expect(await f.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      await settledShot(other.page, name);
      await other.context.close();
    }
  });
});
