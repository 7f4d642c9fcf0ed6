import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '../contract/messages.ts';
import { ALERT_MSG } from '../contract/alerts.ts';
import { INTEGRATION_MSG } from '../contract/integrations.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser, signIn, addMember } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/** Posts to an ingestion endpoint the way a monitoring tool does. */
async function send(server: E2EServer, path: string, body: unknown, key?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(202);
  return res.json();
}


const card = (page: Page, title: string) => page.getByTestId('alert-card').filter({ hasText: title });
const count = (page: Page, key: string) => page.getByTestId(`stat-${key}-count`).innerText();

describe.skipIf(!chromiumAvailable())('alerts in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('shows events from every endpoint live on every open dashboard, and handles one through the modal', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { name: 'Rita Register', email: uniqueEmail('alerts'), org: 'Acme Operations' });
    const me = await (await page.request.get(`${server.url}/api/me`)).json();
    const tenantId = me.tenants[0].id as string;
    const created = await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Prometheus' } });
    expect(created.status()).toBe(201);
    const { key } = await created.json();
    const memberName = 'Mo Member';
    const member = await addMember(server, tenantId, memberName);

    // Before its first alert, the tenant's dashboard shows how to send one, with this server's address in it.
    await expect.poll(() => page.getByTestId('getting-started').isVisible()).toBe(true);
    expect(await page.getByTestId('copy-curl command').innerText()).toContain(`${server.url}/api/ingest/events`);
    expect(await page.getByTestId('copy-Alertmanager receiver').innerText()).toContain(`url: ${server.url}/api/ingest/alertmanager`);
    expect(await page.getByTestId('alerts-empty').count()).toBe(0);
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state')).toBe('live');
    expect(await count(page, 'critical')).toBe('0');
    await screenshot(page, 'alerts-dashboard-empty-light');

    // A colleague watches too, in another browser.
    const other = await newPage(browser);
    await signIn(other.page, server.url, member.email, member.password);
    await expect.poll(() => other.page.getByTestId('live-indicator').getAttribute('data-state')).toBe('live');

    // Nothing below reloads the page: this marker would disappear if it did.
    await page.evaluate(() => ((window as unknown as { liveMarker: number }).liveMarker = 42));

    await send(server, '/v2/enqueue', {
      routing_key: key,
      event_action: 'trigger',
      dedup_key: 'pd-disk',
      payload: { summary: 'Disk 95% full on db-1', source: 'db-1.prod', severity: 'critical', component: 'postgres', custom_details: { free: '5%', mount: '/var/lib/postgresql' } },
    });
    await expect.poll(() => card(page, 'Disk 95% full on db-1').count()).toBe(1);
    await expect.poll(() => card(other.page, 'Disk 95% full on db-1').count()).toBe(1);
    // The first alert is in: the getting-started panel is gone, on every open dashboard.
    await expect.poll(() => page.getByTestId('getting-started').count()).toBe(0);
    expect(await other.page.getByTestId('getting-started').count()).toBe(0);

    await send(
      server,
      '/api/ingest/alertmanager',
      {
        version: '4',
        status: 'firing',
        receiver: 'alertdesk',
        groupKey: '{}:{alertname="HighLatency"}',
        externalURL: 'http://alertmanager.example.com',
        alerts: [
          {
            status: 'firing',
            labels: { alertname: 'HighLatency', instance: 'api-1:8080', severity: 'warning' },
            annotations: { summary: 'p99 latency above 2s on api-1', description: 'The API answers slowly.' },
            startsAt: new Date().toISOString(),
            fingerprint: 'e2e0000000000001',
          },
        ],
      },
      key,
    );
    await expect.poll(() => card(page, 'p99 latency above 2s on api-1').count()).toBe(1);

    await send(server, '/api/ingest/events', { title: 'Backup job failed', priority: 'low', source: 'veeam', tags: ['backup'] }, key);
    await expect.poll(() => card(page, 'Backup job failed').count()).toBe(1);
    await expect.poll(() => count(page, 'critical')).toBe('1');
    await expect.poll(() => count(page, 'medium')).toBe('1');
    await expect.poll(() => count(page, 'lowInfo')).toBe('1');
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)).toBe(42);
    await screenshot(page, 'alerts-dashboard-light');

    // Server-side filter.
    await page.getByTestId('filter-priority').click();
    await page.getByRole('option', { name: 'Critical' }).click();
    await expect.poll(() => page.getByTestId('alert-card').count()).toBe(1);
    await page.getByTestId('filter-priority').click();
    await page.getByRole('option', { name: 'Info' }).click();
    await expect.poll(() => page.getByTestId('alerts-empty').innerText()).toBe(MSG.noAlertsMatch);
    await page.getByTestId('filter-priority').click();
    await page.getByRole('option', { name: 'All' }).click();
    await expect.poll(() => page.getByTestId('alert-card').count()).toBe(3);

    // The modal: every field, then acknowledge, assign, note, resolve.
    await card(page, 'Disk 95% full on db-1').click();
    const modal = page.getByRole('dialog');
    await expect.poll(() => modal.getByTestId('alert-title').innerText()).toBe('Disk 95% full on db-1');
    expect(await modal.getByText('db-1.prod').count()).toBeGreaterThan(0);
    expect(await modal.getByTestId('alert-metadata').innerText()).toContain('/var/lib/postgresql');
    expect(await modal.getByTestId('alert-assignee').innerText()).toBe('Unassigned');
    expect(await modal.getByTestId('alert-acknowledged').innerText()).toBe(MSG.notAvailable);
    expect(await modal.getByTestId('alert-timeline').innerText()).toContain('Triggered by Prometheus');
    await page.waitForTimeout(400); // the modal's opening transition
    await screenshot(page, 'alerts-modal-light');

    await modal.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => modal.getByTestId('status-badge').innerText()).toMatch(/acknowledged/i);
    await expect.poll(() => modal.getByTestId('alert-acknowledged').innerText()).toContain('by Rita Register');
    await expect.poll(() => card(other.page, 'Disk 95% full on db-1').getByTestId('status-badge').innerText()).toMatch(/acknowledged/i);

    await modal.getByTestId('assign-select').click();
    await page.getByRole('option', { name: new RegExp(member.email) }).click();
    await modal.getByRole('button', { name: 'Assign', exact: true }).click();
    await expect.poll(() => modal.getByTestId('alert-assignee').innerText()).toBe(memberName);

    await modal.getByLabel('Add a note').fill('Cleaned old WAL files; watching.');
    await modal.getByRole('button', { name: 'Add Note' }).click();
    await expect.poll(() => modal.getByTestId('alert-note').first().innerText()).toContain('Cleaned old WAL files; watching.');
    expect(await modal.getByTestId('alert-note').first().innerText()).toContain('Rita Register');

    await modal.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => modal.getByTestId('status-badge').innerText()).toMatch(/resolved/i);
    await expect.poll(() => modal.getByTestId('alert-resolved').innerText()).toContain('by Rita Register');
    const timeline = await modal.getByTestId('alert-timeline').innerText();
    for (const line of ['Triggered by Prometheus', 'Acknowledged by Rita Register', `Rita Register assigned it to ${memberName}`, 'Rita Register added a note', 'Resolved by Rita Register']) {
      expect(timeline).toContain(line);
    }
    await modal.getByRole('button', { name: 'Close dialog' }).click();
    await expect.poll(() => card(page, 'Disk 95% full on db-1').count()).toBe(0);
    await expect.poll(() => card(other.page, 'Disk 95% full on db-1').count()).toBe(0);
    await expect.poll(() => count(page, 'critical')).toBe('0');

    // History keeps it.
    await page.getByRole('link', { name: 'Resolved and closed alerts' }).click();
    await page.waitForURL('**/app/alerts/history');
    await expect.poll(() => page.getByTestId('history-table').innerText()).toContain('Disk 95% full on db-1');
    await page.getByTestId('history-search').fill('nothing like this');
    await expect.poll(() => page.getByTestId('history-empty').isVisible()).toBe(true);
    await page.getByTestId('history-search').fill('disk 95');
    await expect.poll(() => page.getByTestId('history-table').innerText()).toContain('Disk 95% full on db-1');
    await screenshot(page, 'alerts-history-light');
    // The sidebar's Alerts is this history (marked as the current page); Settings is not offered yet (Reports is: issue 31).
    await page.goto(`${server.url}/app/dashboard`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Alerts' }).click();
    await page.waitForURL('**/app/alerts/history');
    await expect.poll(() => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Alerts' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /^Settings$/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Disk 95% full on db-1' }).click();
    await expect.poll(() => page.getByRole('dialog').getByRole('button', { name: 'Close alert' }).isVisible()).toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Close alert' }).click();
    await expect.poll(() => page.getByRole('dialog').getByTestId('status-badge').innerText()).toMatch(/closed/i);

    await other.context.close();
    await context.close();
  });

  it('shows the current state when an action is no longer allowed (409)', async () => {
    const { context, page } = await newPage(browser);
    // Live updates cut, so the modal still offers Acknowledge after someone else acknowledged.
    await page.route('**/events', (route) => route.abort());
    await registerThroughWizard(page, server.url, { name: 'Stale Screen', email: uniqueEmail('stale'), org: 'Stale MSP' });
    const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id;
    const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Zabbix' } })).json();
    const { alertId } = await send(server, '/api/ingest/events', { title: 'Switch port flapping', priority: 'high', dedupKey: 'flap' }, key);
    // Without a policy it paged nobody: once that is marked, the refresh brings the banner saying so above the list,
    // and the card is clicked once it has moved down for it.
    await expect.poll(async () => (await (await page.request.get(`${server.url}/api/tenants/${tenantId}/alerts/${alertId}`)).json()).alert.pagedNobody).not.toBeNull();
    await page.getByRole('button', { name: ALERT_MSG.refresh }).click();
    await expect.poll(() => page.getByTestId('paged-nobody-banner').isVisible()).toBe(true);
    await card(page, 'Switch port flapping').click();
    const modal = page.getByRole('dialog');
    await expect.poll(() => modal.getByRole('button', { name: 'Acknowledge' }).isVisible()).toBe(true);
    await send(server, '/api/ingest/events', { action: 'acknowledge', dedupKey: 'flap' }, key);
    await modal.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => modal.getByTestId('alert-problem').innerText()).toContain(ALERT_MSG.noLongerAllowed);
    await expect.poll(() => modal.getByTestId('status-badge').innerText()).toMatch(/acknowledged/i);
    expect(await modal.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    expect(await modal.getByTestId('alert-acknowledged').innerText()).toContain('by Zabbix');
    await context.close();
  });

  it('catches up after losing its live connection: what happened meanwhile appears once it reconnects', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('offline'), org: 'Offline MSP' });
    const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id;
    const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Nagios' } })).json();
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state')).toBe('live');
    // The connection drops (the server ends it) and cannot come back for a while.
    await page.route('**/events', (route) => route.abort());
    server.app.alerts.streams.closeAll();
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state'), { timeout: 10_000 }).toBe('reconnecting');
    await send(server, '/api/ingest/events', { title: 'Raised while the browser was disconnected', priority: 'critical' }, key);
    await page.waitForTimeout(500);
    expect(await card(page, 'Raised while the browser was disconnected').count()).toBe(0);
    await page.unroute('**/events');
    await expect.poll(() => card(page, 'Raised while the browser was disconnected').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state')).toBe('live');
    await context.close();
  });

  it('manages integration keys in Tenant Admin: create (key shown once), test alert, rotate, revoke', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { name: 'Ivy Integrator', email: uniqueEmail('keys'), org: 'Keys MSP' });
    await page.goto(`${server.url}/app/tenant-admin?tab=integrations`);
    await expect.poll(() => page.getByTestId('integrations-empty').innerText()).toBe(INTEGRATION_MSG.noIntegrations);
    await screenshot(page, 'integrations-empty-light');

    await page.getByRole('button', { name: 'New integration' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('button', { name: 'Create integration' }).click();
    await expect.poll(() => form.getByText(INTEGRATION_MSG.nameRequired).isVisible()).toBe(true);
    await form.getByLabel('Name').fill('Prometheus production');
    await form.getByRole('button', { name: 'Create integration' }).click();
    const reveal = page.getByTestId('key-modal');
    await expect.poll(() => reveal.getByText(INTEGRATION_MSG.keyShownOnce).isVisible()).toBe(true);
    const key = await reveal.getByTestId('copy-key').innerText();
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(await reveal.getByTestId('copy-PagerDuty URL').innerText()).toBe(`${server.url}/v2/enqueue`);
    await page.waitForTimeout(400);
    await screenshot(page, 'integrations-key-light');
    await reveal.getByRole('button', { name: 'I have copied the key' }).click();
    // The key works, and the list never shows it again.
    await send(server, '/api/ingest/events', { title: 'Sent with the new key' }, key);
    const cardOf = page.getByTestId('integration-card').filter({ hasText: 'Prometheus production' });
    await expect.poll(() => cardOf.innerText()).toContain(key.slice(0, 6));
    expect(await page.getByTestId('integrations-panel').innerText()).not.toContain(key);

    await cardOf.getByRole('button', { name: 'Send test alert' }).click();
    await expect.poll(() => page.getByText('Test alert sent through Prometheus production').isVisible()).toBe(true);
    await screenshot(page, 'integrations-light');

    await cardOf.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByTestId('confirm-modal').getByRole('button', { name: 'Rotate key' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: /^Integration key/ }).isVisible()).toBe(true);
    const rotated = await page.getByTestId('key-modal').getByTestId('copy-key').innerText();
    expect(rotated).not.toBe(key);
    await page.getByTestId('key-modal').getByRole('button', { name: 'I have copied the key' }).click();
    const old = await fetch(`${server.url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: '{"title":"old key"}' });
    expect(old.status).toBe(401);

    await cardOf.getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('confirm-modal').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => cardOf.innerText()).toContain('Revoked');
    const revoked = await fetch(`${server.url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${rotated}` }, body: '{"title":"revoked"}' });
    expect(revoked.status).toBe(401);

    // The test alert and the first event are on the dashboard.
    await page.goto(`${server.url}/app/dashboard`);
    await expect.poll(() => card(page, INTEGRATION_MSG.testAlertTitle).count()).toBe(1);
    await expect.poll(() => card(page, 'Sent with the new key').count()).toBe(1);
    await context.close();
  });

  it('asks for the list and the figures once when the dashboard opens, and applies what arrives after without asking again', async () => {
    const { context, page } = await newPage(browser);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('once'), org: 'Once MSP' });
    const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
    const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Once' } })).json();
    const asked: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith(`/api/tenants/${tenantId}/alerts`)) asked.push(path.replace(`/api/tenants/${tenantId}`, ''));
    });
    await page.reload();
    await expect.poll(() => page.getByTestId('live-indicator').getAttribute('data-state')).toBe('live');
    await page.getByTestId('getting-started').waitFor();
    await page.waitForTimeout(2500);
    expect(asked.sort()).toEqual(['/alerts', '/alerts/stats']);
    await send(server, '/api/ingest/events', { title: 'After the first load', priority: 'high', source: 'once' }, key);
    await expect.poll(() => card(page, 'After the first load').count()).toBe(1);
    // The pushed change carried the alert: list and figures took it without asking the server again (issue 14).
    await expect.poll(() => count(page, 'high')).toBe('1');
    await page.waitForTimeout(500);
    expect(asked.sort()).toEqual(['/alerts', '/alerts/stats']);
    await context.close();
  });

  it('looks right in the dark theme and on a phone', async () => {
    for (const opts of [{ theme: 'dark' as const, name: 'dark' }, { theme: 'light' as const, width: 390, height: 844, name: 'phone' }]) {
      const { context, page } = await newPage(browser, opts);
      await registerThroughWizard(page, server.url, { email: uniqueEmail(opts.name), org: `Looks ${opts.name}` });
      const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id;
      const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Datadog' } })).json();
      const priorities = ['critical', 'high', 'medium', 'low', 'info'];
      for (let i = 0; i < 5; i++) {
        await send(server, '/api/ingest/events', { title: `Service check ${i + 1} failing on a host with a rather long name`, priority: priorities[i], source: `host-${i}.example.com`, tags: ['prod'], metadata: { check: `http-${i}`, url: 'https://status.example.com/check' } }, key);
      }
      await expect.poll(() => page.getByTestId('alert-card').count()).toBe(5);
      // Without a policy the alerts paged nobody: the banner saying so comes in above the list, moving the cards down.
      await expect.poll(() => page.getByTestId('paged-nobody-banner').isVisible()).toBe(true);
      await screenshot(page, `alerts-dashboard-${opts.name}`);
      await page.getByTestId('alert-card').first().click();
      await expect.poll(() => page.getByRole('dialog').getByTestId('alert-title').isVisible()).toBe(true);
      await page.waitForTimeout(400);
      await screenshot(page, `alerts-modal-${opts.name}`);
      await page.getByRole('dialog').getByRole('button', { name: 'Close dialog' }).click();
      await page.goto(`${server.url}/app/alerts/history`);
      await expect.poll(() => page.getByTestId('history-empty').isVisible()).toBe(true);
      await screenshot(page, `alerts-history-${opts.name}`);
      await page.goto(`${server.url}/app/tenant-admin?tab=integrations`);
      await expect.poll(() => page.getByTestId('integration-card').count()).toBe(1);
      await screenshot(page, `integrations-${opts.name}`);
      await page.getByRole('button', { name: 'New integration' }).click();
      await page.getByRole('dialog').getByLabel('Name').fill('Grafana');
      await page.getByRole('dialog').getByRole('button', { name: 'Create integration' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: /^Integration key/ }).isVisible()).toBe(true);
      await page.waitForTimeout(400);
      await screenshot(page, `integrations-key-${opts.name}`);
      await context.close();
    }
  });
});
