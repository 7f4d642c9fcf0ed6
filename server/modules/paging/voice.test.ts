import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAGING_MSG } from '../../../contract/paging.ts';
import { TEST_PAGE_MSG } from '../../../contract/profile.ts';
import { listAttempts } from '../../notifications/attempts.repository.ts';
import { callTwiml, twilioSignature, voiceTransport, VOICE_MSG } from '../../notifications/channels/voice.ts';
import { createIntegration, ingest } from '../../test/alerts.ts';
import { fakeTransports } from '../../test/fake-transports.ts';
import { registerOwner } from '../../test/factories.ts';
import { savePreferences } from '../../test/paging.ts';
import { startTestApp, testDatabases } from '../../test/test-app.ts';
import { pageMessage } from './page-message.ts';

const SID = 'ACvoice0123';
const TOKEN = 'voice-auth-token';

/**
 * A stand-in of Twilio's Calls API (POST /2010-04-01/Accounts/{AccountSid}/Calls.json, HTTP Basic with the account
 * SID and auth token, a form body with To, From and Twiml; 201 with the call's `sid`), which can be told to refuse.
 */
function callsApi() {
  const calls: Array<{ to: string; from: string; twiml: string }> = [];
  const problems: string[] = [];
  let refuse: { status: number; message: string } | null = null;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SID}/Calls.json`) problems.push(`path ${req.method} ${req.url}`);
      if (req.headers.authorization !== `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`) problems.push('authorization');
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') problems.push(`content-type ${req.headers['content-type']}`);
      if (!form.get('To') || !form.get('From') || !form.get('Twiml')) problems.push('form');
      if (refuse) {
        res.writeHead(refuse.status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 21211, message: refuse.message, status: refuse.status }));
        return;
      }
      calls.push({ to: form.get('To')!, from: form.get('From')!, twiml: form.get('Twiml')! });
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `CA${calls.length}`, status: 'queued' }));
    });
  });
  return { server, calls, problems, refuse: (r: typeof refuse) => (refuse = r) };
}

describe('Twilio request signatures', () => {
  it('matches the example of Twilio’s security documentation', () => {
    const params = new URLSearchParams({ CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' });
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('says the client (and the organization for people in several), the priority and the title', () => {
    const links = { open: 'o', ack: 'a', ackToken: 't', shortAck: 's' };
    const alert = { id: 'a1', title: 'Disk full', description: null, priority: 'critical', source: 'zabbix', created_at: '2026-11-25T02:00:00Z' };
    const ctx = { level: 1, timeZone: 'UTC', now: new Date('2026-11-25T02:01:00Z'), links };
    expect(pageMessage(alert, { ...ctx, clientName: 'Globex', tenantName: 'Acme MSP' }).voice).toBe('Alertdesk. Critical priority alert for Globex, Acme MSP: Disk full.');
    expect(pageMessage(alert, { ...ctx, clientName: null, tenantName: null }).voice).toBe('Alertdesk. Critical priority alert: Disk full.');
  });

  it('escapes what the call says and gathers one digit for the callback', () => {
    const twiml = callTwiml('Client <A&B>: disk "full"', 'https://x.test/api/voice/t?a=1&b=2');
    expect(twiml).toContain('<Say>Client &lt;A&amp;B&gt;: disk &quot;full&quot; Press 1 to acknowledge.</Say>');
    expect(twiml).toContain('<Gather numDigits="1" timeout="8" method="POST" action="https://x.test/api/voice/t?a=1&amp;b=2">');
    expect(callTwiml('Hello', null)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Say>Hello</Say></Response>');
  });
});

for (const db of testDatabases()) {
  describe(`voice pages [${db.name}]`, () => {
    const api = callsApi();
    const fake = fakeTransports();
    let env: Awaited<ReturnType<typeof startTestApp>>;
    let off: Awaited<ReturnType<typeof startTestApp>>;
    let nowMs = Date.now();
    beforeAll(async () => {
      await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
      const voice = { apiUrl: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`, accountSid: SID, authToken: TOKEN, from: '+15005550006' };
      const publicUrl = 'http://localhost:3000';
      env = await startTestApp(db, { voice }, undefined, { clock: () => new Date(nowMs), transports: { ...fake.transports, voice: voiceTransport(voice, () => publicUrl) } });
      off = await startTestApp(db, {}, undefined, { clock: () => new Date(nowMs), transports: fake.transports });
    });
    afterAll(async () => {
      await env?.close();
      await off?.close();
      await new Promise<void>((resolve) => api.server.close(() => resolve()));
    });
    beforeEach(() => {
      nowMs = Date.now();
      api.refuse(null);
    });

    let phones = 0;
    /** An owner with a phone number and a policy whose level 1 allows SMS (so a call), calling by their rules. */
    async function caller(app = env.app) {
      const owner = await registerOwner(app, { name: 'Vera Voice' });
      const phone = `+1415556${String(1000 + ++phones)}`;
      await savePreferences(owner.agent, owner.tenantId, { email: false, phoneNumber: phone });
      const integration = await createIntegration(owner.agent, owner.tenantId);
      const policy = await owner.agent.post(`/api/tenants/${owner.tenantId}/escalationPolicies`, {
        name: 'Phones',
        isDefault: true,
        escalationTimes: { critical: 15, high: 30, medium: 60, low: 240, info: null },
        level_1: { userIds: [owner.userId], notificationChannels: ['sms'] },
        level_2: { userIds: [owner.userId], timeAfterPrevious: 30, notificationChannels: ['email'] },
        level_3: { userIds: [owner.userId], timeAfterPrevious: 30, notificationChannels: ['email'] },
      });
      expect(policy.statusCode).toBe(201);
      expect((await owner.agent.put('/api/profile/notificationRules', { rules: [{ channel: 'voice', delayMinutes: 0 }] })).statusCode).toBe(200);
      const trigger = async (app2 = app) => {
        const res = await ingest(app2, '/api/ingest/events', { title: 'Disk full on SRV-01', priority: 'high' }, { authorization: `Bearer ${integration.key}` });
        expect(res.statusCode).toBe(202);
        nowMs = Math.max(nowMs, Date.now());
        await app2.jobs.worker.runDue();
        return res.data.alertId as string;
      };
      return { owner, phone, trigger };
    }

    /** The provider calling back with the key pressed, signed as Twilio signs (or not). */
    async function pressKey(callbackUrl: string, digits: string, signature?: string) {
      const params = new URLSearchParams({ AccountSid: SID, CallSid: 'CA1', Digits: digits, From: '+15005550006', To: '+14155550000' });
      const path = callbackUrl.replace('http://localhost:3000', '');
      return env.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature ?? twilioSignature(TOKEN, callbackUrl, params) },
        payload: params.toString(),
      });
    }

    it('calls the person by their rules, says client, priority and title, and "press 1" acknowledges as them, once', async () => {
      const { owner, phone, trigger } = await caller();
      const alertId = await trigger();
      const call = api.calls.find((c) => c.to === phone);
      expect(api.problems).toEqual([]);
      expect(call?.from).toBe('+15005550006');
      expect(call?.twiml).toContain('<Say>Alertdesk. High priority alert: Disk full on SRV-01. Press 1 to acknowledge.</Say>');
      // No SMS went out: the person's rules call instead.
      expect(fake.sent.sms.filter((s) => s.to === phone)).toEqual([]);
      const attempts = await listAttempts(env.deps.db, owner.tenantId, alertId);
      expect(attempts.map((a) => [a.step, a.channel, a.outcome, a.provider_id])).toEqual([['L1', 'voice', 'sent', 'CA' + api.calls.length]]);
      const callback = /action="([^"]+)"/.exec(call!.twiml)![1].replaceAll('&amp;', '&');
      expect(callback).toMatch(/^http:\/\/localhost:3000\/api\/voice\/[A-Za-z0-9_-]{64}$/);

      // Unsigned, or signed for another URL: refused, nothing acknowledged.
      expect((await pressKey(callback, '1', 'bm90IGEgc2lnbmF0dXJl')).statusCode).toBe(403);
      expect((await pressKey(callback, '1', twilioSignature(TOKEN, `${callback}x`, new URLSearchParams({ Digits: '1' })))).statusCode).toBe(403);
      // Another key: goodbye, still new.
      const other = await pressKey(callback, '2');
      expect(other.statusCode).toBe(200);
      expect(other.body).toContain(`<Say>${VOICE_MSG.goodbye}</Say>`);
      expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/${alertId}`)).data.alert.status).toBe('new');

      const ack = await pressKey(callback, '1');
      expect(ack.statusCode).toBe(200);
      expect(ack.headers['content-type']).toMatch(/^text\/xml/);
      expect(ack.body).toContain(`<Say>${PAGING_MSG.ackDone}</Say>`);
      const alert = (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/${alertId}`)).data.alert;
      expect(alert).toMatchObject({ status: 'acknowledged', acknowledgedBy: owner.userId });
      // The token is single-use: a second "1" says so.
      expect((await pressKey(callback, '1')).body).toContain(`<Say>${PAGING_MSG.ackLinkUsed}</Say>`);
    });

    it('records a refused call with the provider’s reason, and is off when no voice provider is configured', async () => {
      const { owner, trigger } = await caller();
      api.refuse({ status: 400, message: 'The number is unverified' });
      const alertId = await trigger();
      const attempts = await listAttempts(env.deps.db, owner.tenantId, alertId);
      expect(attempts.map((a) => [a.channel, a.outcome, a.reason])).toEqual([['voice', 'failed', 'voice: the provider answered 400: The number is unverified']]);
      expect(await env.app.inject({ method: 'POST', url: `/api/voice/${'a'.repeat(64)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'Digits=1' })).toMatchObject({ statusCode: 403 });

      // A server without a voice provider: the page is skipped with the reason, and the callback does not exist.
      const elsewhere = await caller(off.app);
      const skippedId = await elsewhere.trigger(off.app);
      const skipped = await listAttempts(off.deps.db, elsewhere.owner.tenantId, skippedId);
      expect(skipped.map((a) => [a.channel, a.outcome, a.reason])).toEqual([['voice', 'skipped', VOICE_MSG.notConfigured]]);
      expect((await off.app.inject({ method: 'POST', url: `/api/voice/${'a'.repeat(64)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'Digits=1' })).statusCode).toBe(404);
    });

    it('sends a voice test page that only speaks, says a refusal, and says when voice is not configured', async () => {
      const owner = await registerOwner(env.app);
      expect((await owner.agent.post('/api/profile/testPage', { channel: 'voice' })).data).toEqual({ channel: 'voice', outcome: 'skipped', reason: PAGING_MSG.noPhoneNumber });
      await savePreferences(owner.agent, owner.tenantId, { email: true, phoneNumber: '+14155557777' });
      expect((await owner.agent.post('/api/profile/testPage', { channel: 'voice' })).data).toEqual({ channel: 'voice', outcome: 'sent', reason: null });
      expect(api.calls.find((c) => c.to === '+14155557777')?.twiml).toBe(callTwiml(TEST_PAGE_MSG.voice, null));
      api.refuse({ status: 503, message: 'Service unavailable' });
      expect((await owner.agent.post('/api/profile/testPage', { channel: 'voice' })).data).toEqual({ channel: 'voice', outcome: 'failed', reason: 'voice: the provider answered 503: Service unavailable' });

      const elsewhere = await registerOwner(off.app);
      await savePreferences(elsewhere.agent, elsewhere.tenantId, { email: true, phoneNumber: '+14155557778' });
      expect((await elsewhere.agent.post('/api/profile/testPage', { channel: 'voice' })).data).toEqual({ channel: 'voice', outcome: 'not_configured', reason: 'Voice call is not configured on this server' });
    });
  });
}
