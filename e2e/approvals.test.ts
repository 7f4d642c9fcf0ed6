import { describe, expect, it, vi } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { APPROVAL_MSG } from '../contract/approvals.ts';
import { MSG } from '../contract/messages.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, withServerAndBrowser, type E2EServer, addMember, type Member } from './support.ts';

/** A required field's label: Mantine adds a ' *' that getByLabel reads as part of the text. */
const REQUIRED = (label: string) => new RegExp(`^${label}( \\*)?$`);
const PASSWORD = 'secret123';

/** Picks an option of a Select or MultiSelect inside `scope`, found by its label. */
async function pick(page: Page, scope: ReturnType<Page['getByTestId']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** Creates a request through the API from a signed-in page (for lists that need more than one). */
async function createRequestViaApi(page: Page, tenantId: string, body: { title: string; description: string; type?: string; metadata?: object }) {
  return page.evaluate(
    async ({ tenant, b }) => {
      const res = await fetch(`/api/tenants/${tenant}/approvalRequests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      if (res.status !== 201) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    },
    { tenant: tenantId, b: body },
  );
}

/** The tabs' names, with the pending count after a space. */
const tabNames = async (page: Page) => (await page.getByRole('tab').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
const rowOf = (page: Page, title: string) => page.getByRole('row').filter({ has: page.getByText(title, { exact: true }) });
const openApprovals = async (page: Page, server: E2EServer, query = '') => {
  await page.goto(`${server.url}/app/approval-workflows${query}`);
  await expect.poll(() => page.getByRole('tab', { name: /Pending Approvals/ }).isVisible()).toBe(true);
};
/** Switches the request form's metadata between its views (Mantine hides the radio under its label). */
async function metadataView(form: Locator, view: 'Key / value' | 'JSON') {
  const id = await form.getByRole('radio', { name: view, exact: true }).getAttribute('id');
  await form.locator(`label[for="${id}"]`).click();
}
const keyOf = (form: Locator, n: number) => form.getByRole('textbox', { name: `Key ${n}`, exact: true });
const valueOf = (form: Locator, n: number) => form.getByRole('textbox', { name: `Value ${n}`, exact: true });
/** The signed-in page's request, as the API gives it. */
const requestViaApi = (page: Page, tenantId: string, id: string) =>
  page.evaluate(async ({ t, r }) => (await fetch(`/api/tenants/${t}/approvalRequests/${r}`)).json(), { t: tenantId, r: id });
/** The center of the element is the element, not something drawn over it or a clipping edge. */
const reachable = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return r.left >= 0 && r.right <= window.innerWidth && !!hit && el.contains(hit);
  });

/** Nothing sticks out sideways of a 390 px window. */
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe.skipIf(!chromiumAvailable())('approval workflows in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  let owner: { email: string; password: string };
  let tenantId: string;
  let anna: Member;
  let ben: Member;
  let cara: Member;
  let requestId: string;
  const TITLE = 'VPN access for the Initech migration';

  withServerAndBrowser((s, b) => {
    server = s;
    browser = b;
    vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 100 } } });
  });

  it('the owner creates a policy with two levels in the screen', async () => {
    const { context, page } = await newPage(browser);
    owner = await registerThroughWizard(page, server.url, { name: 'Olga Owner', email: uniqueEmail('approvals'), org: 'Acme Approvals' });
    const row = await server.deps.db.selectFrom('tenant_members').innerJoin('users', 'users.id', 'tenant_members.user_id').select('tenant_id').where('users.email', '=', owner.email).executeTakeFirstOrThrow();
    tenantId = row.tenant_id;
    anna = await addMember(server, tenantId, 'Anna Manager');
    ben = await addMember(server, tenantId, 'Ben Director');
    cara = await addMember(server, tenantId, 'Cara Member');

    await page.getByRole('link', { name: 'Approval Workflows' }).click();
    await page.waitForURL('**/app/approval-workflows');
    await expect.poll(() => page.getByText(APPROVAL_MSG.noPending).isVisible()).toBe(true);
    expect(await tabNames(page)).toEqual(['Pending Approvals 0', 'My Requests', 'All Requests', 'Approval Policies']);

    await page.getByRole('tab', { name: 'Approval Policies' }).click();
    await expect.poll(() => page.url()).toContain('tab=policies');
    await expect.poll(() => page.getByText(APPROVAL_MSG.noPolicies).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'New Policy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Approval Policy' });
    // Nothing filled in: the contract's texts under their fields.
    await dialog.getByRole('button', { name: 'Create Policy' }).click();
    await expect.poll(() => dialog.getByText(APPROVAL_MSG.policyNameRequired).isVisible()).toBe(true);
    expect(await dialog.getByText(APPROVAL_MSG.policyDescriptionRequired).isVisible()).toBe(true);
    expect(await dialog.getByText(APPROVAL_MSG.approverRequired).isVisible()).toBe(true);
    // Defaults of spec section 9.
    expect(await dialog.getByLabel('Time to expire (hours)').inputValue()).toBe('48');
    for (const option of ['Reject automatically when a level expires', 'Notify approvers when a request is created', 'Notify the requester when a request is decided', 'Approvers may delegate their decision'])
      expect(await dialog.getByLabel(option).isChecked()).toBe(true);

    await dialog.getByLabel(REQUIRED('Name')).fill('Access requests');
    await dialog.getByLabel(REQUIRED('Description')).fill('Who may grant access to client systems');
    const level1 = dialog.getByTestId('approval-policy-level-0');
    expect(await level1.getByLabel('Level', { exact: true }).inputValue()).toBe('Manager');
    await pick(page, level1, 'Approvers', 'Anna Manager');
    await expect.poll(() => dialog.getByText(APPROVAL_MSG.approverRequired).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Add Level' }).click();
    const level2 = dialog.getByTestId('approval-policy-level-1');
    // The next unused type, in order.
    expect(await level2.getByLabel('Level', { exact: true }).inputValue()).toBe('Director');
    await pick(page, level2, 'Approvers', 'Ben Director');
    await level2.getByLabel('Time to expire (hours)').fill('24');
    await settledShot(page, 'approvals-policy-form-light');
    await dialog.getByRole('button', { name: 'Create Policy' }).click();
    await expect.poll(() => page.getByText(APPROVAL_MSG.policyCreated).isVisible()).toBe(true);
    await expect.poll(() => dialog.isVisible()).toBe(false);

    const policyRow = page.getByTestId('approval-policy-row');
    await expect.poll(() => policyRow.count()).toBe(1);
    const cells = (await policyRow.getByRole('cell').allInnerTexts()).map((t) => t.toLowerCase());
    expect(cells[0]).toContain('access requests');
    expect(cells.slice(1, 4)).toEqual(['access', 'active', '2']);
    const stored = await page.evaluate(async (t) => (await fetch(`/api/tenants/${t}/approvalPolicies`)).json(), tenantId);
    expect(stored.items[0]).toMatchObject({
      type: 'access',
      active: true,
      levels: [
        { level: 'manager', approvers: [anna.id], timeToExpire: 48 },
        { level: 'director', approvers: [ben.id], timeToExpire: 24 },
      ],
      delegationEnabled: true,
    });
    await screenshot(page, 'approvals-policies-light');
    await context.close();
  });

  it('a plain member creates a request in the screen; A approves it with a comment; B sees it live, must give a reason to reject, and approves; C sees Approved', async () => {
    // C: a plain member sees the link and only the two tabs for everyone.
    const c = await newPage(browser);
    await signIn(c.page, server.url, cara.email, PASSWORD);
    await c.page.getByRole('link', { name: 'Approval Workflows' }).click();
    await expect.poll(() => c.page.getByText(APPROVAL_MSG.noPending).isVisible()).toBe(true);
    expect(await tabNames(c.page)).toEqual(['Pending Approvals 0', 'My Requests']);
    await c.page.getByRole('tab', { name: 'My Requests' }).click();
    await expect.poll(() => c.page.getByText(APPROVAL_MSG.noMine).isVisible()).toBe(true);

    await c.page.getByRole('button', { name: 'New Request' }).first().click();
    const form = c.page.getByRole('dialog', { name: 'Create Approval Request' });
    const create = form.getByRole('button', { name: 'Create Request' });
    // Title and description are required: the button waits for both.
    expect(await create.isDisabled()).toBe(true);
    await form.getByLabel(REQUIRED('Title')).fill(TITLE);
    expect(await create.isDisabled()).toBe(true);
    await form.getByLabel(REQUIRED('Description')).fill('Cara needs VPN access for two weeks to move the Initech CRM.\nTicket OPS-4411.');
    expect(await create.isDisabled()).toBe(false);
    expect(await form.getByLabel('Type', { exact: true }).inputValue()).toBe('Access');
    // Metadata in its JSON view: not JSON blocks the form (we do not create it with empty metadata as the spec's form did).
    await metadataView(form, 'JSON');
    const metadata = form.getByLabel('Metadata (JSON)');
    await metadata.fill('{"system": "CRM",');
    await metadata.blur();
    await expect.poll(() => form.getByText(APPROVAL_MSG.invalidJson).isVisible()).toBe(true);
    expect(await create.isDisabled()).toBe(true);
    await metadata.fill('["CRM"]');
    await metadata.blur();
    await expect.poll(() => form.getByText(APPROVAL_MSG.metadataNotObject).isVisible()).toBe(true);
    await metadata.fill('{"system": "CRM", "weeks": 2, "client": {"name": "Initech"}}');
    await metadata.blur();
    await expect.poll(() => form.getByText(APPROVAL_MSG.metadataNotObject).count()).toBe(0);
    // Attachments: six is one too many; then one small file.
    const files = form.locator('input[type="file"]');
    const file = (name: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`Contents of ${name}\n`) });
    await files.setInputFiles([1, 2, 3, 4, 5, 6].map((n) => file(`note-${n}.txt`)));
    await expect.poll(() => form.getByText(APPROVAL_MSG.tooManyAttachments).isVisible()).toBe(true);
    expect(await create.isDisabled()).toBe(true);
    await files.setInputFiles([file('justification.txt')]);
    await expect.poll(() => form.getByText(APPROVAL_MSG.tooManyAttachments).count()).toBe(0);
    await settledShot(c.page, 'approvals-request-form-light');
    await create.click();
    await expect.poll(() => c.page.getByText(APPROVAL_MSG.created).isVisible()).toBe(true);
    await expect.poll(() => form.isVisible()).toBe(false);
    // Back in My Requests: pending at the manager level.
    await expect.poll(() => c.page.url()).toContain('tab=mine');
    const mine = rowOf(c.page, TITLE);
    await expect.poll(() => mine.count()).toBe(1);
    requestId = (await mine.getAttribute('data-request-id'))!;
    const mineCells = (await mine.getByRole('cell').allInnerTexts()).map((t) => t.toLowerCase());
    expect(mineCells.slice(1, 3)).toEqual(['access', 'pending']);
    expect(mineCells[4]).toContain('manager');
    expect(await mine.getByRole('button', { name: `Cancel ${TITLE}` }).isVisible()).toBe(true);

    // B has the Pending tab open and nothing is pending for them yet.
    const b = await newPage(browser);
    await signIn(b.page, server.url, ben.email, PASSWORD);
    await openApprovals(b.page, server);
    await expect.poll(() => b.page.getByText(APPROVAL_MSG.noPending).isVisible()).toBe(true);
    await expect.poll(() => b.page.getByTestId('live-indicator').getAttribute('data-state')).toBe('live');

    // A: pending for them, with the badge count.
    const a = await newPage(browser);
    await signIn(a.page, server.url, anna.email, PASSWORD);
    await openApprovals(a.page, server);
    const pendingRow = rowOf(a.page, TITLE);
    await expect.poll(() => pendingRow.count()).toBe(1);
    expect(await a.page.getByTestId('pending-count').innerText()).toBe('1');
    const pendingCells = await pendingRow.getByRole('cell').allInnerTexts();
    expect(pendingCells[1]).toMatch(/^access$/i);
    expect(pendingCells[2]).toContain('Cara Member');
    expect(pendingCells[2]).toContain(cara.email);
    expect(pendingCells[4]).toContain('Manager');
    await screenshot(a.page, 'approvals-pending-light');

    // View first: everything about the request.
    await pendingRow.getByRole('button', { name: `View ${TITLE}` }).click();
    await expect.poll(() => a.page.url()).toContain(`request=${requestId}`);
    const details = a.page.getByRole('dialog', { name: 'Request Details' });
    await expect.poll(() => details.getByTestId('request-title').innerText()).toBe(TITLE);
    expect(await details.getByTestId('approval-status').first().innerText()).toMatch(/pending/i);
    expect(await details.getByTestId('request-requester').innerText()).toContain(cara.email);
    expect(await details.getByTestId('request-current-level').innerText()).toBe('Manager (1 of 2)');
    expect(await details.getByTestId('request-description').innerText()).toContain('Ticket OPS-4411.');
    expect(JSON.parse(await details.getByTestId('request-metadata').innerText())).toEqual({ system: 'CRM', weeks: 2, client: { name: 'Initech' } });
    expect(await details.locator('pre').count()).toBe(1);
    const attachment = details.getByRole('link', { name: 'justification.txt' });
    expect(await attachment.getAttribute('download')).toBe('justification.txt');
    const downloaded = await a.page.evaluate(async (href) => (await fetch(href)).text(), (await attachment.getAttribute('href'))!);
    expect(downloaded).toBe('Contents of justification.txt\n');
    expect(await details.getByTestId('request-level-manager').getByTestId('request-level-approvers').innerText()).toContain('Anna Manager');
    expect(await details.getByTestId('request-level-director').getByTestId('request-level-approvers').innerText()).toContain('Ben Director');
    // A is an approver here: Approve, Reject and Delegate (the policy allows delegation); not the creator: no Cancel.
    const decision = details.getByTestId('request-decision');
    for (const name of ['Approve', 'Reject', 'Delegate']) expect(await decision.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    expect(await decision.getByRole('button', { name: 'Cancel Request' }).count()).toBe(0);
    await settledShot(a.page, 'approvals-details-light');
    await details.getByRole('button', { name: 'Close dialog' }).click();
    await expect.poll(() => a.page.url()).not.toContain('request=');

    // Approve from the list: the details open on the approval form.
    await pendingRow.getByRole('button', { name: `Approve ${TITLE}` }).click();
    await expect.poll(() => details.getByLabel('Comment').isVisible()).toBe(true);
    await details.getByLabel('Comment').fill('Fine for two weeks.');
    await settledShot(a.page, 'approvals-details-approve-light');
    await details.getByRole('button', { name: 'Confirm Approval' }).click();
    await expect.poll(() => a.page.getByText(APPROVAL_MSG.approved).isVisible()).toBe(true);
    const managerLevel = details.getByTestId('request-level-manager');
    await expect.poll(() => managerLevel.getByTestId('approval-status').innerText()).toMatch(/approved/i);
    expect(await managerLevel.getByTestId('request-level-decision').innerText()).toContain('Approved by Anna Manager');
    expect(await managerLevel.getByTestId('request-level-comment').innerText()).toContain('Fine for two weeks.');
    expect(await details.getByTestId('request-current-level').innerText()).toBe('Director (2 of 2)');
    // No longer A's to decide.
    expect(await details.getByTestId('request-decision').count()).toBe(0);
    await details.getByRole('button', { name: 'Close dialog' }).click();
    await expect.poll(() => a.page.getByText(APPROVAL_MSG.noPending).isVisible()).toBe(true);
    expect(await a.page.getByTestId('pending-count').innerText()).toBe('0');

    // B's Pending tab fills in without a reload (the live stream).
    const bRow = rowOf(b.page, TITLE);
    await expect.poll(() => bRow.count()).toBe(1);
    expect(await b.page.getByTestId('pending-count').innerText()).toBe('1');
    expect((await bRow.getByRole('cell').allInnerTexts())[4]).toContain('Director');

    // B opens it from the emailed link's short form; Reject needs a reason.
    await b.page.goto(`${server.url}/app/approvals?request=${requestId}`);
    await b.page.waitForURL(`**/app/approval-workflows?request=${requestId}`);
    const bDetails = b.page.getByRole('dialog', { name: 'Request Details' });
    await expect.poll(() => bDetails.getByTestId('request-title').innerText()).toBe(TITLE);
    await bDetails.getByRole('button', { name: 'Reject', exact: true }).click();
    const confirmReject = bDetails.getByRole('button', { name: 'Confirm Rejection' });
    expect(await confirmReject.isDisabled()).toBe(true);
    await bDetails.getByLabel(REQUIRED('Reason')).fill('   ');
    expect(await confirmReject.isDisabled()).toBe(true);
    await bDetails.getByLabel(REQUIRED('Reason')).fill('Not without a ticket');
    expect(await confirmReject.isDisabled()).toBe(false);
    await settledShot(b.page, 'approvals-details-reject-light');
    await bDetails.getByRole('button', { name: 'Back' }).click();
    // B approves without a comment (it is optional).
    await bDetails.getByRole('button', { name: 'Approve', exact: true }).click();
    await bDetails.getByRole('button', { name: 'Confirm Approval' }).click();
    await expect.poll(() => b.page.getByText(APPROVAL_MSG.approved).isVisible()).toBe(true);
    await expect.poll(() => bDetails.getByTestId('approval-status').first().innerText()).toMatch(/approved/i);
    expect(await bDetails.getByTestId('request-history-entry').allInnerTexts()).toEqual([
      expect.stringContaining('Created by Cara Member'),
      expect.stringMatching(/Approved by Anna Manager \(Manager\)\s+Fine for two weeks\./),
      expect.stringContaining('Approved by Ben Director (Director)'),
    ]);
    await b.context.close();
    await a.context.close();

    // C's My Requests shows Approved without a reload.
    await expect.poll(() => mine.getByTestId('approval-status').innerText()).toMatch(/approved/i);
    expect(await mine.getByRole('button', { name: `Cancel ${TITLE}` }).count()).toBe(0);
    await c.context.close();
  });

  it('rejects with the reason shown to the requester, delegates to another member, and the requester cancels from My Requests', async () => {
    const c = await newPage(browser);
    await signIn(c.page, server.url, cara.email, PASSWORD);
    const toReject = await createRequestViaApi(c.page, tenantId, { title: 'Admin rights on the payroll server', description: 'For the audit' });
    await createRequestViaApi(c.page, tenantId, { title: 'Guest Wi-Fi for visitors', description: 'Friday event' });
    const toDelegate = await createRequestViaApi(c.page, tenantId, { title: 'Printer access', description: 'Second floor' });

    const a = await newPage(browser);
    await signIn(a.page, server.url, anna.email, PASSWORD);
    await openApprovals(a.page, server, `?request=${toReject}`);
    const details = a.page.getByRole('dialog', { name: 'Request Details' });
    await details.getByRole('button', { name: 'Reject', exact: true }).click();
    await details.getByLabel(REQUIRED('Reason')).fill('Payroll needs the CFO');
    await details.getByRole('button', { name: 'Confirm Rejection' }).click();
    await expect.poll(() => a.page.getByText(APPROVAL_MSG.rejected).isVisible()).toBe(true);
    await expect.poll(() => details.getByTestId('approval-status').first().innerText()).toMatch(/rejected/i);
    expect(await details.getByTestId('request-level-manager').getByTestId('request-level-comment').innerText()).toContain('Payroll needs the CFO');

    // Delegate: A hands the manager level to the owner, who then decides it; it leaves A's Pending tab.
    await openApprovals(a.page, server, `?request=${toDelegate}`);
    await details.getByRole('button', { name: 'Delegate', exact: true }).click();
    const delegateButton = details.getByRole('button', { name: 'Delegate Request' });
    expect(await delegateButton.isDisabled()).toBe(true);
    await details.getByLabel('Delegate to', { exact: true }).click();
    // Not oneself.
    expect(await a.page.getByRole('option', { name: /Anna Manager/ }).count()).toBe(0);
    await a.page.getByRole('option', { name: `Olga Owner (${owner.email})` }).click();
    await delegateButton.click();
    await expect.poll(() => a.page.getByText(APPROVAL_MSG.delegated).isVisible()).toBe(true);
    await expect.poll(() => details.getByTestId('request-level-manager').getByTestId('request-level-approvers').innerText()).toContain('Olga Owner');
    expect(await details.getByTestId('request-history-entry').last().innerText()).toContain('Anna Manager delegated (Manager) to Olga Owner');
    expect(await details.getByTestId('request-decision').count()).toBe(0);
    await details.getByRole('button', { name: 'Close dialog' }).click();
    await expect.poll(() => rowOf(a.page, 'Printer access').count()).toBe(0);
    await a.context.close();

    await openApprovals(c.page, server, '?tab=mine');
    await expect.poll(() => rowOf(c.page, 'Admin rights on the payroll server').getByTestId('approval-status').innerText()).toMatch(/rejected/i);
    await rowOf(c.page, 'Guest Wi-Fi for visitors').getByRole('button', { name: 'Cancel Guest Wi-Fi for visitors' }).click();
    const confirm = c.page.getByRole('dialog', { name: 'Cancel Request' });
    await settledShot(c.page, 'approvals-cancel-light');
    await confirm.getByRole('button', { name: 'Cancel Request' }).click();
    await expect.poll(() => c.page.getByText(APPROVAL_MSG.cancelled).isVisible()).toBe(true);
    await expect.poll(() => rowOf(c.page, 'Guest Wi-Fi for visitors').getByTestId('approval-status').innerText()).toMatch(/cancelled/i);
    await screenshot(c.page, 'approvals-mine-light');
    await c.context.close();
  });

  it('pages All Requests for the owner; a member cannot open the owners’ tabs', async () => {
    const c = await newPage(browser);
    await signIn(c.page, server.url, cara.email, PASSWORD);
    for (let i = 1; i <= 20; i++) await createRequestViaApi(c.page, tenantId, { title: `Laptop request ${String(i).padStart(2, '0')}`, description: 'New starter' });
    // The owners' tabs are not there for a member, even from a typed URL.
    await openApprovals(c.page, server, '?tab=policies');
    expect(await c.page.getByRole('tab', { name: 'Approval Policies' }).count()).toBe(0);
    expect(await c.page.getByRole('tab', { name: 'Pending Approvals' }).getAttribute('aria-selected')).toBe('true');
    await c.context.close();

    const o = await newPage(browser);
    await signIn(o.page, server.url, owner.email, owner.password);
    await openApprovals(o.page, server, '?tab=all');
    // 24 requests: 20 on the first page.
    await expect.poll(() => o.page.getByTestId('approvals-range').innerText()).toBe('Showing 1-20 of 24');
    const header = await o.page.getByRole('columnheader').allInnerTexts();
    expect(header).toEqual(['Title', 'Type', 'Requested By', 'Status', 'Created', 'Current Level', 'Updated', 'Actions']);
    await o.page.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => o.page.getByTestId('approvals-range').innerText()).toBe('Showing 21-24 of 24');
    expect(o.page.url()).toContain('page=2');
    await screenshot(o.page, 'approvals-all-light');
    // View only.
    expect(await o.page.getByRole('button', { name: /^(Approve|Cancel) / }).count()).toBe(0);
    await o.context.close();
  });

  it('looks right in the dark theme and on a 390 px wide phone', async () => {
    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, anna.email, PASSWORD);
    await openApprovals(dark.page, server);
    await expect.poll(() => dark.page.getByTestId('approval-row').count()).toBe(20);
    await screenshot(dark.page, 'approvals-pending-dark');
    await dark.page.getByRole('button', { name: 'Approve Laptop request 01' }).click();
    const details = dark.page.getByRole('dialog', { name: 'Request Details' });
    await expect.poll(() => details.getByLabel('Comment').isVisible()).toBe(true);
    await settledShot(dark.page, 'approvals-details-dark');
    await dark.page.goto(`${server.url}/app/approval-workflows?request=${requestId}`);
    await expect.poll(() => details.getByTestId('request-history').isVisible()).toBe(true);
    // The levels and the history, at the foot of the dialog.
    await details.getByTestId('request-history').scrollIntoViewIfNeeded();
    await settledShot(dark.page, 'approvals-details-decided-dark');
    await dark.context.close();

    const ownerDark = await newPage(browser, { theme: 'dark' });
    await signIn(ownerDark.page, server.url, owner.email, owner.password);
    await openApprovals(ownerDark.page, server, '?tab=policies');
    await ownerDark.page.getByRole('button', { name: 'Edit Access requests' }).click();
    const edit = ownerDark.page.getByRole('dialog', { name: 'Edit Approval Policy' });
    await expect.poll(() => edit.getByLabel('Active').isChecked()).toBe(true);
    await edit.getByLabel(REQUIRED('Name')).fill('');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.getByText(APPROVAL_MSG.policyNameRequired).isVisible()).toBe(true);
    await settledShot(ownerDark.page, 'approvals-policy-form-dark');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    // Delete is a soft delete: the policy stays, Inactive.
    await ownerDark.page.getByRole('button', { name: 'Delete Access requests' }).click();
    const confirm = ownerDark.page.getByRole('dialog', { name: 'Delete Approval Policy' });
    await expect.poll(() => confirm.getByText(APPROVAL_MSG.deletePolicyConfirm('Access requests')).isVisible()).toBe(true);
    await settledShot(ownerDark.page, 'approvals-policy-delete-dark');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => ownerDark.page.getByText(APPROVAL_MSG.policyDeleted).isVisible()).toBe(true);
    await expect.poll(() => ownerDark.page.getByTestId('approval-policy-row').getByTestId('approval-policy-status').innerText()).toMatch(/inactive/i);
    await expect.poll(() => confirm.isVisible()).toBe(false);
    await settledShot(ownerDark.page, 'approvals-policies-dark');
    // Edit turns it back on.
    await ownerDark.page.getByRole('button', { name: 'Edit Access requests' }).click();
    await edit.getByLabel('Active').click({ force: true });
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => ownerDark.page.getByText(APPROVAL_MSG.policyUpdated).isVisible()).toBe(true);
    await expect.poll(() => ownerDark.page.getByTestId('approval-policy-row').getByTestId('approval-policy-status').innerText()).toMatch(/^active$/i);
    await ownerDark.context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, anna.email, PASSWORD);
    await openApprovals(phone.page, server);
    await expect.poll(() => phone.page.getByTestId('approval-card').count()).toBe(20);
    expect(await noSidewaysScroll(phone.page)).toBeLessThanOrEqual(390);
    await settledShot(phone.page, 'approvals-pending-narrow');
    await phone.page.getByRole('button', { name: 'View Laptop request 02' }).click();
    const phoneDetails = phone.page.getByRole('dialog', { name: 'Request Details' });
    await expect.poll(() => phoneDetails.getByTestId('request-title').isVisible()).toBe(true);
    expect(await phoneDetails.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await settledShot(phone.page, 'approvals-details-narrow');
    await phoneDetails.getByRole('button', { name: 'Close dialog' }).click();
    await phone.context.close();

    const ownerPhone = await newPage(browser, { width: 390, height: 844 });
    await signIn(ownerPhone.page, server.url, owner.email, owner.password);
    await openApprovals(ownerPhone.page, server, '?tab=policies');
    await expect.poll(() => ownerPhone.page.getByTestId('approval-policy-card').count()).toBe(1);
    expect(await noSidewaysScroll(ownerPhone.page)).toBeLessThanOrEqual(390);
    await screenshot(ownerPhone.page, 'approvals-policies-narrow');
    await ownerPhone.page.getByRole('button', { name: 'New Policy' }).click();
    const form = ownerPhone.page.getByRole('dialog', { name: 'Create Approval Policy' });
    await form.getByRole('button', { name: 'Add Level' }).click();
    await expect.poll(() => form.getByTestId('approval-policy-level-1').isVisible()).toBe(true);
    expect(await form.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await settledShot(ownerPhone.page, 'approvals-policy-form-narrow');
    await ownerPhone.context.close();
  });

  it('says so when the tenant is gone or the lists fail', async () => {
    const c = await newPage(browser);
    await signIn(c.page, server.url, cara.email, PASSWORD);
    await c.page.route(/\/api\/tenants\/[^/]+\/approvalRequests\?/, (route) => route.fulfill({ status: 500, body: '{}' }));
    await openApprovals(c.page, server);
    await expect.poll(() => c.page.getByText(APPROVAL_MSG.loadPendingFailed).isVisible(), { timeout: 20_000 }).toBe(true);
    await screenshot(c.page, 'approvals-load-error-light');
    await c.page.unroute(/\/api\/tenants\/[^/]+\/approvalRequests\?/);
    await c.page.getByText('Retry').click();
    await expect.poll(() => c.page.getByTestId('approval-row').count()).toBe(0);
    await expect.poll(() => c.page.getByText(APPROVAL_MSG.noPending).isVisible()).toBe(true);

    // The server refuses the tenant (membership ended meanwhile): the page says no.
    await c.page.route(/\/api\/tenants\/[^/]+\/approvalRequests\?/, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ error: { code: 'not_found', message: 'Not found' } }) }));
    await c.page.reload();
    await expect.poll(() => c.page.getByText(MSG.noPermission).isVisible()).toBe(true);
    await c.page.unroute(/\/api\/tenants\/[^/]+\/approvalRequests\?/);

    // No organization at all.
    await server.deps.db.deleteFrom('tenant_members').where('user_id', '=', cara.id).execute();
    await c.page.reload();
    await expect.poll(() => c.page.getByText(MSG.noTenant).isVisible()).toBe(true);
    await screenshot(c.page, 'approvals-no-tenant-light');
    await c.context.close();
  });
  it('puts every tab within reach on a 390 px phone, in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const phone = await newPage(browser, { theme, width: 390, height: 844 });
      await signIn(phone.page, server.url, owner.email, owner.password);
      await openApprovals(phone.page, server);
      for (const name of ['Pending Approvals', 'My Requests', 'All Requests', 'Approval Policies']) {
        const tab = phone.page.getByRole('tab', { name: new RegExp(`^${name}`) });
        expect(await tab.isVisible(), name).toBe(true);
        expect(await reachable(tab), name).toBe(true);
      }
      expect(await noSidewaysScroll(phone.page)).toBeLessThanOrEqual(390);
      await screenshot(phone.page, `approvals-tabs-narrow-${theme}`);
      await phone.page.getByRole('tab', { name: 'Approval Policies' }).click();
      await expect.poll(() => phone.page.url()).toContain('tab=policies');
      await expect.poll(() => phone.page.getByTestId('approval-policy-card').count()).toBe(1);
      await settledShot(phone.page, `approvals-tabs-narrow-policies-${theme}`);
      await phone.page.getByRole('tab', { name: 'All Requests' }).click();
      await expect.poll(() => phone.page.url()).toContain('tab=all');
      await expect.poll(() => phone.page.getByTestId('approval-card').count()).toBeGreaterThan(0);
      await phone.context.close();
    }
  });

  it('says when no type has an active policy, then starts from a type that has one and marks the others', async () => {
    const o = await newPage(browser);
    const nina = await registerThroughWizard(o.page, server.url, { name: 'Nina Newcomer', email: uniqueEmail('nopolicy'), org: 'Newcomer MSP' });
    const row = await server.deps.db
      .selectFrom('tenant_members')
      .innerJoin('users', 'users.id', 'tenant_members.user_id')
      .select(['tenant_id', 'user_id'])
      .where('users.email', '=', nina.email)
      .executeTakeFirstOrThrow();
    const dana = await addMember(server, row.tenant_id, 'Dana Member');

    // The owner: nothing can be requested yet, and the way to change that.
    await openApprovals(o.page, server);
    await o.page.getByRole('button', { name: 'New Request' }).first().click();
    const form = o.page.getByRole('dialog', { name: 'Create Approval Request' });
    const notice = form.getByTestId('no-type-has-policy');
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain(APPROVAL_MSG.noTypeHasPolicy);
    expect(await notice.innerText()).toContain(APPROVAL_MSG.noTypeHasPolicyManager);
    expect(await form.getByLabel('Type', { exact: true }).isDisabled()).toBe(true);
    await form.getByLabel(REQUIRED('Title')).fill('Anything');
    await form.getByLabel(REQUIRED('Description')).fill('At all');
    expect(await form.getByRole('button', { name: 'Create Request' }).isDisabled()).toBe(true);
    await settledShot(o.page, 'approvals-request-no-policy-light');
    await notice.getByRole('button', { name: 'Open Approval Policies' }).click();
    await expect.poll(() => form.isVisible()).toBe(false);
    await expect.poll(() => o.page.url()).toContain('tab=policies');
    await expect.poll(() => o.page.getByText(APPROVAL_MSG.noPolicies).isVisible()).toBe(true);

    // A member is told whom to ask.
    const d = await newPage(browser);
    await signIn(d.page, server.url, dana.email, dana.password);
    await openApprovals(d.page, server);
    await d.page.getByRole('button', { name: 'New Request' }).first().click();
    const dForm = d.page.getByRole('dialog', { name: 'Create Approval Request' });
    await expect.poll(() => dForm.getByTestId('no-type-has-policy').innerText()).toContain(APPROVAL_MSG.noTypeHasPolicyMember);
    expect(await dForm.getByRole('button', { name: 'Open Approval Policies' }).count()).toBe(0);
    await dForm.getByRole('button', { name: 'Cancel' }).click();

    // Policies for expense and change requests only (access, the spec's default, has none).
    for (const type of ['expense', 'change'])
      await o.page.evaluate(
        async ({ t, body }) => {
          const res = await fetch(`/api/tenants/${t}/approvalPolicies`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          if (res.status !== 201) throw new Error(`policy failed: ${res.status} ${await res.text()}`);
        },
        { t: row.tenant_id, body: { name: `${type} policy`, description: 'Routes them', type, levels: [{ level: 'manager', approvers: [row.user_id] }] } },
      );
    await o.context.close();

    // The form asks again each time it opens.
    await d.page.getByRole('button', { name: 'New Request' }).first().click();
    const type = dForm.getByLabel('Type', { exact: true });
    await expect.poll(() => type.inputValue()).toBe('Expense');
    expect(await dForm.getByTestId('no-type-has-policy').count()).toBe(0);
    await type.click();
    const options = d.page.getByRole('option');
    expect(await options.allInnerTexts()).toEqual(['Expense', 'Access — no active policy', 'Change', 'Custom — no active policy']);
    for (const [name, disabled] of [
      ['Expense', false],
      ['Access — no active policy', true],
      ['Change', false],
      ['Custom — no active policy', true],
    ] as const)
      expect(await d.page.getByRole('option', { name, exact: true }).isDisabled(), name).toBe(disabled);
    await settledShot(d.page, 'approvals-request-types-light');
    // A marked type cannot be chosen.
    await d.page.getByRole('option', { name: 'Access — no active policy' }).click({ force: true });
    expect(await type.inputValue()).toBe('Expense');
    await d.page.getByRole('option', { name: 'Change', exact: true }).click();
    await expect.poll(() => type.inputValue()).toBe('Change');
    await d.context.close();

    // Dark, and a phone in both themes: the marked types in the open list.
    for (const [theme, width] of [
      ['dark', 1280],
      ['light', 390],
      ['dark', 390],
    ] as const) {
      const other = await newPage(browser, { theme, width, height: 844 });
      await signIn(other.page, server.url, dana.email, dana.password);
      await openApprovals(other.page, server);
      await other.page.getByRole('button', { name: 'New Request' }).first().click();
      const f = other.page.getByRole('dialog', { name: 'Create Approval Request' });
      await expect.poll(() => f.getByLabel('Type', { exact: true }).inputValue()).toBe('Expense');
      await f.getByLabel('Type', { exact: true }).click();
      await expect.poll(() => other.page.getByRole('option', { name: 'Access — no active policy' }).isVisible()).toBe(true);
      if (width === 390) expect(await f.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      await settledShot(other.page, `approvals-request-types-${width === 390 ? 'narrow-' : ''}${theme}`);
      await other.context.close();
    }
  });

  it('builds metadata from key/value rows, in sync with the JSON view, and stores that object', async () => {
    const c = await newPage(browser);
    await signIn(c.page, server.url, anna.email, PASSWORD);
    await openApprovals(c.page, server);
    await c.page.getByRole('button', { name: 'New Request' }).first().click();
    const form = c.page.getByRole('dialog', { name: 'Create Approval Request' });
    const create = form.getByRole('button', { name: 'Create Request' });
    await form.getByLabel(REQUIRED('Title')).fill('Second monitor');
    await form.getByLabel(REQUIRED('Description')).fill('For the night shift');
    await expect.poll(() => form.getByLabel('Type', { exact: true }).inputValue()).toBe('Access');

    // Key/value rows are the first view.
    await keyOf(form, 1).fill('system');
    await valueOf(form, 1).fill('CRM');
    await form.getByRole('button', { name: 'Add row' }).click();
    await keyOf(form, 2).fill('weeks');
    await valueOf(form, 2).fill('2');
    await form.getByRole('button', { name: 'Add row' }).click();
    // A key used twice, then a value without a key: said at the row, and the form waits.
    await keyOf(form, 3).fill(' system ');
    await valueOf(form, 3).fill('ERP');
    await expect.poll(() => form.getByText(APPROVAL_MSG.metadataKeyTwice).isVisible()).toBe(true);
    expect(await create.isDisabled()).toBe(true);
    // Not switched to JSON while the rows are wrong.
    await metadataView(form, 'JSON');
    await expect.poll(() => form.getByText(APPROVAL_MSG.metadataFixRows).isVisible()).toBe(true);
    expect(await keyOf(form, 1).isVisible()).toBe(true);
    await keyOf(form, 3).fill('');
    await expect.poll(() => form.getByText(APPROVAL_MSG.metadataKeyRequired).isVisible()).toBe(true);
    expect(await form.getByText(APPROVAL_MSG.metadataKeyTwice).count()).toBe(0);
    await settledShot(c.page, 'approvals-request-rows-errors-light');
    await form.getByRole('button', { name: 'Remove row 3' }).click();
    await expect.poll(() => create.isDisabled()).toBe(false);
    expect(await form.getByTestId('metadata-row').count()).toBe(2);

    // The JSON view shows the same object; what is added there comes back as rows, a number staying a number.
    await metadataView(form, 'JSON');
    const json = form.getByLabel('Metadata (JSON)');
    await expect.poll(async () => JSON.parse((await json.inputValue()) || 'null')).toEqual({ system: 'CRM', weeks: '2' });
    await json.fill('{"system": "CRM", "weeks": "2", "amount": 120, "client": {"name": "Initech"}');
    await metadataView(form, 'Key / value');
    await expect.poll(() => form.getByText(APPROVAL_MSG.invalidJson).isVisible()).toBe(true);
    await json.fill('{"system": "CRM", "weeks": "2", "amount": 120, "client": {"name": "Initech"}}');
    await metadataView(form, 'Key / value');
    await expect.poll(() => form.getByTestId('metadata-row').count()).toBe(4);
    expect(await keyOf(form, 3).inputValue()).toBe('amount');
    expect(await valueOf(form, 3).inputValue()).toBe('120');
    expect(await form.getByTestId('metadata-row').nth(2).innerText()).toContain('JSON');
    expect(await valueOf(form, 4).inputValue()).toBe('{"name":"Initech"}');
    await form.getByRole('button', { name: 'Add row' }).click();
    await keyOf(form, 5).fill('currency');
    await valueOf(form, 5).fill('EUR');
    await settledShot(c.page, 'approvals-request-rows-light');
    await create.click();
    await expect.poll(() => c.page.getByText(APPROVAL_MSG.created).isVisible()).toBe(true);
    const mine = rowOf(c.page, 'Second monitor');
    await expect.poll(() => mine.count()).toBe(1);
    const stored = await requestViaApi(c.page, tenantId, (await mine.getAttribute('data-request-id'))!);
    expect(stored.type).toBe('access');
    expect(stored.metadata).toEqual({ system: 'CRM', weeks: '2', amount: 120, client: { name: 'Initech' }, currency: 'EUR' });
    await c.context.close();

    // The rows in the dark theme and on a phone.
    for (const [theme, width] of [
      ['dark', 1280],
      ['light', 390],
      ['dark', 390],
    ] as const) {
      const other = await newPage(browser, { theme, width, height: 844 });
      await signIn(other.page, server.url, anna.email, PASSWORD);
      await openApprovals(other.page, server);
      await other.page.getByRole('button', { name: 'New Request' }).first().click();
      const f = other.page.getByRole('dialog', { name: 'Create Approval Request' });
      await keyOf(f, 1).fill('amount');
      await valueOf(f, 1).fill('120');
      await f.getByRole('button', { name: 'Add row' }).click();
      await keyOf(f, 2).fill('amount');
      await expect.poll(() => f.getByText(APPROVAL_MSG.metadataKeyTwice).isVisible()).toBe(true);
      if (width === 390) expect(await f.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      await f.getByTestId('metadata-editor').scrollIntoViewIfNeeded();
      await settledShot(other.page, `approvals-request-rows-${width === 390 ? 'narrow-' : ''}${theme}`);
      await other.context.close();
    }
  });
});
