import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

// Issue 25: guesses from many addresses throttle an account; its owner gets in anyway with a one-time link by email.
// The per-account ceiling is set low here (the browser has one address: the per-address limits are set high).
describe.skipIf(!chromiumAvailable())('sign-in link of a throttled account, in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser(
    (s, b) => ([server, browser] = [s, b]),
    () => ({ signInLimit: { perAccount: 100, perIp: 100, perAccountTotal: 3, windowMs: 15 * 60_000 } }),
  );

  it('offers an emailed link once the account is throttled; the link signs the owner in once', async () => {
    const email = uniqueEmail('locked');
    const owner = await newPage(browser);
    await registerThroughWizard(owner.page, server.url, { name: 'Lena Locked', email, org: 'Locked MSP' });
    // Signed out: an address with a live session of the account passes its ceiling (this browser shares the address).
    expect((await owner.page.request.post(`${server.url}/api/auth/sign-out`, { headers: { origin: server.url } })).status()).toBe(200);
    await owner.context.close();

    const { context, page } = await newPage(browser, { width: 390, height: 844, theme: 'dark' });
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(email);
    for (let i = 0; i < 4; i++) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong-${i}`);
      await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-in')), page.getByRole('button', { name: 'Sign In', exact: true }).click()]);
    }
    const offer = page.getByTestId('signin-throttled');
    await expect.poll(() => offer.innerText()).toContain('sign in with a one-time link we email you');
    await screenshot(page, 'sign-in-throttled-dark-phone');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByTestId('sign-in-link-sent').innerText()).toContain(`If an account exists for ${email}, we sent a sign-in link.`);

    await expect.poll(() => server.mailer.sent.filter((m) => m.to === email && /sign-in link/i.test(m.subject)).length).toBe(1);
    const mail = server.mailer.sent.find((m) => m.to === email && /sign-in link/i.test(m.subject))!;
    const link = /(https?:\/\/\S+\/sign-in-link\?token=[A-Za-z0-9_-]+)/.exec(mail.text)![1];

    // The right password is still refused (the throttle holds); the link is not.
    await page.goto(link);
    await expect.poll(() => page.getByTestId('sign-in-link-page').innerText()).toContain(`Sign in as ${email}?`);
    await screenshot(page, 'sign-in-link-dark-phone');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/app/dashboard');
    expect((await (await page.request.get(`${server.url}/api/me`)).json()).user.email).toBe(email);

    // Once only.
    const again = await newPage(browser, { theme: 'light' });
    await again.page.goto(link);
    await expect.poll(() => again.page.getByTestId('sign-in-link-invalid').innerText()).toContain('already been used');
    await screenshot(again.page, 'sign-in-link-used-light');
    await Promise.all([context.close(), again.context.close()]);
  });
});
