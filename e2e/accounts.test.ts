import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { OAuth2Server } from 'oauth2-mock-server';
import { MSG } from '../contract/messages.ts';
import { chromiumAvailable, launchBrowser, newPage, registerThroughWizard, screenshot, startServer, type E2EServer } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

describe.skipIf(!chromiumAvailable())('accounts in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let issuer: OAuth2Server;
  /** Who the identity provider says signed in. */
  let googleUser = { sub: 'e2e-google-user', email: 'gina@example.com', email_verified: true, name: 'Gina Google' };
  beforeAll(async () => {
    issuer = new OAuth2Server();
    await issuer.issuer.keys.generate('RS256');
    await issuer.start(0, '127.0.0.1');
    issuer.service.on('beforeTokenSigning', (token) => {
      Object.assign(token.payload, googleUser);
    });
    server = await startServer({ oidc: { issuer: issuer.issuer.url!, clientId: 'alertdesk', clientSecret: 's3cret', allowInsecure: true } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await issuer?.stop();
  });

  it('signs up with Google: issuer round trip, organization step, dashboard', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await page.waitForURL('**/login?google=register');
    await expect.poll(() => page.getByRole('heading', { name: 'Set up your organization' }).isVisible()).toBe(true);
    await screenshot(page, 'google-register-light');
    await page.getByLabel('Organization name').fill('Gina MSP');
    await page.getByRole('button', { name: 'Register with Google' }).click();
    await expect.poll(() => page.getByText(MSG.registrationSuccess).isVisible()).toBe(true);
    await page.waitForURL('**/app/dashboard');
    await expect.poll(() => page.getByTestId('user-footer').innerText()).toContain('Gina Google');
    // Signing out and in with Google again goes straight to the dashboard.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await page.waitForURL('**/app/dashboard');
    await context.close();
  });

  it('registers with Google from step 2, keeping the organization name and the plan chosen on the home page', async () => {
    googleUser = { sub: 'e2e-google-rhea', email: uniqueEmail('rhea'), email_verified: true, name: 'Rhea Google' };
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login?signup=1&plan=growth`);
    await page.getByLabel('Full name').fill('Rhea Google');
    await page.getByLabel('Email').fill(googleUser.email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm password').fill('secret123');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Organization name').fill('Rhea MSP');
    await page.getByRole('button', { name: 'Register with Google' }).click();
    await page.waitForURL('**/login?google=register');
    await expect.poll(() => page.getByLabel('Organization name').inputValue()).toBe('Rhea MSP');
    expect(await page.getByTestId('plan-growth').getAttribute('aria-checked')).toBe('true');
    await page.getByRole('button', { name: 'Register with Google' }).click();
    await page.waitForURL('**/app/dashboard');
    const tenant = await server.deps.db.selectFrom('tenants').select(['plan']).where('name', '=', 'Rhea MSP').executeTakeFirstOrThrow();
    expect(tenant.plan).toBe('growth');
    await context.close();
  });

  it('resets a forgotten password from the emailed link', async () => {
    const { context, page } = await newPage(browser);
    const { email } = await registerThroughWizard(page, server.url, { email: uniqueEmail('forgot') });
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('button', { name: 'Send reset email' }).click();
    await expect.poll(() => page.getByText(MSG.emailRequired).isVisible()).toBe(true);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset email' }).click();
    await expect.poll(() => page.getByText('If an account exists for this email').isVisible()).toBe(true);
    const mail = server.mailer.last(email);
    const link = mail.text.match(/https?:\/\/\S+reset-password\?token=\S+/)![0];
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('changed-pass');
    await page.getByLabel('Confirm new password').fill('changed-pasz');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByText(MSG.passwordsDoNotMatch).isVisible()).toBe(true);
    await page.getByLabel('Confirm new password').fill('changed-pass');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByText('Your password has been changed').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Go to sign in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('changed-pass');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/app/dashboard');
    await context.close();
  });

  it('welcomes an account created by a super admin when it opens its set-password link', async () => {
    const { context, page } = await newPage(browser, { theme: 'dark' });
    await page.goto(`${server.url}/reset-password?token=not-a-real-token-0123&welcome=1`);
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to Alertdesk: choose your password' }).isVisible()).toBe(true);
    await page.getByLabel('New password', { exact: true }).fill('first-pass-1');
    await page.getByLabel('Confirm new password').fill('first-pass-1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByText('This password reset link is invalid or has expired').isVisible()).toBe(true);
    await screenshot(page, 'welcome-password-invalid-dark');
    await context.close();
  });

  it('switches between tenants in the header and remembers the choice', async () => {
    const { context, page } = await newPage(browser);
    const { email } = await registerThroughWizard(page, server.url, { email: uniqueEmail('multi'), org: 'First MSP' });
    // A second tenant for the same user, as an accepted invitation would add.
    const user = await server.deps.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await server.deps.db.insertInto('tenants').values({ id: 'second-tenant', name: 'Second MSP', owner_id: 'someone-else', plan: 'starter', max_users: 5, max_clients: 10, features: '[]', custom_domain: null, logo_url: null, created_at: at, updated_at: at }).execute();
    await server.deps.db.insertInto('tenant_members').values({ id: 'm-second', tenant_id: 'second-tenant', user_id: user.id, email, display_name: user.display_name, role: 'user', status: 'active', joined_at: at, invited_by: null, created_at: at }).execute();
    await page.reload();
    const select = page.getByTestId('tenant-select');
    await expect.poll(() => select.isEnabled()).toBe(true);
    expect(await select.inputValue()).toBe('First MSP');
    expect(await page.getByRole('link', { name: 'Tenant Admin' }).isVisible()).toBe(true);
    await select.click();
    await page.getByRole('option', { name: 'Second MSP' }).click();
    await expect.poll(() => select.inputValue()).toBe('Second MSP');
    // A plain member of the second tenant: the owner/admin entries disappear.
    await expect.poll(() => page.getByRole('link', { name: 'Tenant Admin' }).count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByTestId('tenant-select').inputValue()).toBe('Second MSP');
    await context.close();
  });
});
