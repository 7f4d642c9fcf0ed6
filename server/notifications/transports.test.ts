import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ece from 'http_ece';
import webpush from 'web-push';
import { startSmtpServer } from '../test/smtp.ts';
import { createMailer } from './mailer.ts';
import { smsText } from '../modules/paging/page-message.ts';
import { DeliveryError } from './channel.ts';
import { createTransports } from './transports.ts';

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A self-signed certificate for 127.0.0.1 (push services are spoken to over https only). */
function selfSigned() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-push-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  const pair = { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  fs.rmSync(dir, { recursive: true, force: true });
  return pair;
}

/** A local server standing in for a provider (push service over https, SMS API): it keeps requests and answers `reply`. */
async function fakeProvider(reply: (r: Received) => { status: number; json?: unknown }, tls?: { key: Buffer; cert: Buffer }) {
  const received: Received[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(r);
      const out = reply(r);
      res.writeHead(out.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out.json ?? {}));
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const b64url = (b: Buffer) => b.toString('base64url');

/** Checks a VAPID Authorization header (RFC 8292): an ES256 JWT for the push service's origin, signed by key k. */
function checkVapid(header: string) {
  const m = /^vapid t=([^,]+),\s*k=(.+)$/.exec(header);
  if (!m) throw new Error(`not a VAPID header: ${header}`);
  const [h, p, s] = m[1].split('.');
  const raw = Buffer.from(m[2], 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) }, format: 'jwk' });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; sub: string; exp: number };
  return { ok, claims, publicKey: m[2] };
}

