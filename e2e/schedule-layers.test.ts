import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { addMember, chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, withServerAndBrowser, type E2EServer } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { insertMember } from '../server/modules/members/members.repository.ts';

const SCHEDULES_URL = '/app/escalation-policies?tab=schedules';
const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

async function addPerson(server: E2EServer, tenantId: string, displayName: string) {
  const at = new Date().toISOString();
  const id = randomUUID();
  const email = uniqueEmail('layer');
  await server.deps.db.insertInto('users').values({ id, email, display_name: displayName, password_hash: null, role: 'user', plan: null, oidc_subject: null, created_at: at, updated_at: at, last_sign_in_at: null }).execute();
  await insertMember(server.deps.db, { id: randomUUID(), tenant_id: tenantId, user_id: id, email, display_name: displayName, role: 'user', status: 'active', joined_at: at, invited_by: null, created_at: at });
  return id;
}

describe.skipIf(!chromiumAvailable())('rotation layers in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('builds a weekly rotation of three people with office hours on top, previews the handoffs, and shows who is on call', async () => {
    const { page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { name: 'Olivia Owner', email: uniqueEmail('layers'), org: 'Layer MSP' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    await addPerson(server, tenantId, 'Ben Backup');
    await addPerson(server, tenantId, 'Carla Cover');

    await page.goto(`${server.url}${SCHEDULES_URL}`);
    await page.getByRole('button', { name: 'Create Schedule' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Schedule' });
    await dialog.getByLabel(/^Name/).fill('Weekly rotation');
    await dialog.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByRole('listbox').getByRole('option', { name: 'Europe/Berlin' }).click();
    await dialog.getByRole('button', { name: 'Add layer' }).click();
    const layer = dialog.getByTestId('layer');
    for (const name of ['Olivia Owner', 'Ben Backup', 'Carla Cover']) {
      await layer.getByLabel('Add a person to layer 1').click();
      await page.getByRole('listbox').getByRole('option', { name }).click();
    }
    const turns = (await layer.getByTestId('layer-participant').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(turns).toEqual(['1. Olivia Owner', '2. Ben Backup', '3. Carla Cover']);
    // The preview names the next four handoffs in turn, at 09:00 in Berlin.
    await expect.poll(() => layer.getByTestId('layer-preview').innerText()).toMatch(/^Next handoffs: .*09:00 → /);
    expect((await layer.getByTestId('layer-preview').innerText()).split(' · ')).toHaveLength(4);
    // The weekly shifts are optional beneath layers: this schedule has none.
    await dialog.getByLabel('Weekly shifts beneath the layers').uncheck();
    await settledShot(page, 'schedule-layers-form-light');
    await dialog.getByRole('button', { name: 'Create Schedule' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    const card = page.getByTestId('schedule-card').filter({ hasText: 'Weekly rotation' });
    await expect.poll(() => card.getByTestId('schedule-layers').innerText()).toContain('Olivia Owner → Ben Backup → Carla Cover');
    // The rotation starts next Monday: nobody until then, and Olivia first.
    await expect.poll(() => card.getByTestId('on-call-primary').innerText()).toBe('No one on call');
    await expect.poll(() => card.getByTestId('next-handover').innerText()).toContain('Olivia Owner');
    expect(await card.getByTestId('coverage-gaps').count()).toBe(0);
    await screenshot(page, 'schedule-layers-card-light');

    // Saved as typed: the API answers the layer with its first handoff at 09:00 Berlin time.
    const list = await (await page.request.get(`${server.url}/api/tenants/${tenantId}/onCallSchedules`)).json();
    const saved = list.items.find((s: { name: string }) => s.name === 'Weekly rotation');
    expect(saved.layers[0].participants).toHaveLength(3);
    expect(new Date(saved.layers[0].start).toLocaleTimeString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' })).toBe('09:00');

    // A member who is not an owner or admin reads the schedules (and who is on call), and changes nothing.
    const member = await addMember(server, tenantId, 'Uma User');
    const { page: m } = await newPage(browser);
    await signIn(m, server.url, member.email, member.password);
    await m.getByRole('link', { name: 'On-Call Schedules' }).click();
    const theirs = m.getByTestId('schedule-card').filter({ hasText: 'Weekly rotation' });
    await expect.poll(() => theirs.getByTestId('schedule-layers').isVisible()).toBe(true);
    expect(await m.getByRole('tab').allInnerTexts()).toEqual(['On-Call Schedules', 'Maintenance']);
    expect(await m.getByRole('button', { name: 'Create Schedule' }).count()).toBe(0);
    expect(await theirs.getByRole('button', { name: 'Edit Weekly rotation' }).count()).toBe(0);
    await screenshot(m, 'schedule-layers-member-light');

    for (const theme of ['dark'] as const) {
      const { page: p } = await newPage(browser, { theme, width: 390, height: 844 });
      await p.context().addCookies(await page.context().cookies());
      await p.goto(`${server.url}${SCHEDULES_URL}`);
      await expect.poll(() => p.getByTestId('schedule-layers').first().isVisible()).toBe(true);
      await screenshot(p, `schedule-layers-card-${theme}-phone`);
      await p.getByRole('button', { name: 'Edit Weekly rotation' }).click();
      await expect.poll(() => p.getByTestId('layer').count()).toBe(1);
      await settledShot(p, `schedule-layers-form-${theme}-phone`);
    }
  });

  it('draws each layer, the weekly shifts, the overrides and the final schedule as rows of the 14-day timeline, light and dark, desktop and phone', async () => {
    const { page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { name: 'Olivia Owner', email: uniqueEmail('layers-tl'), org: 'Timeline MSP' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    const ben = await addPerson(server, tenantId, 'Ben Backup');
    const carla = await addPerson(server, tenantId, 'Carla Cover');
    const members = (await (await page.request.get(`${server.url}/api/tenants/${tenantId}/onCallMembers`)).json()).items as Array<{ userId: string; displayName: string }>;
    const olivia = members.find((m) => m.displayName === 'Olivia Owner')!.userId;
    // A weekly rotation that began three days ago at 09:00 Berlin time (Olivia's week), office hours on top, Ben
    // beneath all of it in the weekly shifts; Carla covers Olivia for 20 hours from the next hour.
    const start = new Date(Date.now() - 3 * 86_400_000);
    start.setUTCHours(8, 0, 0, 0);
    const allDay = [{ startHour: 0, endHour: 24, primaryOnCall: ben, secondaryOnCall: null }];
    const created = await page.request.post(`${server.url}/api/tenants/${tenantId}/onCallSchedules`, {
      data: {
        name: 'Layered rotation',
        startTime: '2026-01-01',
        endTime: null,
        timeZone: 'Europe/Berlin',
        rotations: Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((k) => [k, allDay])),
        layers: [
          { name: 'Weekly', participants: [olivia, ben, carla], start: start.toISOString(), shiftLength: { unit: 'weeks', count: 1 } },
          { name: 'Office hours', participants: [carla], start: start.toISOString(), shiftLength: { unit: 'days', count: 1 }, restrictions: [{ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' }] },
        ],
      },
    });
    expect(created.status()).toBe(201);
    const id = (await created.json()).id as string;
    const from = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    const override = await page.request.post(`${server.url}/api/tenants/${tenantId}/onCallSchedules/${id}/overrides`, {
      data: { replacedUserId: olivia, userId: carla, startsAt: from.toISOString(), endsAt: new Date(from.getTime() + 20 * 3_600_000).toISOString() },
    });
    expect(override.status()).toBe(201);

    for (const [theme, width] of [
      ['light', 1280],
      ['dark', 1280],
      ['light', 390],
      ['dark', 390],
    ] as const) {
      const { page: p, context } = await newPage(browser, { theme, width, height: width === 390 ? 844 : 900 });
      await context.addCookies(await page.context().cookies());
      await p.goto(`${server.url}${SCHEDULES_URL}`);
      const card = p.getByTestId('schedule-card').filter({ hasText: 'Layered rotation' });
      await card.getByRole('button', { name: 'Timeline and overrides' }).click();
      const grid = card.getByTestId('timeline-grid');
      const rows = grid.getByTestId('timeline-row');
      await expect.poll(() => rows.count()).toBe(5);
      // One labelled row per layer (highest first), the weekly shifts, the overrides, then the final schedule.
      expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-name')))).toEqual(['Office hours', 'Weekly', 'Weekly shifts', 'Overrides', 'Final schedule']);
      const row = (name: string) => grid.locator(`[data-testid="timeline-row"][data-name="${name}"]`);
      expect(await row('Office hours').getByTestId('timeline-row-segment').count()).toBe(10);
      expect(await row('Weekly').getByTestId('timeline-row-segment').count()).toBeGreaterThanOrEqual(2);
      expect(await row('Weekly').getByTestId('timeline-row-segment').first().getAttribute('data-label')).toBe('Olivia Owner');
      expect(await row('Overrides').getByTestId('timeline-row-segment').first().getAttribute('data-label')).toBe('Carla Cover for Olivia Owner');
      expect(await row('Final schedule').getByTestId('timeline-override').first().getAttribute('data-label')).toContain('Carla Cover');
      expect(await row('Final schedule').getByTestId('timeline-gap').count()).toBe(0);
      await expect.poll(() => grid.getByTestId('timeline-now').count()).toBe(1);
      if (width === 390) {
        // The page keeps to the phone; the days scroll sideways inside the grid, the row names stay in view.
        expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        expect(await grid.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
        await grid.evaluate((el) => el.scrollBy({ left: 400 }));
        expect(await row('Office hours').getByText('Office hours').isVisible()).toBe(true);
        await grid.screenshot({ path: path.join(SHOTS, `schedule-timeline-layers-${theme}-phone-scrolled.png`) });
      }
      await grid.scrollIntoViewIfNeeded();
      await screenshot(p, `schedule-timeline-layers-${theme}-${width === 390 ? 'phone' : 'desktop'}`);
      // The grid as seen (a full-page shot moves sticky parts about).
      if (width !== 390) await grid.screenshot({ path: path.join(SHOTS, `schedule-timeline-layers-${theme}-desktop-grid.png`) });
      await context.close();
    }
  });
});
