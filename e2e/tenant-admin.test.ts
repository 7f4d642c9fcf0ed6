import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { MEMBERS_MSG } from '../contract/members.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

const row = (page: Page, email: string) => page.locator(`[data-testid="member-row"][data-email="${email}"]`);

/** The document is no wider than the window: nothing makes the page scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** Every tab of the page lies inside the window and inside its tab list (none cut off or scrolled out of sight). */
async function expectTabsVisible(page: Page) {
  const boxes = await page.getByRole('tab').evaluateAll((tabs) =>
    tabs.map((t) => {
      const r = t.getBoundingClientRect();
      const list = t.closest('[role="tablist"]')!.getBoundingClientRect();
      return { name: t.textContent, inWindow: r.left >= 0 && r.right <= window.innerWidth, inList: r.left >= list.left - 0.5 && r.right <= list.right + 0.5 };
    }),
  );
  expect(boxes.map((b) => b.name)).toEqual(['Users', 'Integrations', 'Heartbeats', 'API tokens', 'Destinations', 'PSA', 'Approval Workflows']);
  for (const b of boxes) expect(b, b.name ?? '').toMatchObject({ inWindow: true, inList: true });
}

describe.skipIf(!chromiumAvailable())('tenant administration in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  /** The invitation link out of the last mail the server sent to `email`. */
  const invitationLink = (email: string) => {
    const mail = server.mailer.last(email);
    expect(mail, `a mail to ${email}`).toMatchObject({ to: email, subject: expect.stringMatching(/^You're invited to join /) });
    return mail.text.match(/https?:\/\/\S+\/invitations\/\S+/)![0];
  };

  async function inviteThroughDialog(page: Page, email: string, role: 'User' | 'Admin' = 'User') {
    await page.getByRole('button', { name: 'Add User' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Email').fill(email);
    if (role === 'Admin') {
      await dialog.getByLabel('Role', { exact: true }).click();
      await page.getByRole('option', { name: 'Admin' }).click();
    }
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
  }

  it('invites a colleague who joins from the emailed link in another browser; role change; removal', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Ada Admin', email: uniqueEmail('owner'), org: 'Acme Monitoring' });
    await page.getByRole('link', { name: 'Tenant Admin' }).click();
    await page.waitForURL('**/app/tenant-admin');
    await expect.poll(() => page.getByTestId('tenant-details').innerText()).toContain('Acme Monitoring');
    const details = await page.getByTestId('tenant-details').innerText();
    for (const label of ['Name', 'Plan', 'Max Users', 'Max Clients', 'Created']) expect(details.toUpperCase()).toContain(label.toUpperCase());
    expect(await page.getByTestId('seats-used').innerText()).toBe('1 of 5');

    // Add User: disabled while the email is empty; the owner's own address is refused with the spec's text.
    await page.getByRole('button', { name: 'Add User' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    expect(await dialog.getByRole('button', { name: 'Add User' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Email').fill(owner.email.toUpperCase());
    await dialog.getByRole('button', { name: 'Add User' }).click();
    await expect.poll(() => dialog.getByText(MSG.userAlreadyInTenant).isVisible()).toBe(true);
    await screenshot(page, 'tenant-admin-add-user-light');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const colleague = uniqueEmail('colleague');
    await inviteThroughDialog(page, colleague);
    await expect.poll(() => row(page, colleague).getAttribute('data-status')).toBe('invited');
    expect((await row(page, colleague).innerText()).toLowerCase()).toContain('pending');
    expect(await page.getByTestId('seats-used').innerText()).toBe('2 of 5');
    await screenshot(page, 'tenant-admin-light');

    // The colleague opens the link in a browser of their own and creates an account.
    const link = invitationLink(colleague);
    const second = await newPage(browser);
    await second.page.goto(link);
    await expect.poll(() => second.page.getByRole('heading', { name: 'Join Acme Monitoring' }).isVisible()).toBe(true);
    expect(await second.page.getByText('Ada Admin invited').isVisible()).toBe(true);
    await screenshot(second.page, 'invitation-new-light');
    await second.page.getByRole('button', { name: 'Create account and join' }).click();
    await expect.poll(() => second.page.getByText(MSG.nameRequired).isVisible()).toBe(true);
    await second.page.getByLabel('Full name').fill('Carl Colleague');
    await second.page.getByLabel('Password', { exact: true }).fill('colleague-1');
    await second.page.getByLabel('Confirm password').fill('colleague-2');
    await second.page.getByRole('button', { name: 'Create account and join' }).click();
    await expect.poll(() => second.page.getByText(MSG.passwordsDoNotMatch).isVisible()).toBe(true);
    await second.page.getByLabel('Confirm password').fill('colleague-1');
    await second.page.getByRole('button', { name: 'Create account and join' }).click();
    await second.page.waitForURL('**/app/dashboard');
    await expect.poll(() => second.page.getByTestId('tenant-select').inputValue()).toBe('Acme Monitoring');
    await expect.poll(() => second.page.getByTestId('user-footer').innerText()).toContain('Carl Colleague');
    // A plain user: no Tenant Admin link, and the page itself says no.
    expect(await second.page.getByRole('link', { name: 'Tenant Admin' }).count()).toBe(0);
    await second.page.goto(`${server.url}/app/tenant-admin`);
    await expect.poll(() => second.page.getByText(MSG.noPermission).isVisible()).toBe(true);
    // The link worked once.
    await second.page.goto(link);
    await expect.poll(() => second.page.getByText(MEMBERS_MSG.invitationInvalid).isVisible()).toBe(true);

    // Back at the owner: the colleague is a member now; promote them to Admin.
    await page.reload();
    await expect.poll(() => row(page, colleague).getAttribute('data-status')).toBe('active');
    expect(await row(page, colleague).innerText()).toContain('Carl Colleague');
    // No Edit or Remove on the owner's own row.
    const ownRow = page.locator('[data-testid="member-row"]').first();
    expect(await ownRow.getByRole('button').count()).toBe(0);
    // Saving without a change closes the dialog without a request and without a toast claiming one.
    const roleChanges: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.url().includes('/members/')) roleChanges.push(r.url());
    });
    await row(page, colleague).getByRole('button', { name: `Edit ${colleague}` }).click();
    await page.getByRole('dialog', { name: 'Edit User' }).getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Edit User' }).count()).toBe(0);
    expect(roleChanges).toEqual([]);
    expect(await page.getByText('Carl Colleague is now').count()).toBe(0);
    await row(page, colleague).getByRole('button', { name: `Edit ${colleague}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    expect(await edit.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await edit.getByLabel('Role', { exact: true }).click();
    await page.getByRole('option', { name: 'Admin' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => row(page, colleague).getByTestId('member-role').textContent()).toBe('Admin');
    expect(roleChanges).toHaveLength(1);

    // The new role takes effect for the colleague.
    await second.page.goto(`${server.url}/app/tenant-admin`);
    await expect.poll(() => second.page.getByTestId('tenant-details').isVisible()).toBe(true);
    expect(await second.page.getByRole('link', { name: 'Tenant Admin' }).isVisible()).toBe(true);
    // An admin has no Edit or Remove on themselves nor on the owner.
    await expect.poll(() => row(second.page, colleague).isVisible()).toBe(true);
    expect(await row(second.page, colleague).getByRole('button').count()).toBe(0);

    // Removal: the colleague's access ends at once.
    await row(page, colleague).getByRole('button', { name: `Remove ${colleague}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove User' });
    expect(await confirm.innerText()).toContain('Carl Colleague');
    await screenshot(page, 'tenant-admin-remove-light');
    await confirm.getByRole('button', { name: 'Remove User' }).click();
    await expect.poll(() => row(page, colleague).count()).toBe(0);
    await second.page.reload();
    await expect.poll(() => second.page.getByText(MSG.noTenant).isVisible()).toBe(true);
    await second.context.close();
    await context.close();
  });

  it('shows an invitation to someone who already has an account after sign-in, and revokes and resends', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { name: 'Olga Owner', email: uniqueEmail('owner2'), org: 'Beta Ops' });
    const other = await newPage(browser);
    const existing = uniqueEmail('existing');
    await registerThroughWizard(other.page, server.url, { name: 'Erin Existing', email: existing, org: 'Erin MSP' });

    await page.goto(`${server.url}/app/tenant-admin`);
    await inviteThroughDialog(page, existing, 'Admin');
    const revoked = uniqueEmail('revoked');
    await inviteThroughDialog(page, revoked);
    await expect.poll(() => row(page, revoked).isVisible()).toBe(true);

    // Resend replaces the link; revoke kills it.
    const firstLink = invitationLink(revoked);
    await row(page, revoked).getByRole('button', { name: `Resend invitation to ${revoked}` }).click();
    await expect.poll(() => invitationLink(revoked)).not.toBe(firstLink);
    const secondLink = invitationLink(revoked);
    // The "resent" toast may sit over the row's buttons, and a pointer resting on it keeps it open: the pointer moves
    // away and the toast goes by itself before the next click.
    await page.mouse.move(0, 0);
    await expect.poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 15_000 }).toBe(0);
    await row(page, revoked).getByRole('button', { name: `Revoke invitation to ${revoked}` }).click();
    await page.getByRole('dialog', { name: 'Revoke Invitation' }).getByRole('button', { name: 'Revoke Invitation' }).click();
    await expect.poll(() => row(page, revoked).count()).toBe(0);
    const stranger = await newPage(browser);
    for (const l of [firstLink, secondLink]) {
      await stranger.page.goto(l);
      await expect.poll(() => stranger.page.getByTestId('invitation-invalid').isVisible()).toBe(true);
    }
    await screenshot(stranger.page, 'invitation-invalid-light');
    await stranger.context.close();

    // Sign-up does not verify addresses: an unproven account sees nothing of the invitation in the app.
    await other.page.reload();
    await expect.poll(() => other.page.getByTestId('tenant-select').inputValue()).toBe('Erin MSP');
    const banner = other.page.getByTestId('pending-invitation');
    expect(await banner.count()).toBe(0);
    // Once the address is proven (a followed reset or invitation link, or Google), the banner shows and accepts.
    await server.deps.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('email', '=', existing).execute();
    await other.page.reload();
    await expect.poll(() => banner.isVisible()).toBe(true);
    expect(await banner.innerText()).toContain('Olga Owner invited you to join Beta Ops as Admin.');
    await screenshot(other.page, 'invitation-banner-light');
    await banner.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => other.page.getByTestId('tenant-select').inputValue()).toBe('Beta Ops');
    await expect.poll(() => banner.count()).toBe(0);
    expect(await other.page.getByTestId('tenant-select').isEnabled()).toBe(true);
    await other.context.close();
    await context.close();
  });

  it('lets an existing account sign in from the link to accept', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('owner3'), org: 'Gamma Ops' });
    const invitee = await newPage(browser);
    const email = uniqueEmail('signin');
    await registerThroughWizard(invitee.page, server.url, { email, org: 'Own MSP', password: 'invitee-1' });
    await invitee.page.getByRole('button', { name: 'Sign Out' }).click();
    await invitee.page.waitForURL('**/login');
    await page.goto(`${server.url}/app/tenant-admin`);
    await inviteThroughDialog(page, email);
    await invitee.page.goto(invitationLink(email));
    await expect.poll(() => invitee.page.getByRole('button', { name: 'Sign in and accept' }).isVisible()).toBe(true);
    await invitee.page.getByLabel('Password', { exact: true }).fill('wrong-pass');
    await invitee.page.getByRole('button', { name: 'Sign in and accept' }).click();
    await expect.poll(() => invitee.page.getByTestId('invitation-error').innerText()).toBe('Invalid email or password');
    await invitee.page.getByLabel('Password', { exact: true }).fill('invitee-1');
    await invitee.page.getByRole('button', { name: 'Sign in and accept' }).click();
    await invitee.page.waitForURL('**/app/dashboard');
    await expect.poll(() => invitee.page.getByTestId('tenant-select').inputValue()).toBe('Gamma Ops');
    await invitee.context.close();
    await context.close();
  });

  it('looks right in the dark theme and on a phone', async () => {
    const dark = await newPage(browser, { theme: 'dark' });
    await registerThroughWizard(dark.page, server.url, { email: uniqueEmail('dark'), org: 'Dark Ops' });
    await dark.page.goto(`${server.url}/app/tenant-admin`);
    const pending = uniqueEmail('pending');
    await inviteThroughDialog(dark.page, pending);
    await expect.poll(() => row(dark.page, pending).isVisible()).toBe(true);
    await screenshot(dark.page, 'tenant-admin-dark');
    await dark.page.getByRole('button', { name: 'Add User' }).first().click();
    await dark.page.getByRole('dialog', { name: 'Add User' }).getByLabel('Email').fill(pending);
    // Let the modal's fade-in finish before the picture.
    await dark.page.waitForTimeout(400);
    await screenshot(dark.page, 'tenant-admin-add-user-dark');
    await dark.page.keyboard.press('Escape');
    const invitee = await newPage(browser, { theme: 'dark' });
    await invitee.page.goto(invitationLink(pending));
    await expect.poll(() => invitee.page.getByRole('button', { name: 'Create account and join' }).isVisible()).toBe(true);
    await screenshot(invitee.page, 'invitation-new-dark');
    await invitee.context.close();
    await dark.context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await registerThroughWizard(phone.page, server.url, { email: uniqueEmail('phone'), org: 'Phone Ops' });
    await phone.page.goto(`${server.url}/app/tenant-admin`);
    const invited = uniqueEmail('phone-invite');
    await inviteThroughDialog(phone.page, invited);
    // On a phone the users are stacked cards, every detail readable without scrolling sideways.
    const card = phone.page.locator(`[data-testid="member-card"][data-email="${invited}"]`);
    await expect.poll(() => card.isVisible()).toBe(true);
    expect(await row(phone.page, invited).isVisible()).toBe(false);
    expect((await card.innerText()).toLowerCase()).toContain('pending');
    expect(await card.getByRole('button', { name: `Revoke invitation to ${invited}` }).isVisible()).toBe(true);
    const own = phone.page.getByTestId('member-card').first();
    expect((await own.innerText()).toLowerCase()).toContain('owner');
    await expectNoSidewaysScroll(phone.page);
    // Every tab is on screen in full (they wrap rather than scroll out of sight).
    await expectTabsVisible(phone.page);
    // The picture without the invitation's toast over the cards.
    await expect.poll(() => phone.page.getByText('Invitation sent to').count()).toBe(0);
    await screenshot(phone.page, 'tenant-admin-phone');
    await phone.page.getByRole('tab', { name: 'Integrations' }).click();
    await expect.poll(() => phone.page.getByTestId('integrations-panel').isVisible()).toBe(true);
    await expectNoSidewaysScroll(phone.page);
    const invitePage = await newPage(browser, { width: 390, height: 844 });
    await invitePage.page.goto(invitationLink(invited));
    await expect.poll(() => invitePage.page.getByRole('button', { name: 'Create account and join' }).isVisible()).toBe(true);
    expect(await invitePage.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(invitePage.page, 'invitation-new-phone');
    await invitePage.context.close();
    await phone.context.close();

    const darkPhone = await newPage(browser, { theme: 'dark', width: 390, height: 844 });
    await registerThroughWizard(darkPhone.page, server.url, { email: uniqueEmail('dark-phone'), org: 'Dark Phone Ops' });
    await darkPhone.page.goto(`${server.url}/app/tenant-admin`);
    await inviteThroughDialog(darkPhone.page, uniqueEmail('dark-phone-invite'));
    await expect.poll(() => darkPhone.page.getByTestId('member-card').count()).toBe(2);
    await expectNoSidewaysScroll(darkPhone.page);
    await expectTabsVisible(darkPhone.page);
    await expect.poll(() => darkPhone.page.getByText('Invitation sent to').count()).toBe(0);
    await screenshot(darkPhone.page, 'tenant-admin-phone-dark');
    await darkPhone.context.close();
  });
});
