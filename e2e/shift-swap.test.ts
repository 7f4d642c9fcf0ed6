import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SHIFT_SWAP_MSG } from '../contract/shift-swaps.ts';
import { addMember, chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, withServerAndBrowser, type E2EServer } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { whoIsOnCall } from '../server/modules/schedules/schedules.service.ts';

const HOUR = 3600_000;
const everyDay = (shifts: unknown[]) => JSON.stringify(Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((k) => [k, shifts])));

/** The profile's My on-call card, once its shifts and swaps have loaded. */
async function openMyOnCall(page: Page, server: E2EServer) {
  await page.goto(`${server.url}/app/profile`);
  const card = page.getByTestId('my-oncall');
  await expect.poll(() => card.getByTestId('shift-swaps').isVisible()).toBe(true);
  return card;
}

/** Asks Tom Taker to take the first shift listed, as Rita does in the browser. */
async function askTomForFirstShift(page: Page, card: ReturnType<Page['getByTestId']>, shot?: string) {
  await expect.poll(() => card.getByTestId('my-shift').count()).toBeGreaterThan(0);
  await card.getByTestId('my-shift').first().getByRole('button', { name: 'Find cover' }).click();
  const dialog = page.getByRole('dialog', { name: 'Find cover' });
  await dialog.getByLabel('Covered by').selectOption({ label: 'Tom Taker' });
  await dialog.getByLabel('Note').fill('Dentist appointment');
  if (shot) await settledShot(page, shot);
  await dialog.getByRole('button', { name: 'Ask to take it' }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  await expect.poll(() => page.getByText(SHIFT_SWAP_MSG.requested('Tom Taker')).isVisible()).toBe(true);
}

describe.skipIf(!chromiumAvailable())('shift swaps and taking the pager in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => {
    server = s;
    browser = b;
    vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 100 } } });
  });

  it('asks a colleague to take a shift: approved once, rejected once, both sides seeing it; then takes the pager', async () => {
    const owner = await newPage(browser);
    const account = await registerThroughWizard(owner.page, server.url, { name: 'Olivia Owner', email: uniqueEmail('swap'), org: 'Swap MSP' });
    const { tenant_id: tenantId, user_id: ownerId } = await server.deps.db
      .selectFrom('tenant_members')
      .select(['tenant_id', 'user_id'])
      .innerJoin('users', 'users.id', 'tenant_members.user_id')
      .where('users.email', '=', account.email)
      .executeTakeFirstOrThrow();
    const rita = await addMember(server, tenantId, 'Rita Requester');
    const tom = await addMember(server, tenantId, 'Tom Taker');
    const una = await addMember(server, tenantId, 'Una Nights');
    const vic = await addMember(server, tenantId, 'Vic Volunteer');
    // Ops, in UTC with no end: Rita has the days (0–12), Una the nights (12–24). Tom and Vic are on no shift.
    const scheduleId = randomUUID();
    const at = new Date().toISOString();
    await server.deps.db
      .insertInto('oncall_schedules')
      .values({
        id: scheduleId,
        tenant_id: tenantId,
        name: 'Ops',
        description: null,
        is_default: 1,
        start_date: '2026-01-01',
        end_date: '9999-12-31',
        time_zone: 'UTC',
        rotations: everyDay([
          { startHour: 0, endHour: 12, primaryOnCall: rita.id, secondaryOnCall: null },
          { startHour: 12, endHour: 24, primaryOnCall: una.id, secondaryOnCall: null },
        ]),
        layers: '[]',
        created_by: ownerId,
        created_at: at,
        updated_at: at,
      })
      .execute();

    // Rita asks Tom to take her next shift; she sees it pending.
    const r = await newPage(browser);
    await signIn(r.page, server.url, rita.email, rita.password);
    const ritaCard = await openMyOnCall(r.page, server);
    const firstShift = await ritaCard.getByTestId('my-shift').first().innerText();
    await askTomForFirstShift(r.page, ritaCard, 'shift-swap-ask-light');
    const ritaSwap = ritaCard.getByTestId('shift-swap').first();
    await expect.poll(() => ritaSwap.innerText()).toContain('You asked Tom Taker');
    expect(await ritaSwap.getAttribute('data-status')).toBe('pending');
    expect(await ritaSwap.getByRole('button', { name: 'Cancel request' }).isVisible()).toBe(true);
    await screenshot(r.page, 'shift-swap-pending-light');
    const swap = await server.deps.db.selectFrom('shift_swaps').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();

    // Tom, in the dark theme: the swap waits for him in My on-call and in the approvals pages; he accepts.
    const t = await newPage(browser, { theme: 'dark' });
    await signIn(t.page, server.url, tom.email, tom.password);
    await t.page.goto(`${server.url}/app/approval-workflows`);
    const pendingRow = t.page.locator(`[data-testid="approval-row"][data-request-id="${swap.request_id}"]`);
    await expect.poll(() => pendingRow.innerText()).toMatch(/Shift swap: Ops/);
    expect(await pendingRow.innerText()).toMatch(/Shift swap/i);
    await screenshot(t.page, 'shift-swap-approvals-dark');
    const tomCard = await openMyOnCall(t.page, server);
    const tomSwap = tomCard.getByTestId('shift-swap').first();
    await expect.poll(() => tomSwap.innerText()).toContain('Rita Requester asks you');
    await screenshot(t.page, 'shift-swap-asked-dark');
    await tomSwap.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => tomSwap.getAttribute('data-status')).toBe('approved');
    // The shift is Tom's now, through an override; who is on call answers Tom in the middle of it.
    await expect.poll(() => tomCard.getByTestId('my-shift').count()).toBeGreaterThan(0);
    expect(await tomCard.getByTestId('my-shift').first().innerText()).toMatch(/override/i);
    const middle = new Date((Math.max(Date.parse(swap.starts_at), Date.now()) + Date.parse(swap.ends_at)) / 2);
    expect((await whoIsOnCall(server.deps.db, tenantId, scheduleId, middle))?.primary).toBe(tom.id);
    await screenshot(t.page, 'shift-swap-accepted-dark');

    // Rita sees it approved, and is told by mail; her first shift is no longer hers.
    await r.page.reload();
    await expect.poll(() => ritaCard.getByTestId('shift-swap').first().getAttribute('data-status')).toBe('approved');
    await expect.poll(() => ritaCard.getByTestId('my-shift').first().innerText()).not.toBe(firstShift);
    await expect.poll(() => server.mailer.sent.filter((m) => m.to === rita.email).map((m) => m.subject)).toContain('Your request was approved: Shift swap: Ops');

    // A second ask: Tom declines with a reason; nothing changes on the schedule and Rita is told.
    await askTomForFirstShift(r.page, ritaCard);
    const second = await server.deps.db.selectFrom('shift_swaps').selectAll().where('tenant_id', '=', tenantId).where('status', '=', 'pending').executeTakeFirstOrThrow();
    await t.page.reload();
    const asked = tomCard.locator('[data-testid="shift-swap"][data-status="pending"]');
    await expect.poll(() => asked.count()).toBe(1);
    await asked.getByRole('button', { name: 'Decline' }).click();
    const decline = t.page.getByRole('dialog', { name: 'Decline shift swap' });
    await decline.getByLabel('Reason').fill('Away that day');
    await settledShot(t.page, 'shift-swap-decline-dark');
    await decline.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => decline.isVisible()).toBe(false);
    await expect.poll(() => tomCard.locator('[data-testid="shift-swap"][data-status="rejected"]').count()).toBe(1);
    const inSecond = new Date(Math.max(Date.parse(second.starts_at), Date.now()) + 60_000);
    expect((await whoIsOnCall(server.deps.db, tenantId, scheduleId, inSecond))?.primary).toBe(rita.id);
    await expect.poll(() => server.mailer.sent.filter((m) => m.to === rita.email).map((m) => m.subject)).toContain('Your request was rejected: Shift swap: Ops');
    await r.page.reload();
    await expect.poll(() => ritaCard.locator('[data-testid="shift-swap"][data-status="rejected"]').count()).toBe(1);
    await screenshot(r.page, 'shift-swap-outcomes-light');

    // On a phone: nothing wider than the screen.
    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, rita.email, rita.password);
    const phoneCard = await openMyOnCall(phone.page, server);
    await expect.poll(() => phoneCard.getByTestId('shift-swap').count()).toBe(2);
    await screenshot(phone.page, 'shift-swap-phone');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.context.close();

    // Vic, on no shift, takes the pager for two hours; whoever had it is told.
    const v = await newPage(browser);
    await signIn(v.page, server.url, vic.email, vic.password);
    const vicCard = await openMyOnCall(v.page, server);
    const take = vicCard.getByTestId('take-pager');
    await expect.poll(() => take.isVisible()).toBe(true);
    const before = (await whoIsOnCall(server.deps.db, tenantId, scheduleId, new Date()))!.primary!;
    await take.getByLabel('Hours').fill('2');
    await take.getByRole('button', { name: 'Take the pager' }).click();
    await expect.poll(() => v.page.getByText(SHIFT_SWAP_MSG.pagerTaken('Ops')).isVisible()).toBe(true);
    expect((await whoIsOnCall(server.deps.db, tenantId, scheduleId, new Date(Date.now() + HOUR)))?.primary).toBe(vic.id);
    const replacedEmail = [rita, tom, una].find((p) => p.id === before)!.email;
    await expect.poll(() => server.mailer.sent.filter((m) => m.to === replacedEmail).map((m) => m.subject)).toContain('Vic Volunteer took your pager: Ops');
    await expect.poll(() => take.getByTestId('take-pager-reason').innerText()).toBe(SHIFT_SWAP_MSG.alreadyOnCall);
    await screenshot(v.page, 'take-pager-light');

    for (const p of [owner, r, t, v]) await p.context.close();
  });
});
