import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { patternProblem } from '../contract/integrations.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

const EMPTY = 'No events received yet: send one to see the preview';

/** The document is no wider than the window: nothing makes the page scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** The preview's line for the event whose alert has this title: its client and its rule. */
const previewOf = (page: Page, title: string) => page.getByTestId('preview-alert').filter({ hasText: title });

async function openRules(page: Page, url: string, integration: string) {
  await page.goto(`${url}/app/tenant-admin?tab=integrations`);
  await page.getByTestId('integration-card').filter({ hasText: integration }).getByRole('button', { name: 'Routing rules' }).click();
  const dialog = page.getByRole('dialog', { name: `Routing rules: ${integration}` });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  return dialog;
}

describe.skipIf(!chromiumAvailable())('routing rules editor in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('previews an unsaved rule over the recent events, refuses a bad pattern with the server’s message, saves, and routes the next event', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Rae Router', email: uniqueEmail('rules'), org: 'Route MSP' });
    const tenantId = ((await (await page.request.get(`${server.url}/api/me`)).json()) as { tenants: Array<{ id: string }> }).tenants[0].id;
    const api = `${server.url}/api/tenants/${tenantId}`;
    // "acme" is no client's name or alias (the client is "Acme Ltd"): without a rule its alerts have no client.
    const me = (await (await page.request.get(`${server.url}/api/me`)).json()) as { user: { id: string } };
    const policy = await page.request.post(`${api}/escalationPolicies`, { data: { name: 'Acme on-call', isDefault: false, level_1: { userIds: [me.user.id], notificationChannels: ['email'] } } });
    expect(policy.status(), await policy.text()).toBe(201);
    const policyId = ((await policy.json()) as { id: string }).id;
    for (const name of ['Acme Ltd', 'Globex']) expect((await page.request.post(`${api}/clients`, { data: { name, status: 'active' } })).status()).toBe(201);
    const created = (await (await page.request.post(`${api}/integrations`, { data: { name: 'Shared Prometheus' } })).json()) as { integration: { id: string }; key: string };
    const integration = { id: created.integration.id, key: created.key };
    expect((await page.request.post(`${api}/integrations`, { data: { name: 'Quiet Zabbix' } })).status()).toBe(201);

    const send = async (alertname: string, client: string) => {
      const res = await fetch(`${server.url}/api/ingest/alertmanager`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.key}` },
        body: JSON.stringify({ version: '4', status: 'firing', alerts: [{ status: 'firing', fingerprint: `${alertname}-${client}`, labels: { alertname, client, instance: `${client}-web-1` } }] }),
      });
      expect(res.status).toBe(202);
    };
    // Raw events are kept at most one a second per integration.
    await send('DiskFull', 'acme');
    await new Promise((r) => setTimeout(r, 1100));
    await send('HighCPU', 'globex');
    const kept = async () => {
      const res = await page.request.post(`${api}/integrations/${integration.id}/rules/preview`, { data: { rules: [] } });
      expect(res.status(), await res.text()).toBe(200);
      return ((await res.json()) as { events: unknown[] }).events.length;
    };
    await expect.poll(kept).toBe(2);

    // An integration that never received anything: the preview says how to get one.
    const quiet = await openRules(page, server.url, 'Quiet Zabbix');
    await expect.poll(() => quiet.getByTestId('preview-empty').innerText()).toBe(EMPTY);
    expect(await quiet.getByTestId('rules-empty').isVisible()).toBe(true);
    await settledShot(page, 'routing-rules-empty-light');
    await quiet.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => quiet.isVisible()).toBe(false);
    // A preview the server cannot answer (a database away, say): said so, with a retry.
    await page.route('**/rules/preview', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unavailable', message: 'Database unavailable' } }) }));
    const failing = await openRules(page, server.url, 'Quiet Zabbix');
    await expect.poll(() => failing.getByTestId('preview-error').innerText(), { timeout: 10_000 }).toContain('The preview could not be loaded');
    await settledShot(page, 'routing-rules-preview-error-light');
    await page.unroute('**/rules/preview');
    await failing.getByTestId('preview-error').getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => failing.getByTestId('preview-empty').innerText()).toBe(EMPTY);
    await failing.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => failing.isVisible()).toBe(false);

    const dialog = await openRules(page, server.url, 'Shared Prometheus');
    await expect.poll(() => dialog.getByTestId('preview-event').count()).toBe(2);
    await expect.poll(() => previewOf(page, 'DiskFull').getByTestId('preview-client').innerText()).toBe('No client');
    expect(await previewOf(page, 'HighCPU').getByTestId('preview-client').innerText()).toBe('Globex');
    expect(await previewOf(page, 'DiskFull').getByTestId('preview-rule').textContent()).toBe('No rule');

    // labels.client equals acme → Acme Ltd, the field chosen among those seen on the recent events.
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    const rule = dialog.getByTestId('routing-rule').first();
    await rule.getByLabel('Field', { exact: true }).fill('tags.cl');
    await page.getByRole('option', { name: /^tags\.client/ }).click();
    expect(await rule.getByLabel('Field', { exact: true }).inputValue()).toBe('tags.client');
    await rule.getByLabel('Value', { exact: true }).fill('acme');
    await rule.getByLabel('Client to set').click();
    await page.getByRole('option', { name: 'Acme Ltd' }).click();
    await rule.getByLabel('Escalation policy').click();
    await page.getByRole('option', { name: 'Acme on-call' }).click();
    // The preview follows before anything is saved.
    await expect.poll(() => previewOf(page, 'DiskFull').getByTestId('preview-client').innerText()).toBe('Acme Ltd');
    expect(await previewOf(page, 'DiskFull').getByTestId('preview-rule').textContent()).toBe('Rule 1');
    await expect.poll(() => previewOf(page, 'DiskFull').getByTestId('preview-policy').innerText()).toBe('Escalation policy: Acme on-call');
    expect(await previewOf(page, 'HighCPU').getByTestId('preview-policy').count()).toBe(0);
    expect(await previewOf(page, 'HighCPU').getByTestId('preview-client').innerText()).toBe('Globex');
    expect(((await (await page.request.get(`${api}/integrations/${integration.id}/rules`)).json()) as { rules: unknown[] }).rules).toEqual([]);
    await settledShot(page, 'routing-rules-light');

    // A pattern that does not compile: the preview pauses with the server's message, Save shows it at the value.
    const badPattern = '^acme(';
    const message = patternProblem(badPattern)!;
    expect(message).toBeTruthy();
    await rule.getByLabel('Operator').selectOption('matches');
    await rule.getByLabel('Value', { exact: true }).fill(badPattern);
    await expect.poll(() => dialog.getByTestId('preview-refused').innerText()).toContain(`Rule 1: ${message}`);
    await dialog.getByRole('button', { name: 'Save rules' }).click();
    await expect.poll(() => rule.getByText(message, { exact: true }).isVisible()).toBe(true);
    await settledShot(page, 'routing-rules-bad-pattern-light');
    await rule.getByLabel('Value', { exact: true }).fill('^acme$');
    await expect.poll(() => rule.getByText(message, { exact: true }).count()).toBe(0);
    await expect.poll(() => dialog.getByTestId('preview-refused').count()).toBe(0);
    await expect.poll(() => previewOf(page, 'DiskFull').getByTestId('preview-client').innerText()).toBe('Acme Ltd');

    await dialog.getByRole('button', { name: 'Save rules' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const saved = (await (await page.request.get(`${api}/integrations/${integration.id}/rules`)).json()) as { rules: unknown[] };
    expect(saved.rules).toEqual([{ when: [{ field: 'tags.client', op: 'matches', value: '^acme$' }], then: { clientId: expect.any(String), escalationPolicyId: policyId } }]);

    // The next event from acme lands on Acme Ltd.
    await send('BackupFailed', 'acme');
    await page.goto(`${server.url}/app/dashboard`);
    const card = page.getByTestId('alert-card').filter({ hasText: 'BackupFailed' });
    await expect.poll(() => card.getByTestId('alert-client').innerText()).toBe('Acme Ltd');
    await context.close();

    // Dark, and a phone's width in both themes: the editor with its rule and the preview.
    for (const opts of [{ theme: 'dark' as const }, { theme: 'light' as const, width: 390, height: 844 }, { theme: 'dark' as const, width: 390, height: 844 }]) {
      const other = await newPage(browser, opts);
      await signIn(other.page, server.url, owner.email, owner.password);
      const d = await openRules(other.page, server.url, 'Shared Prometheus');
      await expect.poll(() => d.getByTestId('routing-rule').count()).toBe(1);
      await expect.poll(() => previewOf(other.page, 'DiskFull').getByTestId('preview-client').innerText()).toBe('Acme Ltd');
      const name = `routing-rules${opts.width ? '-narrow' : ''}-${opts.theme}`;
      if (opts.width) {
        await expectNoSidewaysScroll(other.page);
        // The modal takes the whole screen: every part of the rule fits its width.
        const box = await d.getByTestId('routing-rule').boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      }
      await settledShot(other.page, name);
      if (opts.width) {
        await d.getByTestId('rules-preview').scrollIntoViewIfNeeded();
        await settledShot(other.page, `${name}-preview`);
      }
      await other.context.close();
    }
    // The integrations tab itself, with the new action, at a phone's width.
    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, owner.email, owner.password);
    await phone.page.goto(`${server.url}/app/tenant-admin?tab=integrations`);
    await expect.poll(() => phone.page.getByRole('button', { name: 'Routing rules' }).count()).toBe(2);
    await expectNoSidewaysScroll(phone.page);
    await screenshot(phone.page, 'routing-rules-card-narrow-light');
    await phone.context.close();
  });
});
