import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

describe.skipIf(!chromiumAvailable())('foundation in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('registers through the wizard, lands on the dashboard, signs out and back in', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await screenshot(page, 'login-light');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    // Step 1 validation, in the spec's order.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText(MSG.emailRequired).isVisible()).toBe(true);
    const email = uniqueEmail('wizard');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText(MSG.nameRequired).isVisible()).toBe(true);
    await page.getByLabel('Full name').fill('Wanda Wizard');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText(MSG.passwordRequired).isVisible()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText(MSG.passwordTooShort).isVisible()).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm password').fill('secret124');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText(MSG.passwordsDoNotMatch).isVisible()).toBe(true);
    await page.getByLabel('Confirm password').fill('secret123');
    await page.getByRole('button', { name: 'Next' }).click();
    // Step 2: the default plan (Trial) is preselected.
    await expect.poll(() => page.getByTestId('plan-trial').getAttribute('data-checked')).toBe('true');
    await page.getByRole('button', { name: 'Complete Registration' }).click();
    await expect.poll(() => page.getByText(MSG.orgNameRequired).isVisible()).toBe(true);
    await page.getByLabel('Organization name').fill('Wizard MSP');
    await screenshot(page, 'wizard-step2-light');
    await page.getByRole('button', { name: 'Complete Registration' }).click();
    await expect.poll(() => page.getByText(MSG.registrationSuccess).isVisible()).toBe(true);
    await page.waitForURL('**/app/dashboard');
    await expect.poll(() => page.getByTestId('user-footer').innerText()).toContain('Wanda Wizard');
    await expect.poll(() => page.getByRole('link', { name: 'Tenant Admin' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'System Admin' }).count()).toBe(0);
    expect(await page.getByTestId('tenant-select').isDisabled()).toBe(true);
    await screenshot(page, 'dashboard-light');

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/login');
    await page.goto(`${server.url}/app/clients`);
    await page.waitForURL(/\/login\?next=/);

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => page.getByTestId('signin-error').innerText()).toBe('Invalid email or password');
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/app/clients');
    await context.close();
  });

  it('checks empty sign-in fields and guards the system admin area', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => page.getByTestId('signin-error').innerText()).toBe(MSG.fillAllFields);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('guard') });
    await page.goto(`${server.url}/app/system-admin`);
    await page.waitForURL('**/app/dashboard');
    await page.goto(`${server.url}/app/`);
    await page.waitForURL('**/app/dashboard');
    await page.goto(`${server.url}/login`);
    await page.waitForURL('**/app/dashboard');
    await page.goto(`${server.url}/clients`);
    await page.waitForURL('**/app/clients');
    await context.close();
  });

  it('keeps the chosen theme across a reload, and follows the system while nothing is saved', async () => {
    const { context, page } = await newPage(browser, { theme: 'dark' });
    await page.goto(`${server.url}/login`);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await screenshot(page, 'login-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    // Saved: a system change no longer moves it.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('dark') });
    await screenshot(page, 'dashboard-dark');
    await context.close();
  });

  it('lays out for a phone with a menu that opens and closes', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 800 });
    await registerThroughWizard(page, server.url, { email: uniqueEmail('phone') });
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    // The header fits: the theme toggle is fully on screen (measured once the signed-in layout is rendered).
    await nav.waitFor({ state: 'attached' });
    await page.getByTestId('theme-toggle').waitFor({ state: 'visible' });
    const toggle = (await page.getByTestId('theme-toggle').boundingBox())!;
    expect(toggle.x + toggle.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'dashboard-phone');
    const navX = async () => (await nav.boundingBox())!.x;
    expect(await navX()).toBeLessThan(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect.poll(navX).toBe(0);
    await screenshot(page, 'dashboard-phone-menu');
    await nav.getByRole('link', { name: 'Clients' }).click();
    await page.waitForURL('**/app/clients');
    // Closed again after choosing: the navbar slides off screen and the burger offers to open it.
    await expect.poll(() => page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);
    await expect.poll(navX).toBeLessThan(0);
    await context.close();
  });

  it('replaces the app with the crash text after an uncaught rendering error', async () => {
    const { context, page } = await newPage(browser);
    // The server answering a shape the app cannot render is the crash; the text has no reset control.
    await page.route('**/api/me', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"user":null,"tenants":null,"abilities":null}' }));
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => page.getByText(MSG.crash).isVisible()).toBe(true);
    expect(await page.getByRole('button').count()).toBe(0);
    await context.close();
  });
});
