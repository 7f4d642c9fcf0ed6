import { describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, withServerAndBrowser, type E2EServer, signIn, settledShot } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { insertMember } from '../server/modules/members/members.repository.ts';
import { hashPassword } from '../server/lib/password.ts';

const PASSWORD = 'secret123';

const SCHEDULES_URL = '/app/escalation-policies?tab=schedules';



/** Another person with an account, made an active member of the tenant (as an accepted invitation would). */
async function addPerson(server: E2EServer, tenantId: string, displayName: string) {
  const at = new Date().toISOString();
  const id = randomUUID();
  const email = uniqueEmail('person');
  await server.deps.db
    .insertInto('users')
    .values({ id, email, display_name: displayName, password_hash: await hashPassword(PASSWORD), role: 'user', plan: null, oidc_subject: null, created_at: at, updated_at: at, last_sign_in_at: null })
    .execute();
  await insertMember(server.deps.db, { id: randomUUID(), tenant_id: tenantId, user_id: id, email, display_name: displayName, role: 'user', status: 'active', joined_at: at, invited_by: null, created_at: at });
  return { id, email };
}

describe.skipIf(!chromiumAvailable())('on-call schedules in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => {
    server = s;
    browser = b;
    vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 100 } } });
  });

  it('creates a schedule with two shifts a day, shows who is on call, adds an override and sees the timeline change', async () => {
    const { context, page } = await newPage(browser);
    const account = await registerThroughWizard(page, server.url, { name: 'Olivia Owner', email: uniqueEmail('sched'), org: 'Schedule MSP' });
    const { tenant_id: tenantId } = await server.deps.db
      .selectFrom('tenant_members')
      .select('tenant_id')
      .innerJoin('users', 'users.id', 'tenant_members.user_id')
      .where('users.email', '=', account.email)
      .executeTakeFirstOrThrow();
    const ben = await addPerson(server, tenantId, 'Ben Backup');
    await addPerson(server, tenantId, 'Carla Cover');

    await page.goto(`${server.url}${SCHEDULES_URL}`);
    await expect.poll(() => page.getByText(MSG.noSchedules).isVisible()).toBe(true);
    await screenshot(page, 'schedules-empty-light');

    // The modal: spec texts first, in the spec's order.
    await page.getByRole('button', { name: 'Create Schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Schedule' });
    await dialog.getByRole('button', { name: 'Create Schedule' }).click();
    await expect.poll(() => dialog.getByTestId('schedule-form-error').innerText()).toBe(MSG.scheduleNameRequired);
    await dialog.getByLabel(/^Name/).fill('Follow the sun');
    await dialog.getByRole('button', { name: 'Create Schedule' }).click();
    await expect.poll(() => dialog.getByTestId('schedule-form-error').innerText()).toBe('Primary on-call is required for all shifts on Sunday');

    // Sunday: two shifts (adding one to a full day makes room for it: 12 AM – 4 PM and 4 PM – 12 AM), then every day.
    const sunday = dialog.getByTestId('day-0');
    await sunday.getByRole('button', { name: 'Add shift' }).click();
    const shifts = sunday.getByTestId('shift-row');
    await expect.poll(() => shifts.count()).toBe(2);
    await shifts.nth(0).getByLabel('Primary').selectOption({ label: 'Olivia Owner' });
    await shifts.nth(0).getByLabel('Secondary').selectOption({ label: 'Ben Backup' });
    await shifts.nth(1).getByLabel('Primary').selectOption({ label: 'Ben Backup' });
    await sunday.getByRole('button', { name: 'Copy to all days' }).click();
    await expect.poll(() => dialog.getByTestId('shift-row').count()).toBe(14);
    await dialog.getByLabel('Default schedule').check();
    await settledShot(page, 'schedules-form-light');
    await dialog.getByRole('button', { name: 'Create Schedule' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // The card: name, Default, every weekday's two shifts in 12-hour format, and who is on call now.
    const card = page.getByTestId('schedule-card');
    await expect.poll(() => card.getByTestId('schedule-name').innerText()).toBe('Follow the sun');
    await expect.poll(() => card.getByText('Default', { exact: true }).isVisible()).toBe(true);
    const weekly = await card.getByTestId('weekly-shifts').innerText();
    expect(weekly).toContain('Saturday');
    expect(weekly).toContain('12 AM – 4 PM Olivia Owner (backup Ben Backup)');
    expect(weekly).toContain('4 PM – 12 AM Ben Backup');
    // The browser runs in the server's zone, which the form proposed: who is on call follows the clock there.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
    const onNow = hour < 16 ? 'Olivia Owner' : 'Ben Backup';
    await expect.poll(() => card.getByTestId('on-call-primary').innerText()).toContain(onNow);
    await expect.poll(() => card.getByTestId('next-handover').isVisible()).toBe(true);
    await screenshot(page, 'schedules-list-light');

    // Timeline, then an override: Carla covers for whoever is on call now, for the next hours.
    await card.getByRole('button', { name: 'Timeline and overrides' }).click();
    const timeline = card.getByTestId('schedule-timeline');
    await expect.poll(() => timeline.getByTestId('timeline-shift').count()).toBeGreaterThan(10);
    expect(await timeline.getByTestId('timeline-override').count()).toBe(0);
    await timeline.getByRole('button', { name: 'Add override' }).click();
    const ov = page.getByRole('dialog', { name: /Add override/ });
    await ov.getByLabel('Person replaced').selectOption({ label: onNow });
    await ov.getByLabel('Covered by').selectOption({ label: 'Carla Cover' });
    await ov.getByLabel('Note').fill('Sick swap');
    await settledShot(page, 'schedules-override-light');
    await ov.getByRole('button', { name: 'Add override' }).click();
    await expect.poll(() => ov.isVisible()).toBe(false);
    await expect.poll(() => timeline.getByTestId('timeline-override').count()).toBeGreaterThan(0);
    expect(await timeline.getByTestId('timeline-override').first().getAttribute('data-label')).toContain('Carla Cover');
    await expect.poll(() => timeline.getByTestId('override-row').innerText()).toContain(`Carla Cover covers for ${onNow}`);
    await expect.poll(() => card.getByTestId('on-call-primary').innerText()).toContain('Carla Cover');
    await screenshot(page, 'schedules-timeline-light');

    // Delete confirmation warns about the default (cancelled).
    await card.getByRole('button', { name: 'Delete Follow the sun' }).click();
    const del = page.getByRole('dialog', { name: 'Delete Schedule' });
    await expect.poll(() => del.getByTestId('default-warning').isVisible()).toBe(true);
    await settledShot(page, 'schedules-delete-light');
    await del.getByRole('button', { name: 'Cancel' }).click();

    // My on-call in the profile, and its calendar feed.
    await page.goto(`${server.url}/app/profile`);
    const mine = page.getByTestId('my-oncall');
    await expect.poll(() => mine.getByTestId('my-shift').count()).toBeGreaterThan(0);
    await mine.getByRole('button', { name: 'Create calendar link' }).click();
    await expect.poll(() => mine.getByTestId('feed-url').inputValue()).toMatch(/\/api\/calendarFeeds\/.+\.ics$/);
    const feedUrl = await mine.getByTestId('feed-url').inputValue();
    const ics = await (await context.request.get(feedUrl)).text();
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toContain('SUMMARY:On call (primary): Follow the sun');
    await screenshot(page, 'profile-my-oncall-light');
    await context.close();

    // Dark theme and a phone.
    for (const [theme, width, name] of [
      ['dark', 1280, 'schedules-list-dark'],
      ['light', 390, 'schedules-list-phone'],
    ] as const) {
      const other = await newPage(browser, { theme, width, height: 844 });
      await signIn(other.page, server.url, account.email, account.password);
      await other.page.goto(`${server.url}${SCHEDULES_URL}`);
      const c = other.page.getByTestId('schedule-card');
      await expect.poll(() => c.getByTestId('on-call-primary').innerText()).toContain('Carla Cover');
      await c.getByRole('button', { name: 'Timeline and overrides' }).click();
      await expect.poll(() => c.getByTestId('timeline-override').count()).toBeGreaterThan(0);
      await screenshot(other.page, name);
      if (width === 390) {
        // Nothing is wider than the phone.
        expect(await other.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await c.getByRole('button', { name: 'Edit Follow the sun' }).click();
        await expect.poll(() => other.page.getByRole('dialog', { name: 'Edit Schedule' }).isVisible()).toBe(true);
        await settledShot(other.page, 'schedules-form-phone');
      } else {
        await c.getByRole('button', { name: 'Edit Follow the sun' }).click();
        await expect.poll(() => other.page.getByRole('dialog', { name: 'Edit Schedule' }).isVisible()).toBe(true);
        await settledShot(other.page, 'schedules-form-dark');
        await other.page.goto(`${server.url}/app/profile`);
        await expect.poll(() => other.page.getByTestId('feed-status').isVisible()).toBe(true);
        await screenshot(other.page, 'profile-my-oncall-dark');
      }
      await other.context.close();
    }

    // Ben, a plain member, hands his next shift to Carla from his profile: the replaced person may add the override.
    const asBen = await newPage(browser, { width: 390, height: 844 });
    await signIn(asBen.page, server.url, ben.email, PASSWORD);
    await asBen.page.goto(`${server.url}/app/profile`);
    const bens = asBen.page.getByTestId('my-oncall');
    await expect.poll(() => bens.getByTestId('my-shift').count()).toBeGreaterThan(1);
    const firstShift = await bens.getByTestId('my-shift').first().innerText();
    await bens.getByTestId('my-shift').first().getByRole('button', { name: 'Find cover' }).click();
    const cover = asBen.page.getByRole('dialog', { name: 'Find cover' });
    await cover.getByLabel('Covered by').selectOption({ label: 'Carla Cover' });
    await settledShot(asBen.page, 'profile-find-cover-phone');
    await cover.getByRole('button', { name: 'Hand over' }).click();
    await expect.poll(() => cover.isVisible()).toBe(false);
    await expect.poll(() => bens.getByTestId('my-shift').first().innerText()).not.toBe(firstShift);
    await screenshot(asBen.page, 'profile-my-oncall-phone');
    expect(await asBen.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await asBen.context.close();

    // A member who leaves shows as 'Unknown User', and the card says the schedule needs an edit.
    await server.deps.db.deleteFrom('tenant_members').where('tenant_id', '=', tenantId).where('user_id', '=', ben.id).execute();
    const after = await newPage(browser);
    await signIn(after.page, server.url, account.email, account.password);
    await after.page.goto(`${server.url}${SCHEDULES_URL}`);
    const c = after.page.getByTestId('schedule-card');
    await expect.poll(() => c.getByTestId('unknown-people-warning').isVisible()).toBe(true);
    expect(await c.getByTestId('weekly-shifts').innerText()).toContain(`4 PM – 12 AM ${MSG.unknownUser}`);
    await screenshot(after.page, 'schedules-unknown-user-light');
    await after.context.close();
  });

  it('shows the loading failure text when schedules cannot be loaded', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('sched-err'), org: 'Broken MSP' });
    await page.route('**/api/tenants/*/onCallSchedules', (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.goto(`${server.url}${SCHEDULES_URL}`);
    await expect.poll(() => page.getByText(MSG.escalationLoadFailed).isVisible()).toBe(true);
    await screenshot(page, 'schedules-load-error-light');
    await context.close();
  });
});
