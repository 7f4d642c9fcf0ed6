import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { API_TOKEN_MSG } from '../contract/api-tokens.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

const card = (page: Page, name: string) => page.locator(`[data-testid="api-token-card"][data-name="${name}"]`);

describe.skipIf(!chromiumAvailable())('API tokens in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('creates a token in the API tokens tab, shows it once, a script uses it, the list shows its use; revoke ends it', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Tara Token', email: uniqueEmail('owner'), org: 'Script MSP' });
    const tenantId = await page.evaluate(async () => (await (await fetch('/api/me')).json()).tenants[0].id as string);

    await page.goto(`${server.url}/app/tenant-admin?tab=api-tokens`);
    await expect.poll(() => page.getByTestId('api-tokens-empty').innerText()).toBe(API_TOKEN_MSG.none);
    await screenshot(page, 'api-tokens-empty-light');

    await page.getByRole('button', { name: 'New token' }).click();
    const form = page.getByRole('dialog', { name: 'New API token' });
    await form.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => form.getByText(API_TOKEN_MSG.nameRequired).isVisible()).toBe(true);
    await form.getByLabel('Name').fill('CI bot');
    await form.getByLabel('Access').click();
    await page.getByRole('option', { name: 'Read and write' }).click();
    await form.getByLabel('Expires').click();
    await page.getByRole('option', { name: 'In 30 days' }).click();
    await settledShot(page, 'api-tokens-form-light');
    await form.getByRole('button', { name: 'Create token' }).click();

    const reveal = page.getByTestId('api-token-created');
    await expect.poll(() => reveal.getByText(API_TOKEN_MSG.shownOnce).isVisible()).toBe(true);
    const token = await reveal.getByTestId('copy-API token').innerText();
    expect(token).toMatch(/^adk_[A-Za-z0-9_-]{43}$/);
    await settledShot(page, 'api-tokens-created-light');
    await reveal.getByRole('button', { name: 'I have copied the token' }).click();

    const row = card(page, 'CI bot');
    await expect.poll(() => row.isVisible()).toBe(true);
    expect((await row.innerText()).toLowerCase()).toContain('read and write');
    expect(await row.getByTestId('api-token-token').innerText()).toBe(`${token.slice(0, 10)}…`);
    expect(await row.getByTestId('api-token-last-used').innerText()).toBe('Never');
    expect(await page.getByTestId('api-tokens-panel').innerText()).not.toContain(token);

    // A script uses it: no cookie, the bearer token.
    const used = await page.evaluate(
      async ({ tenantId, token }) => {
        const res = await fetch(`/api/tenants/${tenantId}/clients`, { method: 'POST', credentials: 'omit', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Globex', status: 'active' }) });
        return res.status;
      },
      { tenantId, token },
    );
    expect(used).toBe(201);
    await page.reload();
    await expect.poll(() => row.getByTestId('api-token-last-used').innerText()).not.toBe('Never');
    await screenshot(page, 'api-tokens-light');

    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, owner.email, owner.password);
    await dark.page.goto(`${server.url}/app/tenant-admin?tab=api-tokens`);
    await expect.poll(() => card(dark.page, 'CI bot').isVisible()).toBe(true);
    await screenshot(dark.page, 'api-tokens-dark');
    await dark.page.getByRole('button', { name: 'New token' }).click();
    await settledShot(dark.page, 'api-tokens-form-dark');
    await dark.context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, owner.email, owner.password);
    await phone.page.goto(`${server.url}/app/tenant-admin?tab=api-tokens`);
    await expect.poll(() => card(phone.page, 'CI bot').isVisible()).toBe(true);
    const { scrollWidth, innerWidth } = await phone.page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await screenshot(phone.page, 'api-tokens-phone');
    await phone.context.close();

    await row.getByRole('button', { name: 'Revoke CI bot' }).click();
    const confirm = page.getByTestId('confirm-modal');
    await expect.poll(() => confirm.getByText(API_TOKEN_MSG.revokeConfirm('CI bot')).isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => page.getByTestId('api-tokens-empty').isVisible()).toBe(true);
    const after = await page.evaluate(
      async ({ tenantId, token }) => (await fetch(`/api/tenants/${tenantId}/clients`, { credentials: 'omit', headers: { authorization: `Bearer ${token}` } })).status,
      { tenantId, token },
    );
    expect(after).toBe(401);
    await context.close();
  });
});
