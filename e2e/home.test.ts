import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { SUPPORT_EMAIL } from '../web/src/lib/contact.ts';
import { chromiumAvailable, newPage, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';

describe.skipIf(!chromiumAvailable())('marketing home page in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  async function expectSections(page: Page) {
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toContain('Every alert, every client');
    expect(await page.getByRole('link', { name: 'Start your free trial' }).first().getAttribute('href')).toBe('/login?signup=1');
    for (const feature of ['Real-time alerts', 'Comprehensive dashboard', 'Client management']) {
      expect(await page.getByRole('heading', { name: feature }).count(), feature).toBe(1);
    }
    await expect.poll(() => page.getByTestId('home-plan-trial').isVisible()).toBe(true);
    expect(await page.locator('[data-testid^="home-plan-"]').count()).toBe(4);
    expect(await page.getByRole('link', { name: 'Choose Plan' }).count()).toBe(4);
    // Each card's button opens sign-in with the registration wizard on that plan.
    const hrefs = await page.getByRole('link', { name: 'Choose Plan' }).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const href of hrefs) expect(href).toMatch(/^\/login\?signup=1&plan=[\w-]+$/);
    expect(hrefs).toContain('/login?signup=1&plan=growth');
    // The default plan (Trial, from the database) carries the badge, and only it.
    expect(await page.getByTestId('most-popular').count()).toBe(1);
    expect(await page.getByTestId('home-plan-trial').getByTestId('most-popular').count()).toBe(1);
    expect(await page.getByTestId('home-plan-growth').innerText()).toContain('$99');
    expect(await page.getByTestId('home-plan-scale').innerText()).toContain('Up to 30 users · 50 clients');
    // Pricing settings defaults: 15% yearly discount shown, USD, taxes included.
    expect(await page.getByText('Save 15% with yearly billing').isVisible()).toBe(true);
    expect(await page.getByText('Prices in USD, taxes included.').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Try Alertdesk free for 14 days' }).isVisible()).toBe(true);
    expect(await page.locator('#trial').innerText()).toContain('No credit card required');
    const quotes = await page.getByTestId('testimonial').allInnerTexts();
    expect(quotes).toHaveLength(3);
    expect(quotes.filter((q) => q.includes('65%'))).toHaveLength(1);
    expect(await page.locator('footer').innerText()).toContain('Alertdesk. All rights reserved.');
    for (const link of ['Privacy', 'Terms', 'Contact']) expect(await page.locator('footer').getByRole('link', { name: link }).isVisible(), link).toBe(true);
  }

  for (const theme of ['light', 'dark'] as const) {
    for (const [device, width] of [
      ['desktop', 1366],
      ['phone', 390],
    ] as const) {
      it(`shows every section and the pricing cards (${theme}, ${device})`, async () => {
        const { context, page } = await newPage(browser, { theme, width, height: device === 'phone' ? 844 : 900 });
        await page.goto(`${server.url}/`);
        await expectSections(page);
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        // Nothing sticks out sideways on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.evaluate(() => document.fonts.ready);
        await screenshot(page, `home-${theme}-${device}`);
        // The footer on its own, to see its links without the whole page.
        await page.locator('footer').screenshot({ path: path.resolve(import.meta.dirname, 'screenshots', `home-footer-${theme}-${device}.png`) });
        await context.close();
      });
    }
  }

  it('is a page of its own: no app code, pricing from the API, a working theme toggle, links to sign-in and registration', async () => {
    // The two entries of the build (issue 14): the home page's and the app's.
    const manifest = JSON.parse(fs.readFileSync(path.join(inject('webDir'), '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const [homeEntry, appEntry] = [`/${manifest['home.html']!.file}`, `/${manifest['index.html']!.file}`];
    const { context, page } = await newPage(browser, { theme: 'light' });
    const scripts: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/`);
    await expectSections(page);
    expect(scripts).toContain(homeEntry);
    expect(scripts).not.toContain(appEntry);

    // The theme toggle: its tooltip, the switch (Mantine's scheme and the root's class), kept for the next page.
    const scheme = () => page.evaluate(() => [document.documentElement.classList.contains('dark'), document.documentElement.getAttribute('data-mantine-color-scheme')]);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await scheme()).toEqual([false, 'light']);
    const light = await background();
    const toggle = page.getByTestId('theme-toggle');
    // Its tooltip's code arrives after the page (a pointer arriving meanwhile gets it once it is there): hovered again
    // until it has.
    await expect
      .poll(async () => {
        await page.mouse.move(0, 0);
        await toggle.hover();
        return page.getByRole('tooltip').waitFor({ timeout: 1000 }).then(() => true, () => false);
      })
      .toBe(true);
    expect(await page.getByRole('tooltip').innerText()).toBe('Switch to dark theme');
    await toggle.click();
    await expect.poll(scheme).toEqual([true, 'dark']);
    expect(await background()).not.toBe(light);
    expect(await toggle.getAttribute('aria-label')).toBe('Switch to light theme');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await screenshot(page, 'home-toggled-dark');

    // Sign in and registration: the app, loaded whole, in the theme chosen here.
    const header = page.getByRole('banner');
    expect(await header.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(await header.getByRole('link', { name: 'Start free trial' }).getAttribute('href')).toBe('/login?signup=1');
    await header.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    expect(scripts).toContain(appEntry);
    expect(await scheme()).toEqual([true, 'dark']);

    // Back to the homepage from inside the app: `/` loads the home page's own entry again.
    scripts.length = 0;
    await page.getByRole('link', { name: 'Back to homepage' }).click();
    await expect.poll(() => page.getByTestId('home-plan-trial').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(scripts).toContain(homeEntry);
    expect(scripts).not.toContain(appEntry);

    await page.getByRole('banner').getByRole('link', { name: 'Start free trial' }).click();
    await page.waitForURL('**/login?signup=1');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks the API in parallel (no waterfall), and the call to action leads to sign-in', async () => {
    const { context, page } = await newPage(browser);
    const api: { url: string; start: number; end: number }[] = [];
    const started = new Map<string, number>();
    page.on('request', (r) => {
      if (r.url().includes('/api/')) started.set(r.url(), Date.now());
    });
    page.on('requestfinished', (r) => {
      if (r.url().includes('/api/')) api.push({ url: new URL(r.url()).pathname, start: started.get(r.url())!, end: Date.now() });
    });
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByTestId('home-plan-trial').isVisible()).toBe(true);
    const paths = api.map((a) => a.url).sort();
    expect(paths).toEqual(['/api/config', '/api/pricingPlans', '/api/settings/pricing']);
    // Each request started before any other one finished.
    const firstEnd = Math.min(...api.map((a) => a.end));
    for (const a of api) expect(a.start).toBeLessThanOrEqual(firstEnd);

    // "Start your free trial" opens the wizard on the default plan.
    await page.getByRole('link', { name: 'Start your free trial' }).first().click();
    await page.waitForURL('**/login?signup=1');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.goBack();
    // "Choose Plan" opens it with that plan chosen: registering keeps it.
    await page.getByTestId('home-plan-growth').getByRole('link', { name: 'Choose Plan' }).click();
    await page.waitForURL('**/login?signup=1&plan=growth');
    const email = uniqueEmail('growth');
    await page.getByLabel('Full name').fill('Gina Growth');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm password').fill('secret123');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByTestId('plan-growth').getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('plan-trial').getAttribute('aria-checked')).toBe('false');
    // No Google sign-in on a server without it, and no text about how to configure it.
    expect(await page.getByRole('button', { name: 'Register with Google' }).count()).toBe(0);
    expect(await page.getByText('OIDC_CLIENT_ID').count()).toBe(0);
    await page.getByLabel('Organization name').fill('Growth MSP');
    await page.getByRole('button', { name: 'Complete Registration' }).click();
    await page.waitForURL('**/app/dashboard', { timeout: 10_000 });
    const tenant = await server.deps.db.selectFrom('tenants').select(['plan']).where('name', '=', 'Growth MSP').executeTakeFirstOrThrow();
    expect(tenant.plan).toBe('growth');
    await context.close();
  });

  it('links privacy, terms and contact from the footers; the privacy and terms pages are their own', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/`);
    const footer = page.locator('footer');
    expect(await footer.getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);
    await footer.getByRole('link', { name: 'Privacy' }).click();
    await page.waitForURL('**/privacy');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Privacy');
    expect(await page.title()).toBe('Privacy · Alertdesk');
    const privacy = await page.getByTestId('legal-page').innerText();
    for (const s of ['your account', 'notification preferences', 'push', 'session', 'third-party trackers', 'error reporting']) expect(privacy.toLowerCase()).toContain(s);
    expect(await page.getByTestId('legal-page').getByRole('link', { name: SUPPORT_EMAIL }).getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);
    // The public pages' footer carries the same links.
    await page.locator('footer').getByRole('link', { name: 'Terms' }).click();
    await page.waitForURL('**/terms');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Terms of use');
    expect(await page.title()).toBe('Terms of use · Alertdesk');
    expect(await page.locator('footer').getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);
    await page.goto(`${server.url}/login`);
    await page.locator('footer').getByRole('link', { name: 'Privacy' }).click();
    await page.waitForURL('**/privacy');
    await context.close();

    for (const theme of ['light', 'dark'] as const) {
      for (const [device, width] of [
        ['desktop', 1366],
        ['phone', 390],
      ] as const) {
        const shot = await newPage(browser, { theme, width, height: device === 'phone' ? 844 : 900 });
        for (const name of ['privacy', 'terms']) {
          await shot.page.goto(`${server.url}/${name}`);
          await shot.page.getByRole('heading', { level: 1 }).waitFor();
          expect(await shot.page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
          await screenshot(shot.page, `${name}-${theme}-${device}`);
        }
        await shot.context.close();
      }
    }
  });

  it('shows the spec texts when the plans cannot be loaded or none is public', async () => {
    const { context, page } = await newPage(browser, { width: 390 });
    await page.route('**/api/pricingPlans', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"Internal server error"}}' }));
    await page.goto(`${server.url}/#pricing`);
    await expect.poll(() => page.getByTestId('pricing-error').innerText(), { timeout: 15_000 }).toBe(MSG.pricingLoadFailedHome);
    await screenshot(page, 'home-pricing-error-phone');

    await page.unroute('**/api/pricingPlans');
    // A super admin's list includes private plans; the home page shows public ones only.
    await page.route('**/api/pricingPlans', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ items: [{ id: 'secret', name: 'Secret', description: '', price: '$1', priceId: null, features: [], maxUsers: 1, maxClients: 1, isDefault: false, isPublic: false, sortOrder: 0, createdAt: '', updatedAt: '' }] }),
      }),
    );
    await page.reload();
    await expect.poll(() => page.getByTestId('pricing-empty').innerText()).toBe(MSG.noPublicPlans);
    expect(await page.getByText('Secret').count()).toBe(0);
    await context.close();
  });
});
