import { describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { CALENDAR_FEED_MSG, MSG, OWN_MSG } from '../contract/messages.ts';
import { PROFILE_MSG } from '../contract/profile.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, type E2EServer, withServerAndBrowser } from './support.ts';
import { insertClient, uniqueEmail } from '../server/test/factories.ts';

/** Clicks the visible label of a control whose own input Mantine hides (chips, segmented controls, switches). */
async function clickLabelOf(input: Locator) {
  const id = await input.getAttribute('id');
  await input.page().locator(`label[for="${id}"]`).click();
}

describe.skipIf(!chromiumAvailable())('profile and settings in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  /** A client of the tenant, straight in the database (the clients screens are another feature's). */
  async function addClient(ownerEmail: string, name: string) {
    const db = server.deps.db;
    const member = await db
      .selectFrom('tenant_members')
      .select('tenant_id')
      .where('email', '=', ownerEmail)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    await insertClient(db, member.tenant_id, name);
  }

  it('changes the display name, keeps the email read-only, and switches the theme', async () => {
    const { context, page } = await newPage(browser);
    const { email } = await registerThroughWizard(page, server.url, { name: 'Paula Profile', email: uniqueEmail('profile') });
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/app/profile');
    const name = page.getByLabel('Display name');
    await expect.poll(() => name.inputValue()).toBe('Paula Profile');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByText(MSG.emailCannotChange).isVisible()).toBe(true);
    await screenshot(page, 'profile-light');

    await name.fill('   ');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expect.poll(() => page.getByText(MSG.displayNameEmpty).isVisible()).toBe(true);
    await name.fill('Paula Renamed');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await expect.poll(() => page.getByTestId('user-footer').innerText()).toContain('Paula Renamed');
    await page.reload();
    await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe('Paula Renamed');

    await clickLabelOf(page.getByRole('radio', { name: 'Dark' }));
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await screenshot(page, 'profile-dark');
    await clickLabelOf(page.getByRole('radio', { name: 'Light' }));
    await expect.poll(() => page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await context.close();
  });

  it('changes the password on the Security tab and signs out the other browser', async () => {
    const { context, page } = await newPage(browser);
    const { email, password } = await registerThroughWizard(page, server.url, { email: uniqueEmail('security') });
    const other = await newPage(browser);
    await other.page.goto(`${server.url}/login`);
    await other.page.getByLabel('Email').fill(email);
    await other.page.getByLabel('Password', { exact: true }).fill(password);
    await other.page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await other.page.waitForURL('**/app/dashboard');

    await page.goto(`${server.url}/app/profile?tab=security`);
    await expect.poll(() => page.getByTestId('last-sign-in').innerText()).not.toBe(MSG.notAvailable);
    expect(await page.getByTestId('account-created').innerText()).not.toBe(MSG.notAvailable);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect.poll(() => page.getByText(PROFILE_MSG.currentPasswordRequired).isVisible()).toBe(true);
    await page.getByLabel('Current password').fill('wrong-password');
    await page.getByLabel('New password', { exact: true }).fill('brand-new-1');
    await page.getByLabel('Confirm new password').fill('brand-new-2');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect.poll(() => page.getByText(MSG.passwordsDoNotMatch).isVisible()).toBe(true);
    await page.getByLabel('Confirm new password').fill('brand-new-1');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect.poll(() => page.getByText(PROFILE_MSG.currentPasswordWrong).isVisible()).toBe(true);
    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect.poll(() => page.getByText(PROFILE_MSG.passwordChanged).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Send password reset email' }).click();
    await expect.poll(() => page.getByText(OWN_MSG.resetEmailSent).isVisible()).toBe(true);
    expect(server.mailer.last(email).subject).toBe('Reset your Alertdesk password');
    await screenshot(page, 'profile-security-light');

    // This browser stays signed in; the other one is sent to sign in.
    await page.reload();
    await expect.poll(() => page.getByTestId('user-footer').isVisible()).toBe(true);
    await other.page.goto(`${server.url}/app/dashboard`);
    await other.page.waitForURL(/\/login/);
    await other.context.close();
    await context.close();
  });

  it('starts from the default preferences and keeps what is saved across a reload', async () => {
    const { context, page } = await newPage(browser);
    const { email } = await registerThroughWizard(page, server.url, { email: uniqueEmail('prefs'), org: 'Prefs MSP' });
    await addClient(email, 'Globex Corp');
    await addClient(email, 'Initech');
    await page.goto(`${server.url}/app/profile?tab=notifications`);
    const form = page.getByTestId('preferences-form');
    await expect.poll(() => form.isVisible()).toBe(true);
    // No SMS provider on this server: the SMS section says so.
    await expect.poll(() => page.getByTestId('sms-not-configured').isVisible()).toBe(true);
    // Spec section 9 defaults.
    expect(await page.getByRole('switch', { name: 'Email notifications' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Alert notifications' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Weekly digest' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'System updates' }).isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'SMS notifications' }).isChecked()).toBe(false);
    expect(await page.getByTestId('sms-critical').isChecked()).toBe(true);
    expect(await page.getByTestId('sms-high').isChecked()).toBe(true);
    expect(await page.getByTestId('sms-medium').isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'Send alerts to my browsers and devices' }).isChecked()).toBe(true);
    await screenshot(page, 'profile-notifications-light');

    await clickLabelOf(page.getByRole('checkbox', { name: 'Weekly digest' }));
    await clickLabelOf(page.getByRole('checkbox', { name: 'System updates' }));
    await clickLabelOf(page.getByRole('switch', { name: 'SMS notifications' }));
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect.poll(() => page.getByText(PROFILE_MSG.phoneRequiredForSms).isVisible()).toBe(true);
    await page.getByLabel('Phone number').fill('555 0123');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect.poll(() => page.getByText(PROFILE_MSG.phoneInvalid).isVisible()).toBe(true);
    await page.getByLabel('Phone number').fill('+44 20 7946 0958');
    await clickLabelOf(page.getByTestId('sms-medium'));
    await page.getByRole('combobox', { name: 'Clients' }).click();
    await page.getByRole('option', { name: 'Initech' }).click();
    await page.keyboard.press('Escape');
    await clickLabelOf(page.getByTestId('subscribe-critical'));
    await page.getByPlaceholder('Type a tag and press Enter').fill('Database');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect.poll(() => page.getByText(PROFILE_MSG.preferencesSaved).isVisible()).toBe(true);

    await page.reload();
    await expect.poll(() => page.getByTestId('preferences-form').isVisible()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Weekly digest' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'System updates' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'SMS notifications' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Phone number').inputValue()).toBe('+442079460958');
    expect(await page.getByTestId('sms-medium').isChecked()).toBe(true);
    expect(await page.getByTestId('subscribe-critical').isChecked()).toBe(true);
    expect(await page.getByTestId('subscribe-high').isChecked()).toBe(false);
    const subscriptions = await form.innerText();
    expect(subscriptions).toContain('Initech');
    expect(subscriptions).not.toContain('Globex Corp');
    expect(subscriptions).toContain('database');
    await screenshot(page, 'profile-notifications-saved-light');
    await context.close();
  });

  it('asks for browser notification permission and explains blocked and unsupported browsers', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('push') });
    await page.goto(`${server.url}/app/profile?tab=notifications`);
    await expect.poll(() => page.getByTestId('browser-permission').innerText()).toMatch(/not enabled/i);
    expect(await page.getByRole('button', { name: 'Enable browser notifications' }).isVisible()).toBe(true);
    // The person blocks notifications for the site (headless Chromium shows no prompt to click, so the browser's
    // own permission store is set): the request is refused and the steps to unblock appear.
    const cdp = await context.newCDPSession(page);
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    await cdp.send('Browser.setPermission', { permission: { name: 'notifications' }, setting: 'denied', origin: server.url, browserContextId: targetInfo.browserContextId });
    await page.reload();
    await expect.poll(() => page.getByTestId('push-blocked').isVisible()).toBe(true);
    expect(await page.getByTestId('push-blocked').innerText()).toContain('Find Notifications and change it from Block to Allow.');
    await page.getByRole('button', { name: 'Enable browser notifications' }).click();
    await expect.poll(() => page.getByText(MSG.browserNotificationsDenied).isVisible()).toBe(true);
    await screenshot(page, 'profile-push-blocked-light');

    // A browser the person allowed: the permission prompt answers granted.
    await context.grantPermissions(['notifications'], { origin: server.url });
    await page.addInitScript(() => {
      Object.defineProperty(Notification, 'permission', { get: () => 'default', configurable: true });
      Notification.requestPermission = () => Promise.resolve('granted');
    });
    await page.reload();
    await page.getByRole('button', { name: 'Enable browser notifications' }).click();
    await expect.poll(() => page.getByText(MSG.browserNotificationsEnabled).isVisible()).toBe(true);
    await context.close();

    // A browser without push support gets the explanatory panel and no button.
    const old = await newPage(browser, { theme: 'dark' });
    await old.page.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    await registerThroughWizard(old.page, server.url, { email: uniqueEmail('nopush') });
    await old.page.goto(`${server.url}/app/profile?tab=notifications`);
    await expect.poll(() => old.page.getByTestId('push-unsupported').isVisible()).toBe(true);
    expect(await old.page.getByRole('button', { name: 'Enable browser notifications' }).count()).toBe(0);
    await screenshot(old.page, 'profile-notifications-dark');
    await old.context.close();
  });

  it('asks before renewing the calendar link: keeping it leaves the old URL working, renewing replaces it', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('feed'), org: 'Feed MSP' });
    await page.goto(`${server.url}/app/profile`);
    const card = page.getByTestId('my-oncall');
    await card.getByRole('button', { name: 'Create calendar link' }).click();
    await expect.poll(() => card.getByTestId('feed-url').inputValue()).toMatch(/\/api\/calendarFeeds\/.+\.ics$/);
    const oldUrl = await card.getByTestId('feed-url').inputValue();
    const status = async (url: string) => (await context.request.get(url)).status();
    expect(await status(oldUrl)).toBe(200);

    // Another visit: the link is on, its URL no longer shown.
    await page.reload();
    await expect.poll(() => card.getByTestId('feed-status').isVisible()).toBe(true);
    await card.getByRole('button', { name: 'Renew link' }).click();
    const confirm = page.getByRole('dialog', { name: CALENDAR_FEED_MSG.renewTitle });
    await expect.poll(() => confirm.getByText(CALENDAR_FEED_MSG.renewQuestion).isVisible()).toBe(true);
    await settledShot(page, 'profile-feed-renew-light');
    // Keep: nothing changes, the subscribed calendars keep updating.
    await confirm.getByRole('button', { name: CALENDAR_FEED_MSG.renewKeep }).click();
    await expect.poll(() => confirm.isVisible()).toBe(false);
    expect(await card.getByTestId('feed-url').count()).toBe(0);
    expect(await card.getByTestId('feed-status').isVisible()).toBe(true);
    expect(await status(oldUrl)).toBe(200);

    // Renew: a new URL, shown once; the old one stops.
    await card.getByRole('button', { name: 'Renew link' }).click();
    await confirm.getByRole('button', { name: CALENDAR_FEED_MSG.renewConfirm }).click();
    await expect.poll(() => page.getByText(CALENDAR_FEED_MSG.renewed).isVisible()).toBe(true);
    await expect.poll(() => confirm.isVisible()).toBe(false);
    await expect.poll(() => card.getByTestId('feed-url').inputValue()).toMatch(/\/api\/calendarFeeds\/.+\.ics$/);
    const newUrl = await card.getByTestId('feed-url').inputValue();
    expect(newUrl).not.toBe(oldUrl);
    expect(await status(oldUrl)).toBe(404);
    expect(await status(newUrl)).toBe(200);
    await card.scrollIntoViewIfNeeded();
    await settledShot(page, 'profile-feed-renewed-light');
    await context.close();

    // The question in the dark theme and on a phone.
    for (const [theme, width, name] of [
      ['dark', 1280, 'profile-feed-renew-dark'],
      ['light', 390, 'profile-feed-renew-phone'],
      ['dark', 390, 'profile-feed-renew-phone-dark'],
    ] as const) {
      const other = await newPage(browser, { theme, width, height: 844 });
      await registerThroughWizard(other.page, server.url, { email: uniqueEmail('feed') });
      await other.page.goto(`${server.url}/app/profile`);
      const c = other.page.getByTestId('my-oncall');
      await c.getByRole('button', { name: 'Create calendar link' }).click();
      await expect.poll(() => c.getByTestId('feed-url').isVisible()).toBe(true);
      await c.getByRole('button', { name: 'Renew link' }).click();
      const dialog = other.page.getByRole('dialog', { name: CALENDAR_FEED_MSG.renewTitle });
      await expect.poll(() => dialog.getByText(CALENDAR_FEED_MSG.renewQuestion).isVisible()).toBe(true);
      if (width === 390) expect(await other.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await settledShot(other.page, name);
      await other.context.close();
    }
  });

  it('fits a phone', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await registerThroughWizard(page, server.url, { email: uniqueEmail('phone') });
    for (const tab of ['profile', 'security', 'notifications']) {
      await page.goto(`${server.url}/app/profile?tab=${tab}`);
      await expect.poll(() => page.getByRole('tab', { selected: true }).isVisible()).toBe(true);
      if (tab === 'notifications') await expect.poll(() => page.getByTestId('preferences-form').isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, `profile-${tab}-phone`);
    }
    await context.close();
  });
});
