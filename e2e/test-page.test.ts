import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PAGING_MSG } from '../contract/paging.ts';
import { RULES_MSG, TEST_PAGE_MSG } from '../contract/profile.ts';
import { chromiumAvailable, newPage, registerThroughWizard, screenshot, type E2EServer, withServerAndBrowser } from './support.ts';
import { uniqueEmail } from '../server/test/factories.ts';

/** A stand-in of Twilio's Messages API (POST /2010-04-01/Accounts/{sid}/Messages.json, Basic auth, a form body). */
function messagesApi() {
  const received: Array<{ path: string; auth: string | undefined; form: URLSearchParams }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', auth: req.headers.authorization, form: new URLSearchParams(body) });
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${received.length}` }));
    });
  });
  return { server, received };
}

describe.skipIf(!chromiumAvailable())('send me a test page and notification rules in Chromium', () => {
  let server: E2EServer;
  let browser: Browser;
  const sms = messagesApi();
  let smsUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => sms.server.listen(0, '127.0.0.1', resolve));
    smsUrl = `http://127.0.0.1:${(sms.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => sms.server.close(() => resolve())));
  withServerAndBrowser(
    (s, b) => ([server, browser] = [s, b]),
    () => ({ sms: { apiUrl: smsUrl, accountSid: 'AC123', authToken: 'tok', from: '+15005550006' } }),
  );

  it('sends a test page per channel and shows each outcome, in the light theme', async () => {
    const { context, page } = await newPage(browser);
    const { email } = await registerThroughWizard(page, server.url, { name: 'Tess Tester', email: uniqueEmail('testpage') });
    await page.goto(`${server.url}/app/profile?tab=notifications`);
    const card = page.getByTestId('test-page');
    await card.scrollIntoViewIfNeeded();

    await card.getByTestId('test-page-email').getByRole('button', { name: 'Email' }).click();
    await expect.poll(() => card.getByTestId('test-page-email-outcome').innerText()).toMatch(/sent/i);
    expect(server.mailer.sent.filter((m) => m.to === email).map((m) => m.subject)).toContain(TEST_PAGE_MSG.title);

    await card.getByTestId('test-page-sms').getByRole('button', { name: 'SMS' }).click();
    await expect.poll(() => card.getByTestId('test-page-sms-reason').innerText()).toBe(PAGING_MSG.smsOff);
    expect(await card.getByTestId('test-page-sms-outcome').innerText()).toMatch(/not sent/i);

    await card.getByTestId('test-page-push').getByRole('button', { name: 'Push' }).click();
    await expect.poll(() => card.getByTestId('test-page-push-reason').innerText()).toBe(PAGING_MSG.noPushSubscription);
    await screenshot(page, 'profile-test-page-light');

    // Rules: push at once, SMS after 2 minutes; saved in delay order and shown again after a reload.
    const rules = page.getByTestId('notification-rules');
    expect(await rules.getByTestId('rules-default').isVisible()).toBe(true);
    await rules.getByRole('button', { name: 'Add rule' }).click();
    await rules.getByRole('button', { name: 'Add rule' }).click();
    await rules.getByLabel('Rule 1 channel').click();
    await page.getByRole('option', { name: 'SMS' }).click();
    await rules.getByLabel('Rule 1 delay in minutes').fill('2');
    await rules.getByLabel('Rule 2 channel').click();
    await page.getByRole('option', { name: 'Push' }).click();
    await rules.getByLabel('Rule 2 delay in minutes').fill('0');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect.poll(() => page.getByText(RULES_MSG.saved).isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByTestId('notification-rules').getByLabel('Rule 1 channel').inputValue()).toBe('Push');
    expect(await page.getByTestId('notification-rules').getByLabel('Rule 2 channel').inputValue()).toBe('SMS');
    expect(await page.getByTestId('notification-rules').getByLabel('Rule 2 delay in minutes').inputValue()).toBe('2');
    await page.getByTestId('notification-rules').scrollIntoViewIfNeeded();
    await screenshot(page, 'profile-notification-rules-light');
    await context.close();
  });

  it('texts the saved number through the SMS provider, in the dark theme', async () => {
    const { context, page } = await newPage(browser, { theme: 'dark' });
    await registerThroughWizard(page, server.url, { name: 'Dana Dark', email: uniqueEmail('testpage-dark') });
    await page.goto(`${server.url}/app/profile?tab=notifications`);
    // SMS on with a number, saved through the form as a person does.
    const form = page.getByTestId('preferences-form');
    await form.getByLabel('Phone number').fill('+14155550123');
    const toggle = form.getByRole('switch', { name: 'SMS notifications' });
    await page.locator(`label[for="${await toggle.getAttribute('id')}"]`).click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Save Preferences' }).click();
    await expect.poll(() => page.getByText('Notification preferences saved').isVisible()).toBe(true);

    const card = page.getByTestId('test-page');
    await card.getByTestId('test-page-sms').getByRole('button', { name: 'SMS' }).click();
    await expect.poll(() => card.getByTestId('test-page-sms-outcome').innerText()).toMatch(/^sent$/i);
    const text = sms.received.find((r) => r.form.get('To') === '+14155550123');
    expect(text?.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(text?.auth).toBe(`Basic ${Buffer.from('AC123:tok').toString('base64')}`);
    expect(text?.form.get('Body')).toBe(TEST_PAGE_MSG.sms);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'profile-test-page-dark');
    await context.close();
  });

  it('says whether the server holds this browser’s push subscription, and shows why subscribing failed', async () => {
    const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' };
    // The browser's push service is stood in for: headless Chromium has none to reach.
    const stubPush = (fail: boolean, endpoint: string) => ({
      script: ({ fail, endpoint, keys }: { fail: boolean; endpoint: string; keys: Record<string, string> }) => {
        // The browser keeps its subscription across reloads, as a real one does.
        const sub = { endpoint, toJSON: () => ({ endpoint, expirationTime: null, keys }) };
        PushManager.prototype.getSubscription = async () => (sessionStorage.getItem('stub-push') ? (sub as unknown as PushSubscription) : null);
        PushManager.prototype.subscribe = async () => {
          if (fail) throw new DOMException('Registration failed - push service error', 'AbortError');
          sessionStorage.setItem('stub-push', '1');
          return sub as unknown as PushSubscription;
        };
      },
      arg: { fail, endpoint, keys },
    });

    const broken = await newPage(browser);
    await broken.context.grantPermissions(['notifications'], { origin: server.url });
    const bad = stubPush(true, 'https://push.example.com/e2e/broken');
    await broken.page.addInitScript(bad.script, bad.arg);
    await registerThroughWizard(broken.page, server.url, { email: uniqueEmail('push-broken') });
    await broken.page.goto(`${server.url}/app/profile?tab=notifications`);
    await expect.poll(() => broken.page.getByTestId('push-subscribe-error').isVisible()).toBe(true);
    expect(await broken.page.getByTestId('push-subscribe-error').innerText()).toContain('Registration failed - push service error');
    expect(await broken.page.getByTestId('browser-permission').innerText()).toMatch(/not registered/i);
    expect(await broken.page.getByTestId('push-server-status').innerText()).toContain('Pages cannot reach this browser yet');
    await screenshot(broken.page, 'profile-push-not-registered-light');
    await broken.context.close();

    const { context, page } = await newPage(browser, { theme: 'dark' });
    await context.grantPermissions(['notifications'], { origin: server.url });
    const endpoint = `https://push.example.com/e2e/${Date.now()}`;
    const good = stubPush(false, endpoint);
    await page.addInitScript(good.script, good.arg);
    await registerThroughWizard(page, server.url, { email: uniqueEmail('push-good') });
    await page.goto(`${server.url}/app/profile?tab=notifications`);
    await expect.poll(() => page.getByTestId('browser-permission').innerText()).toMatch(/^enabled$/i);
    expect(await page.getByTestId('push-server-status').innerText()).toContain('the server holds its push subscription');
    const stored = await server.deps.db.selectFrom('user_tokens').select('endpoint').where('endpoint', '=', endpoint).execute();
    expect(stored).toHaveLength(1);
    // The server forgets it (the push service said it is gone): the page says so on its next look.
    await server.deps.db.deleteFrom('user_tokens').where('endpoint', '=', endpoint).execute();
    await page.evaluate(() => localStorage.setItem('pushTokenSavedAt', String(Date.now())));
    await page.reload();
    await expect.poll(() => page.getByTestId('browser-permission').innerText()).toMatch(/not registered/i);
    await page.getByRole('button', { name: 'Register this browser' }).click();
    await expect.poll(() => page.getByTestId('browser-permission').innerText()).toMatch(/^enabled$/i);
    await screenshot(page, 'profile-push-registered-dark');
    await context.close();
  });
});
