import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { addMember, chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, withServerAndBrowser, type E2EServer } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';
import { insertMember } from '../server/modules/members/members.repository.ts';

const SCHEDULES_URL = '/app/escalation-policies?tab=schedules';

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
});
