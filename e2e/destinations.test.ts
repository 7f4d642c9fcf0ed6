import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESTINATION_MSG } from '../contract/destinations.ts';
import { ESCALATION_MSG } from '../contract/escalation.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, settledShot, signIn, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

const card = (page: Page, name: string) => page.locator(`[data-testid="destination-card"][data-name="${name}"]`);

describe.skipIf(!chromiumAvailable())('Destinations in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  // A local webhook receiver: answers 500 to the first request, 200 after.
  const got: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(got.length === 1 ? 500 : 200).end(got.length === 1 ? 'receiver hiccup' : 'ok');
    });
  });
  let hookUrl = '';
  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alertdesk`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));
  withServerAndBrowser(
    (s, b) => ([server, browser] = [s, b]),
    () => ({ outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } }),
  );

  it('creates a webhook, shows its secret once, sends a test event, shows the delivery log and sends again', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Wanda Webhook', email: uniqueEmail('owner'), org: 'Hook MSP' });
    await page.goto(`${server.url}/app/tenant-admin?tab=destinations`);
    await expect.poll(() => page.getByTestId('destinations-empty').innerText()).toBe(DESTINATION_MSG.none);
    await screenshot(page, 'destinations-empty-light');

    await page.getByRole('button', { name: 'New destination' }).click();
    const form = page.getByRole('dialog', { name: 'New destination' });
    await form.getByText('Webhook', { exact: true }).click();
    await form.getByRole('button', { name: 'Create destination' }).click();
    await expect.poll(() => form.getByText(DESTINATION_MSG.nameRequired).isVisible()).toBe(true);
    await form.getByLabel('Name').fill('PSA bridge');
    await form.getByLabel('URL').fill(hookUrl);
    await form.getByLabel('Alert resolved').uncheck();
    await settledShot(page, 'destinations-form-light');
    await form.getByRole('button', { name: 'Create destination' }).click();

    const secret = page.getByTestId('destination-secret');
    await expect.poll(() => secret.getByText(DESTINATION_MSG.secretShownOnce).isVisible()).toBe(true);
    expect(await secret.getByTestId('copy-signing secret').innerText()).toMatch(/^whsec_/);
    await settledShot(page, 'destinations-secret-light');
    await secret.getByRole('button', { name: 'I have copied the secret' }).click();

    const row = card(page, 'PSA bridge');
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.innerText()).toContain('Alert triggered, Alert acknowledged');
    await row.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.getByText(/Test event to PSA bridge: HTTP 500/).isVisible()).toBe(true);
    expect(got).toHaveLength(1);
    expect(got[0].headers['webhook-signature']).toMatch(/^v1,/);
    await screenshot(page, 'destinations-light');

    await row.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByTestId('delivery-log');
    await expect.poll(() => log.getByTestId('delivery-row').count()).toBe(1);
    expect(await log.getByTestId('delivery-outcome').innerText()).toMatch(/^HTTP 500 in \d+ ms; next attempt /);
    expect(await log.innerText()).toContain('receiver hiccup');
    await settledShot(page, 'destinations-log-light');
    // A pending delivery is retried on its schedule; the test event's is sent again from its row once it is settled:
    // here it waits for its 5 s retry, which the worker sends.
    await expect.poll(() => log.getByTestId('delivery-row').getAttribute('data-status'), { timeout: 20_000 }).toBe('succeeded');
    await log.getByRole('button', { name: 'Send again' }).click();
    await expect.poll(() => got.length).toBe(3);
    expect(got[2].headers['webhook-id']).toBe(got[0].headers['webhook-id']);
    await page.keyboard.press('Escape');

    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, owner.email, owner.password);
    await dark.page.goto(`${server.url}/app/tenant-admin?tab=destinations`);
    await expect.poll(() => card(dark.page, 'PSA bridge').isVisible()).toBe(true);
    await screenshot(dark.page, 'destinations-dark');
    await card(dark.page, 'PSA bridge').getByRole('button', { name: 'Edit' }).click();
    await settledShot(dark.page, 'destinations-form-dark');
    await dark.context.close();

    const phone = await newPage(browser, { width: 390, height: 844 });
    await signIn(phone.page, server.url, owner.email, owner.password);
    await phone.page.goto(`${server.url}/app/tenant-admin?tab=destinations`);
    await expect.poll(() => card(phone.page, 'PSA bridge').isVisible()).toBe(true);
    const { scrollWidth, innerWidth } = await phone.page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await screenshot(phone.page, 'destinations-phone');
    await card(phone.page, 'PSA bridge').getByRole('button', { name: 'Delivery log' }).click();
    await settledShot(phone.page, 'destinations-log-phone');
    await phone.context.close();

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByTestId('confirm-modal').getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByTestId('destination-secret');
    await expect.poll(() => rotated.getByText(DESTINATION_MSG.secretShownOnce).isVisible()).toBe(true);
    expect(await rotated.getByTestId('copy-signing secret').innerText()).toMatch(/^whsec_/);
    await rotated.getByRole('button', { name: 'I have copied the secret' }).click();

    await row.getByRole('button', { name: 'Delete PSA bridge' }).click();
    await page.getByTestId('confirm-modal').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('destinations-empty').isVisible()).toBe(true);
    await context.close();
  });

  it('creates a Microsoft Teams destination (the retired connector URL refused), whose card buttons act from the browser, in both themes', async () => {
    // A Teams Workflows stand-in: takes the card, answers 202 Accepted.
    const cards: any[] = [];
    const teams = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        cards.push(JSON.parse(body));
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((r) => teams.listen(0, '127.0.0.1', r));
    const teamsUrl = `http://127.0.0.1:${(teams.address() as AddressInfo).port}/workflows/noc/triggers/manual/paths/invoke?sig=x`;
    try {
      const { context, page } = await newPage(browser);
      const owner = await registerThroughWizard(page, server.url, { name: 'Tess Teams', email: uniqueEmail('teams'), org: 'Teams MSP' });
      await page.goto(`${server.url}/app/tenant-admin?tab=destinations`);
      await page.getByRole('button', { name: 'New destination' }).click();
      const form = page.getByRole('dialog', { name: 'New destination' });
      await form.getByLabel('Name').fill('NOC channel');
      await form.getByLabel('URL').fill('https://contoso.webhook.office.com/webhookb2/abc/IncomingWebhook/def/ghi');
      await form.getByRole('button', { name: 'Create destination' }).click();
      await expect.poll(() => form.getByText(DESTINATION_MSG.teamsConnectorRetired).isVisible()).toBe(true);
      await settledShot(page, 'destinations-teams-form-light');
      await form.getByLabel('URL').fill(teamsUrl);
      await form.getByRole('button', { name: 'Create destination' }).click();
      const row = card(page, 'NOC channel');
      await expect.poll(() => row.isVisible()).toBe(true);
      expect(await row.getAttribute('data-type')).toBe('teams');
      expect(await row.getByRole('button', { name: 'Rotate secret' }).count()).toBe(0);
      await screenshot(page, 'destinations-teams-light');

      const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
      const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Prometheus' } })).json();
      const res = await fetch(`${server.url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ title: 'Backup failed on fs-1', priority: 'high' }) });
      expect(res.status).toBe(202);
      await expect.poll(() => cards.length, { timeout: 10_000 }).toBe(1);
      const actions = cards[0].attachments[0].content.actions as Array<{ title: string; url: string }>;
      expect(actions.map((a) => a.title)).toEqual(['Acknowledge', 'Resolve', 'Open']);

      await page.goto(actions[0].url);
      const linkPage = page.getByTestId('chat-link-page');
      await expect.poll(() => linkPage.innerText()).toContain('Backup failed on fs-1');
      await screenshot(page, 'chat-link-light');
      await linkPage.getByTestId('chat-link-act').click();
      await expect.poll(() => page.getByTestId('chat-link-done').innerText()).toBe(DESTINATION_MSG.actionDone('acknowledged'));

      const dark = await newPage(browser, { theme: 'dark' });
      await signIn(dark.page, server.url, owner.email, owner.password);
      await dark.page.goto(actions[1].url);
      await expect.poll(() => dark.page.getByTestId('chat-link-page').innerText()).toContain('Status: Acknowledged');
      await screenshot(dark.page, 'chat-link-dark');
      await dark.page.goto(`${server.url}/app/tenant-admin?tab=destinations`);
      await expect.poll(() => card(dark.page, 'NOC channel').isVisible()).toBe(true);
      await screenshot(dark.page, 'destinations-teams-dark');
      await dark.page.getByRole('button', { name: 'New destination' }).click();
      const slackForm = dark.page.getByRole('dialog', { name: 'New destination' });
      await slackForm.getByText('Slack', { exact: true }).click();
      await expect.poll(() => slackForm.getByTestId('slack-link-explain').innerText()).toBe(DESTINATION_MSG.slackLinkExplain);
      await settledShot(dark.page, 'destinations-slack-form-dark');
      await dark.context.close();
      await context.close();
    } finally {
      await new Promise<void>((r) => teams.close(() => r()));
    }
  });
  it('lets an escalation level also post to a destination, shown on the policy card, in both themes', async () => {
    const { context, page } = await newPage(browser);
    const owner = await registerThroughWizard(page, server.url, { name: 'Nora Noc', email: uniqueEmail('levels'), org: 'Level MSP' });
    const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
    const created = await page.request.post(`${server.url}/api/tenants/${tenantId}/destinations`, { data: { name: 'NOC Globex', url: hookUrl, events: ['alert.resolved'] } });
    expect(created.status()).toBe(201);
    const destinationId = (await created.json()).id as string;

    await page.goto(`${server.url}/app/escalation-policies`);
    await page.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Policy' });
    await dialog.getByLabel(/^Policy name( \*)?$/).fill('NOC policy');
    const level1 = dialog.getByTestId('policy-form-level_1');
    await level1.getByRole('combobox', { name: 'Users' }).click();
    await page.getByRole('option', { name: 'Nora Noc', exact: true }).click();
    await page.keyboard.press('Escape');
    await level1.getByRole('combobox', { name: DESTINATION_MSG.levelPostsLabel }).click();
    await page.getByRole('option', { name: 'NOC Globex (Webhook)', exact: true }).click();
    await page.keyboard.press('Escape');
    await level1.getByText(DESTINATION_MSG.levelPostsHelp).scrollIntoViewIfNeeded();
    await settledShot(page, 'policy-level-destinations-form-light');
    await dialog.getByRole('button', { name: ESCALATION_MSG.createPolicy }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const levelPosts = page.getByTestId('policy-level_1').getByTestId('policy-level-destinations');
    await expect.poll(() => levelPosts.innerText()).toBe('Also posts to: NOC Globex (Webhook)');
    const policies = await (await page.request.get(`${server.url}/api/tenants/${tenantId}/escalationPolicies`)).json();
    expect(policies.items[0].level_1.destinationIds).toEqual([destinationId]);
    await screenshot(page, 'policy-level-destinations-light');

    const dark = await newPage(browser, { theme: 'dark' });
    await signIn(dark.page, server.url, owner.email, owner.password);
    await dark.page.goto(`${server.url}/app/escalation-policies`);
    await expect.poll(() => dark.page.getByTestId('policy-level-destinations').innerText()).toBe('Also posts to: NOC Globex (Webhook)');
    await screenshot(dark.page, 'policy-level-destinations-dark');
    await dark.page.getByRole('button', { name: 'Edit NOC policy' }).click();
    const edit = dark.page.getByRole('dialog', { name: 'Edit Policy' });
    const picked = edit.getByTestId('policy-destinations-level_1');
    await expect.poll(() => edit.getByTestId('policy-form-level_1').getByText('NOC Globex (Webhook)').isVisible()).toBe(true);
    await picked.scrollIntoViewIfNeeded();
    await settledShot(dark.page, 'policy-level-destinations-form-dark');
    await dark.context.close();
    await context.close();
  });
});
