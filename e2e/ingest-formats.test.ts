import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { INGEST_FORMATS, INGEST_FORMAT_LABELS } from '../contract/ingest-formats.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

describe.skipIf(!chromiumAvailable())('alert sources in Chromium: format URLs and client aliases', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('lists a copyable URL per vendor format on the integration card, in both themes and a narrow window', async () => {
    const { context, page } = await newPage(browser);
    const who = await registerThroughWizard(page, server.url, { email: uniqueEmail('formats'), org: 'Formats MSP' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    expect((await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Shared RMM' } })).status()).toBe(201);

    for (const theme of ['light', 'dark'] as const) {
      const { context: c, page: p } = theme === 'light' ? { context, page } : await newPage(browser, { theme });
      if (theme === 'dark') await signIn(p, server.url, who.email, who.password);
      await p.goto(`${server.url}/app/tenant-admin`);
      await p.getByRole('tab', { name: 'Integrations' }).click();
      const card = p.getByTestId('integration-card').filter({ hasText: 'Shared RMM' });
      await card.getByTestId('integration-formats').getByRole('button').click();
      for (const format of INGEST_FORMATS) {
        const url = (await card.getByTestId(`copy-${INGEST_FORMAT_LABELS[format]} URL`).innerText()).trim();
        expect(url).toBe(`${server.url}/api/ingest/${format}`);
      }
      await p.waitForTimeout(300);
      await screenshot(p, `ingest-formats-card-${theme}`);
      if (theme === 'dark') await c.close();
    }

    await page.setViewportSize({ width: 380, height: 800 });
    await page.waitForTimeout(200);
    // Nothing scrolls sideways in a phone-wide window.
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'ingest-formats-card-narrow');
    await context.close();
  });

  it('edits a client’s aliases in the client form, and an alert naming an alias lands on that client', async () => {
    const { context, page } = await newPage(browser);
    const who = await registerThroughWizard(page, server.url, { email: uniqueEmail('aliases'), org: 'Alias MSP' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    const created = await page.request.post(`${server.url}/api/tenants/${tenantId}/clients`, { data: { name: 'Acme Corp', status: 'active' } });
    const clientId = (await created.json()).id as string;
    const integration = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Datto RMM' } })).json();

    await page.goto(`${server.url}/app/clients`);
    await page.getByRole('button', { name: 'Edit Acme Corp' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Client' });
    const aliases = dialog.getByLabel('Aliases');
    for (const alias of ['Acme Corp HQ', '123456789012']) {
      await aliases.fill(alias);
      await aliases.press('Enter');
    }
    await settledShot(page, 'client-aliases-light');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const saved = await (await page.request.get(`${server.url}/api/tenants/${tenantId}/clients/${clientId}`)).json();
    expect(saved.aliases).toEqual(['Acme Corp HQ', '123456789012']);

    // A Datto RMM alert from the site "Acme Corp HQ" is Acme's.
    const res = await fetch(`${server.url}/api/ingest/datto-rmm/${integration.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ alertUid: 'e2e-1', alertMessage: 'Disk usage on C: is 95%', priority: 'High', hostname: 'ACME-DC01', siteName: 'acme corp hq' }),
    });
    expect(res.status).toBe(202);
    const row = await server.deps.db.selectFrom('alerts').select('client_id').where('dedup_key', '=', 'datto-rmm:e2e-1').executeTakeFirstOrThrow();
    expect(row.client_id).toBe(clientId);

    const { context: dark, page: darkPage } = await newPage(browser, { theme: 'dark' });
    await signIn(darkPage, server.url, who.email, who.password);
    await darkPage.goto(`${server.url}/app/clients`);
    await darkPage.getByRole('button', { name: 'Edit Acme Corp' }).click();
    await expect.poll(() => darkPage.getByRole('dialog', { name: 'Edit Client' }).getByText('123456789012').isVisible()).toBe(true);
    await settledShot(darkPage, 'client-aliases-dark');
    await dark.close();
    await context.close();
  });
});
