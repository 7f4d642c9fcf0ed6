import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DIGEST_MSG } from '../contract/digest.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

describe.skipIf(!chromiumAvailable())('the weekly digest in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('is previewed from the profile, mailed, and turned off from its link after asking', async () => {
    const { page } = await newPage(browser);
    const email = uniqueEmail('digest');
    await registerThroughWizard(page, server.url, { name: 'Dora Digest', email, org: 'Digest Operations' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();

    // The Notifications tab offers a preview of the digest, as it would go out now.
    await page.goto(`${server.url}/app/profile?tab=notifications`);
    const preview = page.getByTestId('digest-preview');
    await expect.poll(() => preview.isVisible()).toBe(true);
    const href = (await preview.getAttribute('href'))!;
    expect(href).toBe(`/api/me/digest/preview?tenantId=${me.tenants[0].id}`);
    await page.goto(`${server.url}${href}`);
    expect(await page.locator('h1').innerText()).toBe('Your week in Alertdesk');
    expect(await page.locator('h2').innerText()).toBe('Digest Operations');
    await screenshot(page, 'digest-preview-light');

    // Monday's job mails it; its link leads to a page that asks before turning it off.
    await server.app.digest.handler({} as never, { now: new Date(), finalAttempt: false, payload: { userId: me.user.id, week: '2026-11-30' } });
    const mail = server.mailer.sent.filter((m) => m.to === email).at(-1)!;
    const link = /(http:\/\/\S+\/digest\/off\/[A-Za-z0-9_-]+)/.exec(mail.text)![1];
    for (const theme of ['dark', 'light'] as const) {
      const { page: p } = await newPage(browser, { theme, width: theme === 'dark' ? 390 : 1280 });
      await p.goto(link);
      await expect.poll(() => p.getByTestId('digest-off-page').isVisible()).toBe(true);
      expect(await p.getByTestId('digest-off-page').innerText()).toContain(email);
      await screenshot(p, `digest-off-${theme}`);
      if (theme === 'light') {
        await p.getByRole('button', { name: 'Turn off the weekly digest' }).click();
        await expect.poll(() => p.getByTestId('digest-off-done').innerText()).toBe(DIGEST_MSG.turnedOff);
        await screenshot(p, 'digest-off-done-light');
      }
    }
    // The profile shows it off.
    await page.goto(`${server.url}/app/profile?tab=notifications`);
    await expect.poll(() => page.getByLabel('Weekly digest').isChecked()).toBe(false);

    // A forged link says so.
    await page.goto(`${link.slice(0, -4)}AAAA`);
    await expect.poll(() => page.getByTestId('digest-off-invalid').innerText()).toContain(DIGEST_MSG.linkInvalid);
  });
});
