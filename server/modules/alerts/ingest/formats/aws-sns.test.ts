import { execFileSync } from 'node:child_process';
import { createSign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestEnv } from '../../../../test/test-app.ts';
import { registerOwner } from '../../../../test/factories.ts';
import { createIntegration } from '../../../../test/alerts.ts';
import { cloudWatchAlarm } from './fixtures.ts';

// A self-made key and certificate stand in for AWS's: the real verification code runs against them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sns-cert-'));
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=sns.amazonaws.com'], { stdio: 'ignore' });
const key = fs.readFileSync(path.join(dir, 'key.pem'), 'utf8');
const cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
fs.rmSync(dir, { recursive: true, force: true });

const CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem';
const SUBSCRIBE_URL = 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-1:123456789012:alertdesk&Token=2336412f37';

/** Every URL the server fetched; the stand-in for AWS serves the certificate and answers the confirmation. */
const fetched: string[] = [];
const standIn = async (url: string) => {
  fetched.push(url);
  if (url === CERT_URL) return { status: 200, body: cert };
  if (url.startsWith('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription')) return { status: 200, body: '<ConfirmSubscriptionResponse/>' };
  return { status: 404, body: 'not found' };
};

const SIGNED: Record<string, string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** An SNS message signed as AWS does (docs: "Verifying the signatures of Amazon SNS messages"). */
function signed(fields: Record<string, string>, version: '1' | '2' = '1') {
  const msg: Record<string, string> = { MessageId: crypto.randomUUID(), TopicArn: 'arn:aws:sns:us-east-1:123456789012:alertdesk', Timestamp: new Date().toISOString(), SignatureVersion: version, SigningCertURL: CERT_URL, ...fields };
  const text = SIGNED[msg.Type].filter((f) => msg[f] !== undefined).map((f) => `${f}\n${msg[f]}\n`).join('');
  msg.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256').update(text).sign(key, 'base64');
  return msg;
}

const alarm = (over: Record<string, unknown> = {}, version: '1' | '2' = '1') =>
  signed({ Type: 'Notification', Subject: 'ALARM: "acme-web-1-high-cpu" in US East (N. Virginia)', Message: JSON.stringify({ ...cloudWatchAlarm, ...over }) }, version);
const confirmation = (subscribeUrl = SUBSCRIBE_URL) =>
  signed({ Type: 'SubscriptionConfirmation', Token: '2336412f37', SubscribeURL: subscribeUrl, Message: 'You have chosen to subscribe to the topic arn:aws:sns:us-east-1:123456789012:alertdesk.' });

async function setup(t: () => TestEnv) {
  const owner = await registerOwner(t().app);
  const client = await owner.agent.post(`/api/tenants/${owner.tenantId}/clients`, { name: 'Acme Corp', status: 'active', aliases: ['123456789012'] });
  const integration = await createIntegration(owner.agent, owner.tenantId, { name: 'AWS' });
  // SNS posts its JSON as text/plain, with the key in the URL (it sets no Authorization header).
  const send = async (msg: unknown) => {
    const res = await t().app.inject({ method: 'POST', url: `/api/ingest/aws-sns/${integration.key}`, headers: { 'content-type': 'text/plain; charset=UTF-8' }, payload: JSON.stringify(msg) });
    return Object.assign(res, { data: JSON.parse(res.body) });
  };
  const alerts = () => t().deps.db.selectFrom('alerts').select(['title', 'priority', 'source', 'dedup_key', 'client_id', 'status', 'occurrences']).where('tenant_id', '=', owner.tenantId).execute();
  return { send, alerts, clientId: client.data.id as string };
}

