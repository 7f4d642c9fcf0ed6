import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { chromiumAvailable, newPage, registerThroughWizard, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/** The serious and critical rule failures axe-core finds on the page as it is now, one line per rule. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const nodes = v.nodes.slice(0, 3).map((n) => {
        // For contrast, the colours and ratio found say what to change.
        const data = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
        const colours = data?.fgColor ? ` ${data.fgColor} on ${data.bgColor} (${data.contrastRatio}:1)` : '';
        return `${n.target.join(' ').slice(-80)}${colours}`;
      });
      return `${v.id} (${v.nodes.length}): ${nodes.join(' | ')}`;
    });
}

/**
 * Issue 15: every main page, in both themes, has no serious or critical accessibility failure (colour contrast,
 * names of controls, labels, ARIA use) as axe-core checks them in a real Chromium.
 */
describe.skipIf(!chromiumAvailable())('accessibility (axe-core) of the main pages', () => {
  let server: E2EServer;
  let browser: Browser;
  withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  for (const theme of ['light', 'dark'] as const) {
    it(`finds no serious or critical violation on the main pages (${theme})`, async () => {
      const { context, page } = await newPage(browser, { theme });
      const found: Record<string, string[]> = {};
      const check = async (name: string, ready: () => Promise<unknown>) => {
        await ready();
        // Mantine's transitions (modals, menus) settle before the colours are read.
        await page.waitForTimeout(300);
        const violations = await seriousViolations(page);
        if (violations.length) found[name] = violations;
      };

      await page.goto(`${server.url}/`);
      await check('home', () => page.getByTestId('home-plan-trial').waitFor());
      await page.goto(`${server.url}/login`);
      await check('sign-in', () => page.getByRole('button', { name: 'Sign In', exact: true }).waitFor());
      await page.goto(`${server.url}/no-such-page`);
      await check('not found', () => page.getByRole('heading', { name: 'Page not found' }).waitFor());

      const { email } = await registerThroughWizard(page, server.url, { email: uniqueEmail(`axe-${theme}`), org: `Axe ${theme} MSP` });
      await check('dashboard (getting started)', () => page.getByTestId('getting-started').waitFor());
      // Alerts of every priority, so every badge colour is on the page.
      const tenantId = (await (await page.request.get(`${server.url}/api/me`)).json()).tenants[0].id as string;
      const { key } = await (await page.request.post(`${server.url}/api/tenants/${tenantId}/integrations`, { data: { name: 'Prometheus' } })).json();
      for (const priority of ['critical', 'high', 'medium', 'low', 'info']) {
        const res = await fetch(`${server.url}/api/ingest/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ title: `Disk check ${priority}`, priority, source: 'db-1' }),
        });
        expect(res.status).toBe(202);
      }
      await expect.poll(() => page.getByTestId('alert-card').count()).toBe(5);
      await check('dashboard', async () => undefined);
      await page.getByTestId('alert-card').first().click();
      await check('alert dialog', () => page.getByRole('dialog').getByTestId('alert-title').waitFor());
      await page.keyboard.press('Escape');

      const pages: Array<[string, string, () => Promise<unknown>]> = [
        ['alert history', '/app/alerts/history', () => page.getByTestId('history-empty').waitFor()],
        ['clients', '/app/clients', () => page.getByRole('heading', { name: 'Client Management', level: 1 }).waitFor()],
        ['profile', '/app/profile', () => page.getByRole('heading', { level: 1 }).waitFor()],
        ['tenant admin', '/app/tenant-admin', () => page.getByRole('tab').first().waitFor()],
        ['integrations', '/app/tenant-admin?tab=integrations', () => page.getByTestId('integration-card').first().waitFor()],
        ['escalation policies', '/app/escalation-policies', () => page.getByRole('heading', { level: 1 }).waitFor()],
        ['approval workflows', '/app/approval-workflows', () => page.getByRole('heading', { level: 1 }).waitFor()],
      ];
      for (const [name, path, ready] of pages) {
        await page.goto(`${server.url}${path}`);
        await check(name, ready);
      }

      // System Administration, as a super admin.
      await server.deps.db.updateTable('users').set({ role: 'superAdmin' }).where('email', '=', email).execute();
      await page.goto(`${server.url}/app/system-admin`);
      await check('system admin', () => page.getByRole('heading', { name: 'System Administration' }).waitFor());

      expect(found).toEqual({});
      await context.close();
    });
  }
});
