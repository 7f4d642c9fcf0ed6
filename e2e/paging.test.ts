import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

describe.skipIf(!chromiumAvailable())('paging in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('pages the on-call person by email when an alert opens; they acknowledge from the mail’s link on their phone', async () => {
    const email = uniqueEmail('pager');
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { name: 'Paula Pager', email, org: 'Paging MSP' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    const policy = await page.request.post(`${server.url}/api/tenants/${tenantId}/escalationPolicies`, {
      data: { name: 'Everything', isDefault: true, level_1: { userIds: [me.user.id], notificationChannels: ['email'] } },
    });
    expect(policy.status()).toBe(201);
    const client = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/clients`, { data: { name: 'Globex', status: 'active' } })).json();
    const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Grafana', clientId: client.id } })).json();

    const sent = await fetch(`${server.url}/api/ingest/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ title: 'API latency above 2 s', priority: 'critical', source: 'api-gw-1' }),
    });
    expect(sent.status).toBe(202);
    const { alertId } = await sent.json();

    // The worker of the running server pages level 1 at once.
    await expect.poll(() => server.mailer.sent.filter((m) => m.to === email).length).toBe(1);
    const mail = server.mailer.sent.find((m) => m.to === email)!;
    expect(mail.subject).toBe('[CRIT] Globex: API latency above 2 s');
    const ackUrl = /Acknowledge: (\S+)/.exec(mail.text)![1];
    expect(ackUrl.startsWith(`${server.url}/ack/`)).toBe(true);

    // The HTML mail, as a mail app on a phone shows it in dark mode and a desktop one in light: the Acknowledge
    // button first, readable either way.
    for (const [theme, width] of [['dark', 390], ['light', 900]] as const) {
      const reader = await newPage(browser, { width, height: 800, theme });
      await reader.page.setContent(mail.html!);
      const button = reader.page.getByRole('link', { name: 'Acknowledge' });
      expect(await button.getAttribute('href')).toBe(ackUrl);
      expect(await reader.page.getByRole('link', { name: 'Open alert' }).getAttribute('href')).toBe(`${server.url}/app/dashboard?alert=${alertId}`);
      const background = await reader.page.evaluate(() => getComputedStyle(document.querySelector('.card')!).backgroundColor);
      expect(background).toBe(theme === 'dark' ? 'rgb(26, 27, 30)' : 'rgb(255, 255, 255)');
      await screenshot(reader.page, `paging-email-${theme}-${width === 390 ? 'phone' : 'desktop'}`);
      await reader.context.close();
    }

    // The alert's timeline says who was paged and how.
    await page.goto(`${server.url}/app/dashboard?alert=${alertId}`);
    const timeline = page.getByTestId('alert-timeline');
    await expect.poll(() => timeline.innerText()).toContain('Level 1 paged: Paula Pager');
    expect(await timeline.innerText()).toContain('Email sent to Paula Pager');
    await timeline.scrollIntoViewIfNeeded();
    await screenshot(page, 'paging-timeline-light');

    // On the phone, not signed in: the link shows the alert and waits for the button.
    const phone = await newPage(browser, { width: 390, height: 844, theme: 'dark' });
    await phone.page.goto(ackUrl);
    await expect.poll(() => phone.page.getByTestId('ack-page').innerText()).toContain('API latency above 2 s');
    expect(await phone.page.getByTestId('ack-page').innerText()).toContain('Paging MSP · paged Paula Pager');
    expect(await phone.page.getByTestId('ack-client').innerText()).toBe('Globex');
    await screenshot(phone.page, 'paging-ack-dark-phone');
    expect((await (await page.request.get(`${server.url}/api/tenants/${tenantId}/alerts/${alertId}`)).json()).alert.status).toBe('new');
    await phone.page.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => phone.page.getByTestId('ack-done').innerText()).toBe('Alert acknowledged. Thank you!');
    await screenshot(phone.page, 'paging-ack-done-dark-phone');

    // The dashboard shows it acknowledged by the paged person, live.
    await expect.poll(async () => timeline.innerText()).toContain('Acknowledged by Paula Pager');

    // The link works once.
    const again = await newPage(browser, { theme: 'light' });
    await again.page.goto(ackUrl);
    await expect.poll(() => again.page.getByTestId('ack-page').innerText()).toContain('This acknowledge link was already used.');
    await screenshot(again.page, 'paging-ack-used-light');
    await again.page.goto(`${server.url}/ack/not-a-real-token-at-all`);
    await expect.poll(() => again.page.getByTestId('ack-invalid').innerText()).toContain('This acknowledge link is invalid or has expired.');
    await Promise.all([context.close(), phone.context.close(), again.context.close()]);
  });

  it('marks an alert that paged nobody and counts it in a banner; a new organization creates its default policy in one click', async () => {
    // No policy yet: the alert pages nobody.
    const { context, page } = await newPage(browser, { width: 390, height: 844, theme: 'dark' });
    await registerThroughWizard(page, server.url, { name: 'Nora Nobody', email: uniqueEmail('nobody'), org: 'Nobody MSP' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Zabbix' } })).json();
    const sent = await fetch(`${server.url}/api/ingest/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ title: 'Backup job late', priority: 'high' }),
    });
    expect(sent.status).toBe(202);
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => page.getByTestId('paged-nobody-banner').innerText()).toContain('1 alert in the last 24 h paged nobody — set up an escalation policy');
    await expect.poll(() => page.getByTestId('paged-nobody-badge').count()).toBe(1);
    await screenshot(page, 'paged-nobody-dark-phone');
    await page.getByTestId('paged-nobody-action').click();
    await page.waitForURL('**/app/escalation-policies');

    // A new organization, before its first alert: the getting-started panel's policy step, in one click.
    const fresh = await newPage(browser, { theme: 'light' });
    await registerThroughWizard(fresh.page, server.url, { name: 'Fred Fresh', email: uniqueEmail('fresh'), org: 'Fresh MSP' });
    await fresh.page.goto(`${server.url}/app/dashboard`);
    await fresh.page.getByTestId('create-default-policy').click();
    await expect.poll(() => fresh.page.getByTestId('default-policy-done').innerText()).toContain('Done');
    await screenshot(fresh.page, 'getting-started-policy-done-light');
    const freshMe = await (await fresh.page.request.get(`${server.url}/api/me`)).json();
    const policies = await (await fresh.page.request.get(`${server.url}/api/tenants/${freshMe.tenants[0].id}/escalationPolicies`)).json();
    expect(JSON.stringify(policies)).toContain(freshMe.user.id);
    await Promise.all([context.close(), fresh.context.close()]);
  });
});