describeEachDatabase(
  'AWS SNS (CloudWatch alarms)',
  (t) => {
    it('verifies both signature versions: ALARM opens the alert for the account it names, a repeat updates it, OK resolves it; the certificate is fetched once', async () => {
      const { send, alerts, clientId } = await setup(t);
      fetched.length = 0;
      const first = await send(alarm());
      expect(first.statusCode, first.body).toBe(202);
      expect(await alerts()).toEqual([
        expect.objectContaining({
          title: 'acme-web-1-high-cpu',
          priority: 'high',
          source: 'i-0abc123def4567890',
          dedup_key: 'aws-sns:arn:aws:cloudwatch:us-east-1:123456789012:alarm:acme-web-1-high-cpu',
          client_id: clientId,
          status: 'new',
        }),
      ]);
      expect((await send(alarm({}, '2'))).data.alerts[0].result).toBe('deduplicated');
      const resolved = await send(alarm({ NewStateValue: 'OK', OldStateValue: 'ALARM' }, '2'));
      expect(resolved.statusCode, resolved.body).toBe(202);
      expect(resolved.data.alerts[0].result).toBe('resolved');
      expect((await alerts())[0]).toMatchObject({ status: 'resolved', occurrences: 2 });
      expect(fetched).toEqual([CERT_URL]);
    });

    it('refuses a forged message with 403 and stores nothing; a forged subscription confirmation fetches no SubscribeURL', async () => {
      const { send, alerts } = await setup(t);
      fetched.length = 0;
      const tampered = { ...alarm(), Message: JSON.stringify({ ...cloudWatchAlarm, AlarmName: 'forged' }) };
      expect((await send(tampered)).statusCode).toBe(403);
      const forgedConfirmation = { ...confirmation(), SubscribeURL: 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=stolen' };
      expect((await send(forgedConfirmation)).statusCode).toBe(403);
      expect(fetched.filter((u) => u.includes('ConfirmSubscription'))).toEqual([]);
      expect(await alerts()).toEqual([]);
    });

    it('fetches no certificate from anywhere but an https SNS host: another host answers 403 with nothing fetched', async () => {
      const { send } = await setup(t);
      fetched.length = 0;
      for (const url of [
        'https://sns.us-east-1.amazonaws.com.evil.example/cert.pem',
        'https://evil.example/SimpleNotificationService.pem',
        'http://sns.us-east-1.amazonaws.com/SimpleNotificationService.pem',
        'https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService.pem',
        'https://user@sns.us-east-1.amazonaws.com/SimpleNotificationService.pem',
        'https://sns.us-east-1.amazonaws.com/not-a-certificate',
      ]) {
        const res = await send({ ...alarm(), SigningCertURL: url });
        expect(res.statusCode, url).toBe(403);
      }
      expect(fetched).toEqual([]);
    });

    it('confirms a subscription only after the signature checks, and only at an SNS host', async () => {
      const { send, alerts } = await setup(t);
      fetched.length = 0;
      const ok = await send(confirmation());
      expect(ok.statusCode, ok.body).toBe(202);
      expect(ok.data.alerts).toEqual([]);
      expect(fetched.filter((u) => u.includes('ConfirmSubscription'))).toEqual([SUBSCRIBE_URL]);

      fetched.length = 0;
      const elsewhere = await send(confirmation('https://evil.example/?Action=ConfirmSubscription&Token=1'));
      expect(elsewhere.statusCode).toBe(403);
      expect(fetched).toEqual([]);
      expect(await alerts()).toEqual([]);
    });

    it('answers 400 naming the field for a malformed envelope or alarm', async () => {
      const { send } = await setup(t);
      const { Signature: _, ...unsigned } = alarm();
      const missing = await send(unsigned);
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.data.error.fields)).toContain('Signature');
      const badState = await send(alarm({ NewStateValue: 'ON_FIRE' }));
      expect(badState.statusCode).toBe(400);
      expect(Object.keys(badState.data.error.fields)).toContain('Message.NewStateValue');
    });
  },
  // Only the fetch is replaced: the host pattern is the production one.
  { awsSns: { certHostPattern: /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/, fetch: standIn } },
);