describe('delivery transports against local providers', () => {
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@alertdesk.test' };
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => smtp?.close());

  it('mails through a real SMTP server', async () => {
    const t = createTransports({ sms: null, pushAllowedHosts: [] }, vapid, createMailer({ smtpUrl: smtp.url, from: 'Alertdesk <pager@alertdesk.test>', log: { info: () => {} } }));
    await t.email({ to: 'oncall@example.com', subject: '[CRITICAL] Disk full', text: 'Acknowledge: http://localhost:3000/ack/abc' });
    expect(smtp.received.at(-1)!.to).toEqual(['oncall@example.com']);
    expect(smtp.text()).toContain('Subject: [CRITICAL] Disk full');
    expect(smtp.text()).toContain('Acknowledge: http://localhost:3000/ack/abc');
  });

  it('pushes with a VAPID signature and a payload only the subscriber can decrypt; a gone subscription is reported', async () => {
    const tls = selfSigned();
    const push = await fakeProvider((r) => ({ status: r.url.endsWith('/gone') ? 410 : 201 }), tls);
    try {
      const subscriber = createECDH('prime256v1');
      subscriber.generateKeys();
      const auth = randomBytes(16);
      // The local stand-in is on 127.0.0.1: allowed by the operator's list, as a push service inside the network would be.
      const t = createTransports({ sms: null, pushAllowedHosts: ['127.0.0.1'] }, vapid, { send: async () => {} }, { pushCa: tls.cert });
      const payload = JSON.stringify({ title: '[CRITICAL] Disk full', alertId: 'a-1', ackToken: 'tok' });
      await t.push({ endpoint: `${push.url}/push/sub-1`, p256dh: b64url(subscriber.getPublicKey()), auth: b64url(auth) }, payload);
      const req = push.received[0];
      const v = checkVapid(String(req.headers.authorization));
      expect(v.ok).toBe(true);
      expect(v.publicKey).toBe(vapid.publicKey);
      expect(v.claims).toMatchObject({ aud: push.url, sub: 'mailto:ops@alertdesk.test' });
      expect(req.headers['content-encoding']).toBe('aes128gcm');
      expect(req.headers.ttl).toBe('3600');
      const clear = ece.decrypt(req.body, { version: 'aes128gcm', privateKey: subscriber, authSecret: b64url(auth) });
      expect(JSON.parse(clear.toString())).toEqual({ title: '[CRITICAL] Disk full', alertId: 'a-1', ackToken: 'tok' });
      // Someone else's keys cannot read it.
      const stranger = createECDH('prime256v1');
      stranger.generateKeys();
      expect(() => ece.decrypt(req.body, { version: 'aes128gcm', privateKey: stranger, authSecret: b64url(auth) })).toThrow();

      const gone = await t.push({ endpoint: `${push.url}/push/gone`, p256dh: b64url(subscriber.getPublicKey()), auth: b64url(auth) }, payload).catch((e: unknown) => e);
      expect(gone).toBeInstanceOf(DeliveryError);
      expect(gone).toMatchObject({ gone: true, permanent: true });
    } finally {
      await push.close();
    }
  });

  it('refuses push services that are not at a public address before connecting, and removes such subscriptions', async () => {
    const tls = selfSigned();
    const push = await fakeProvider(() => ({ status: 201 }), tls);
    try {
      const t = createTransports({ sms: null, pushAllowedHosts: [] }, vapid, { send: async () => {} }, { pushCa: tls.cert });
      const keys = { p256dh: b64url(createECDH('prime256v1').generateKeys()), auth: b64url(randomBytes(16)) };
      const port = new URL(push.url).port;
      for (const endpoint of [`${push.url}/push/sub-1`, `https://localhost:${port}/push/sub-1`, `https://[::1]:${port}/push/sub-1`, `https://[::ffff:127.0.0.1]:${port}/push/sub-1`]) {
        const err = await t.push({ endpoint, ...keys }, '{}').catch((e: unknown) => e);
        expect(err, endpoint).toBeInstanceOf(DeliveryError);
        expect(err, endpoint).toMatchObject({ permanent: true, gone: true, message: expect.stringMatching(/^push: refused: .* is not a public address$/) });
      }
      // Nothing reached the service.
      expect(push.received).toEqual([]);
    } finally {
      await push.close();
    }
  });

  it('sends SMS through a Twilio-compatible API, retrying server errors but not refusals', async () => {
    let next = { status: 201, json: { sid: 'SM123' } as unknown };
    const api = await fakeProvider(() => next);
    try {
      const t = createTransports({ sms: { apiUrl: api.url, accountSid: 'AC1', authToken: 'secret', from: '+15550000000' }, pushAllowedHosts: [] }, vapid, { send: async () => {} });
      const body = smsText('critical', 'Globex', 'Disk full on db-1', 'http://localhost:3000/a/tok');
      expect(await t.sms!('+15551234567', body)).toEqual({ providerId: 'SM123' });
      const req = api.received[0];
      expect(req.url).toBe('/2010-04-01/Accounts/AC1/Messages.json');
      expect(req.headers.authorization).toBe(`Basic ${Buffer.from('AC1:secret').toString('base64')}`);
      expect(Object.fromEntries(new URLSearchParams(req.body.toString()))).toEqual({ To: '+15551234567', From: '+15550000000', Body: body });

      next = { status: 503, json: { message: 'busy' } };
      await expect(t.sms!('+15551234567', body)).rejects.toMatchObject({ permanent: false });
      next = { status: 400, json: { message: 'The To number is not valid' } };
      await expect(t.sms!('+1', body)).rejects.toMatchObject({ permanent: true, message: 'sms: the provider answered 400: The To number is not valid' });
    } finally {
      await api.close();
    }
  });

  it('keeps an SMS within 160 characters, with the priority, the client and the acknowledge link whole', () => {
    const url = 'https://alertdesk.example.com/a/AAAAAAAAAAAA';
    const text = smsText('critical', 'Globex', 'x'.repeat(500), url);
    expect(text.length).toBe(160);
    expect(text.startsWith('[CRIT] Globex: xxx')).toBe(true);
    expect(text.endsWith(`…. Ack: ${url}`)).toBe(true);
    expect(smsText('critical', 'Globex', 'EXCH01 not responding', url)).toBe(`[CRIT] Globex: EXCH01 not responding. Ack: ${url}`);
    expect(smsText('low', null, 'Short.', url)).toBe(`[LOW] Short. Ack: ${url}`);
  });
});
