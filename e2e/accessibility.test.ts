import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { chromiumAvailable, newPage, registerThroughWizard, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/** What fails a page: besides serious and critical failures, moderate ones (heading order, landmarks, regions). */
const FAILING = ['moderate', 'serious', 'critical'];

/** The moderate, serious and critical rule failures axe-core finds on the page as it is now, one line per rule. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => FAILING.includes(v.impact ?? ''))
    .map((v) => {
      const nodes = v.nodes.slice(0, 3).map((n) => {
        // For contrast, the colours and ratio found say what to change.
        const data = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
        const colours = data?.fgColor ? ` ${data.fgColor} on ${data.bgColor} (${data.contrastRatio}:1)` : '';
        return `${n.target.join(' ').slice(-80)}${colours}`;
      });
      return `${v.id} [${v.impact}] (${v.nodes.length}): ${nodes.join(' | ')}`;
    });
}

/**
 * Issue 15: every main page, in both themes, has no moderate, serious or critical accessibility failure as axe-core
 * checks them in a real Chromium: colour contrast, names of controls, labels, ARIA use, heading order, landmarks (one
 * banner, also with a dialog open), all content inside landmarks.
 */
describe.skipIf(!chromiumAvailable())('accessibility (axe-core) of the main pages', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  for (const theme of ['light', 'dark'] as const) {
    it(`finds no moderate, serious or critical violation on the main pages (${theme})`, async () => {
      const { context, page } = await newPage(browser, { theme });
      const found: Record<string, string[]> = {};
      const check = async (name: string, ready: () => Promise<unknown>) => {
        await ready();
        // Mantine's transitions (modals, menus) settle before the colours are read.
        await page.waitForTimeout(300);
        const failures = await violations(page);
        if (failures.length) found[name] = failures;
      };
      const visit = async (name: string, path: string, ready: () => Promise<unknown>) => {
        await page.goto(`${server.url}${path}`);
        await check(name, ready);
      };

      await visit('home', '/', () => page.getByTestId('home-plan-trial').waitFor());
      await visit('sign-in', '/login', () => page.getByRole('button', { name: 'Sign In', exact: true }).waitFor());
      await visit('not found', '/no-such-page', () => page.getByRole('heading', { name: 'Page not found' }).waitFor());
      await visit('privacy', '/privacy', () => page.getByRole('heading', { name: 'Privacy', level: 1 }).waitFor());
      await visit('terms', '/terms', () => page.getByRole('heading', { name: 'Terms of use', level: 1 }).waitFor());

      const { email } = await registerThroughWizard(page, server.url, { email: uniqueEmail(`axe-${theme}`), org: `Axe ${theme} MSP` });
      await check('dashboard (getting started)', () => page.getByTestId('getting-started').waitFor());
      // Alerts of every priority, so every badge colour is on the page.
      const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
      const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Prometheus' } })).json();
      const ingest = async (event: Record<string, unknown>) => {
        const res = await fetch(`${server.url}/api/ingest/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify(event),
        });
        expect(res.status).toBe(202);
      };
      for (const priority of ['critical', 'high', 'medium', 'low', 'info']) await ingest({ title: `Disk check ${priority}`, priority, source: 'db-1' });
      await expect.poll(() => page.getByTestId('alert-card').count()).toBe(5);
      // Without a policy the alerts paged nobody: the banner saying so comes in above the list, moving the cards down.
      await expect.poll(() => page.getByTestId('paged-nobody-banner').isVisible()).toBe(true);
      await check('dashboard', async () => undefined);
      await page.getByTestId('alert-card').first().click();
      await check('alert dialog', () => page.getByRole('dialog').getByTestId('alert-title').waitFor());
      await page.keyboard.press('Escape');
      await visit('alert history', '/app/alerts/history', () => page.getByTestId('history-empty').waitFor());

      await visit('clients', '/app/clients', () => page.getByRole('heading', { name: 'Client Management', level: 1 }).waitFor());
      // A client's details with an open alert of its own.
      const client = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/clients`, { data: { name: 'Axe Client', status: 'active' } })).json();
      await ingest({ title: 'Backup failed', priority: 'high', source: 'backup-1', client: 'Axe Client' });
      await visit('client details', `/app/clients?client=${client.id}`, () => page.getByTestId('client-alert-link').first().waitFor());

      const pages: Array<[string, string, () => Promise<unknown>]> = [
        ['profile', '/app/profile', () => page.getByRole('heading', { level: 1 }).waitFor()],
        ['tenant admin', '/app/tenant-admin', () => page.getByRole('tab').first().waitFor()],
        ['integrations', '/app/tenant-admin?tab=integrations', () => page.getByTestId('integration-card').first().waitFor()],
        ['escalation policies', '/app/escalation-policies', () => page.getByRole('heading', { level: 1 }).waitFor()],
        ['approval workflows', '/app/approval-workflows', () => page.getByRole('heading', { level: 1 }).waitFor()],
      ];
      for (const [name, path, ready] of pages) await visit(name, path, ready);

      // System Administration, as a super admin.
      await server.deps.db.updateTable('users').set({ role: 'superAdmin' }).where('email', '=', email).execute();
      await visit('system admin', '/app/system-admin', () => page.getByRole('heading', { name: 'System Administration' }).waitFor());

      expect(found).toEqual({});
      await context.close();
      // Eighteen pages, each analysed in full: more than the default minute and a half on a busy machine.
    }, 240_000);
  }
});
