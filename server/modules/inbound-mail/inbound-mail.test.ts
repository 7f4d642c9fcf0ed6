import net from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, inboundMailOn, startTestApp, testDatabases, type TestEnv } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { createIntegration } from '../../test/alerts.ts';
import { CuttableProxy } from '../../test/proxy.ts';
import { createMailer } from '../../notifications/mailer.ts';
import { EMAIL_MSG } from '../../../contract/integrations.ts';
import { rawSmtp } from './raw-smtp.test-support.ts';

const DOMAIN = 'alerts.test';

interface MailOptions {
  to: string | string[];
  subject?: string;
  text?: string;
  html?: string;
  from?: string;
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; content: string }>;
  /** The SMTP envelope, when it is not the headers' (a bounce's null sender). */
  envelope?: { from: string; to: string[] };
}

/** Sends one mail the way a monitoring tool's mail library does; resolves with the server's 250 text, or throws. */
async function send(port: number, mail: MailOptions) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    const info = await transport.sendMail({ from: mail.from ?? '"Veeam Backup" <veeam@client.example>', ...mail });
    return info.response as string;
  } finally {
    transport.close();
  }
}

/** The SMTP reply code of a refused send (nodemailer's error), or 250 when it went through. */
async function sendCode(port: number, mail: MailOptions): Promise<number> {
  try {
    await send(port, mail);
    return 250;
  } catch (err) {
    return (err as { responseCode?: number }).responseCode ?? -1;
  }
}

describeEachDatabase(
  'email to alert',
  (t) => {
    const port = () => {
      const p = t().app.inboundMail.port();
      if (!p) throw new Error('the SMTP listener is not listening');
      return p;
    };
    /** A tenant with an integration; its address and a reader of its tenant's alerts. */
    const mailTenant = async (integrationName = 'Veeam') => {
      const owner = await registerOwner(t().app);
      const { id } = await createIntegration(owner.agent, owner.tenantId, { name: integrationName });
      const base = `/api/tenants/${owner.tenantId}/integrations`;
      const integration = (await owner.agent.get(base)).data.items.find((i: { id: string }) => i.id === id);
      const active = async () => (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`)).data.items as any[];
      const detail = async (alertId: string) => (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/${alertId}`)).data;
      return { owner, id, base, address: integration.emailAddress as string, active, detail };
    };

    it('gives every integration its own random address, never derived from the key', async () => {
      const owner = await registerOwner(t().app);
      const a = await createIntegration(owner.agent, owner.tenantId, { name: 'A' });
      const b = await createIntegration(owner.agent, owner.tenantId, { name: 'B' });
      const items = (await owner.agent.get(`/api/tenants/${owner.tenantId}/integrations`)).data.items;
      const addresses = items.map((i: { emailAddress: string }) => i.emailAddress);
      for (const address of addresses) expect(address).toMatch(/^[a-z0-9]{24}@alerts\.test$/);
      expect(new Set(addresses).size).toBe(2);
      for (const key of [a.key, b.key]) for (const address of addresses) expect(address.toLowerCase()).not.toContain(key.slice(0, 8).toLowerCase());
      expect(items[0].emailSettings).toEqual({ dedupPattern: null, dedupField: 'subject', resolvePattern: null, resolveField: 'subject', priorityWords: null, defaultPriority: 'medium' });
    });

    it('turns a mail into an alert, deduplicates a repeat and resolves on RESOLVED', async () => {
      const m = await mailTenant();
      const reply = await send(port(), { to: m.address, subject: 'Backup failed on fs-2 at 2025-05-01 10:00', text: 'Job Nightly failed: the target disk is full.' });
      expect(reply).toMatch(/^250 /);
      const [alert] = await m.active();
      expect(alert).toMatchObject({
        title: 'Backup failed on fs-2 at 2025-05-01 10:00',
        description: 'Job Nightly failed: the target disk is full.',
        source: 'veeam@client.example',
        priority: 'high',
        status: 'new',
        integrationId: m.id,
        integrationName: 'Veeam',
        dedupKey: 'backup failed on fs-2',
        tags: ['email'],
        occurrences: 1,
      });
      expect(alert.metadata).toMatchObject({ to: m.address, from: 'Veeam Backup <veeam@client.example>' });

      // Forwarded the next day: the same alert, counted twice. The address is matched in any case.
      await send(port(), { to: m.address.toUpperCase(), subject: 'FW: Backup failed on fs-2 at 2025-05-02 10:00', text: 'again' });
      const after = await m.active();
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: alert.id, occurrences: 2 });

      await send(port(), { to: m.address, subject: 'RESOLVED: Backup failed on fs-2', text: 'Job Nightly succeeded.' });
      expect(await m.active()).toHaveLength(0);
      const detail = await m.detail(alert.id);
      expect(detail.alert.status).toBe('resolved');
      expect(detail.timeline.find((e: { kind: string }) => e.kind === 'resolved')).toMatchObject({ actorType: 'integration', actorName: 'Veeam' });

      // The next failure after resolution opens a new alert.
      await send(port(), { to: m.address, subject: 'Backup failed on fs-2', text: 'third night' });
      const reopened = await m.active();
      expect(reopened).toHaveLength(1);
      expect(reopened[0].id).not.toBe(alert.id);
    });

    it('reads an HTML-only mail as text, takes "+tags" after the token and keeps no attachment', async () => {
      const m = await mailTenant();
      const [local] = m.address.split('@');
      await send(port(), {
        to: `${local}+printers@${DOMAIN}`,
        subject: 'Warning: toner low on printer 3. OG',
        html: '<html><head><style>p{color:red}</style></head><body><p>Toner <b>5%</b></p><script>alert(1)</script></body></html>',
        attachments: [{ filename: 'status.txt', content: 'toner=5' }],
      });
      const [alert] = await m.active();
      expect(alert).toMatchObject({ title: 'Warning: toner low on printer 3. OG', description: 'Toner 5%', priority: 'medium' });
      expect(alert.metadata.attachments).toEqual([{ filename: 'status.txt', mimeType: 'text/plain', size: 7 }]);
      expect(JSON.stringify(alert)).not.toContain('toner=5');
    });

    it('refuses unknown recipients (550), other domains (550) and more than 10 recipients (452)', async () => {
      const m = await mailTenant();
      expect(await sendCode(port(), { to: `${'a'.repeat(24)}@${DOMAIN}`, subject: 'x' })).toBe(550);
      expect(await sendCode(port(), { to: `not-a-token@${DOMAIN}`, subject: 'x' })).toBe(550);
      expect(await sendCode(port(), { to: m.address.replace(DOMAIN, 'elsewhere.example'), subject: 'x' })).toBe(550);

      const owner = m.owner;
      const addresses = [m.address];
      for (let i = 0; i < 10; i++) {
        await createIntegration(owner.agent, owner.tenantId, { name: `Fan ${i}` });
      }
      for (const i of (await owner.agent.get(m.base)).data.items) if (i.emailAddress !== m.address) addresses.push(i.emailAddress);
      expect(addresses).toHaveLength(11);
      const smtp = await rawSmtp(port());
      expect(smtp.greeting.code).toBe(220);
      expect((await smtp.command('EHLO client.example')).code).toBe(250);
      expect((await smtp.command('MAIL FROM:<veeam@client.example>')).code).toBe(250);
      const codes: number[] = [];
      for (const address of addresses) codes.push((await smtp.command(`RCPT TO:<${address}>`)).code);
      expect(codes).toEqual([...Array(10).fill(250), 452]);
      // The ten accepted get the mail.
      expect((await smtp.command('DATA')).code).toBe(354);
      await smtp.write('Subject: Fan-out check\r\nFrom: veeam@client.example\r\n\r\nten of them\r\n.\r\n');
      expect((await smtp.next()).code).toBe(250);
      await smtp.command('QUIT');
      smtp.close();
      const alerts = (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`)).data.items;
      expect(alerts.filter((a: { title: string }) => a.title === 'Fan-out check')).toHaveLength(10);

      // Guessing addresses: after 20 refusals the connection is closed.
      const guesser = await rawSmtp(port());
      await guesser.command('EHLO guesser.example');
      await guesser.command('MAIL FROM:<x@guesser.example>');
      const refusals: number[] = [];
      for (let i = 0; i < 21; i++) refusals.push((await guesser.command(`RCPT TO:<${String(i).padStart(24, 'g')}@${DOMAIN}>`)).code);
      expect(refusals).toEqual([...Array(20).fill(550), 421]);
      expect((await guesser.command('NOOP')).code).toBe(0);
      guesser.close();
    });

    it('answers 552 to a mail over 10 MB while it streams in, and stays usable', async () => {
      const m = await mailTenant();
      const smtp = await rawSmtp(port());
      expect((await smtp.command('EHLO client.example')).text).toContain('SIZE 10485760');
      // Declared too large: refused before any byte of it is sent.
      expect((await smtp.command('MAIL FROM:<veeam@client.example> SIZE=11534336')).code).toBe(552);
      expect((await smtp.command('MAIL FROM:<veeam@client.example>')).code).toBe(250);
      expect((await smtp.command(`RCPT TO:<${m.address}>`)).code).toBe(250);
      expect((await smtp.command('DATA')).code).toBe(354);
      await smtp.write('Subject: Huge\r\nFrom: veeam@client.example\r\n\r\n');
      const line = `${'x'.repeat(998)}\r\n`;
      const chunk = line.repeat(1024);
      for (let sent = 0; sent < 11 * 1024 * 1024; sent += chunk.length) await smtp.write(chunk);
      await smtp.write('.\r\n');
      const refused = await smtp.next();
      expect(refused.code).toBe(552);
      // The same connection takes the next, normal, mail.
      expect((await smtp.command('MAIL FROM:<veeam@client.example>')).code).toBe(250);
      expect((await smtp.command(`RCPT TO:<${m.address}>`)).code).toBe(250);
      expect((await smtp.command('DATA')).code).toBe(354);
      await smtp.write('Subject: Small one\r\nFrom: veeam@client.example\r\n\r\nok\r\n.\r\n');
      expect((await smtp.next()).code).toBe(250);
      smtp.close();
      expect((await m.active()).map((a) => a.title)).toEqual(['Small one']);
    });

    it('takes auto-replies, bounces and Alertdesk’s own mail without making alerts (no mail loop)', async () => {
      const m = await mailTenant();
      expect(await send(port(), { to: m.address, subject: 'Out of office: Backup failed', text: 'I am away', headers: { 'Auto-Submitted': 'auto-replied' } })).toMatch(
        /^250 .*auto-reply/,
      );
      expect(await send(port(), { to: m.address, subject: 'Vacation', text: 'away', headers: { 'X-Autoreply': 'yes' } })).toMatch(/auto-reply/);
      expect(await send(port(), { to: m.address, subject: 'Undeliverable: page', text: 'bounce', envelope: { from: '', to: [m.address] } })).toMatch(/bounce/);
      // A page from Alertdesk's own mailer (the real one, over SMTP), forwarded back to the integration's address.
      const logged: string[] = [];
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port()}`, from: 'Alertdesk <no-reply@alertdesk.test>', log: { info: (_o, msg) => logged.push(msg) } });
      await mailer.send({ to: m.address, subject: 'CRITICAL: Disk full on db-1 (Acme)', text: 'Acknowledge: http://localhost:3000/ack/x' });
      expect(await m.active()).toHaveLength(0);
      // Automatic notifications are what alert mail is: cron's and monitoring tools' headers do not stop one.
      await send(port(), { to: m.address, subject: 'Cron <root@fs-2> backup.sh', text: 'rsync failed', headers: { 'Auto-Submitted': 'auto-generated', Precedence: 'bulk' } });
      expect((await m.active()).map((a) => a.title)).toEqual(['Cron <root@fs-2> backup.sh']);
    });

    it('refuses mail to a revoked integration and to an address that was renewed (550)', async () => {
      const m = await mailTenant();
      const renewed = await m.owner.agent.post(`${m.base}/${m.id}/renew-email`);
      expect(renewed.statusCode).toBe(200);
      const fresh = renewed.data.emailAddress as string;
      expect(fresh).toMatch(/^[a-z0-9]{24}@alerts\.test$/);
      expect(fresh).not.toBe(m.address);
      expect(await sendCode(port(), { to: m.address, subject: 'to the old address' })).toBe(550);
      expect(await sendCode(port(), { to: fresh, subject: 'to the new address' })).toBe(250);
      expect((await m.active()).map((a) => a.title)).toEqual(['to the new address']);

      const revoked = await m.owner.agent.post(`${m.base}/${m.id}/revoke`);
      expect(revoked.data).toMatchObject({ status: 'revoked', emailAddress: null });
      expect(await sendCode(port(), { to: fresh, subject: 'after revocation' })).toBe(550);
      const again = await m.owner.agent.post(`${m.base}/${m.id}/renew-email`);
      expect(again.statusCode).toBe(409);
      expect(again.data.error.message).toBe('This integration has been revoked');
    });

    it('lets only owners and admins renew an address; another tenant gets 404', async () => {
      const m = await mailTenant();
      const admin = await addMember(t().deps, t().app, m.owner.tenantId, 'admin');
      const user = await addMember(t().deps, t().app, m.owner.tenantId, 'user');
      const stranger = await registerOwner(t().app);
      const url = `${m.base}/${m.id}/renew-email`;
      expect((await user.agent.post(url)).statusCode).toBe(403);
      expect((await stranger.agent.post(url)).statusCode).toBe(404);
      expect((await stranger.agent.post(`/api/tenants/${stranger.tenantId}/integrations/${m.id}/renew-email`)).statusCode).toBe(404);
      expect(await sendCode(port(), { to: m.address, subject: 'still the old one' })).toBe(250);
      expect((await admin.agent.post(url)).statusCode).toBe(200);
      const patched = await user.agent.patch(`${m.base}/${m.id}`, { emailSettings: { defaultPriority: 'low' } });
      expect(patched.statusCode).toBe(403);
    });

    it('validates the mail rules, naming the field', async () => {
      const m = await mailTenant();
      const url = `${m.base}/${m.id}`;
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ dedupPattern: '(' }, 'emailSettings.dedupPattern', EMAIL_MSG.invalidPattern('Unterminated group')],
        [{ resolvePattern: '[a-' }, 'emailSettings.resolvePattern', EMAIL_MSG.invalidPattern('Unterminated character class')],
        [{ dedupPattern: '(a+)+$' }, 'emailSettings.dedupPattern', EMAIL_MSG.nestedRepetition],
        [{ dedupPattern: 'x'.repeat(201) }, 'emailSettings.dedupPattern', EMAIL_MSG.patternTooLong],
        [{ dedupField: 'headers' }, 'emailSettings.dedupField', 'Invalid option: expected one of "subject"|"body"'],
        [{ priorityWords: [{ word: 'P1', priority: 'urgent' }] }, 'emailSettings.priorityWords.0.priority', ''],
        [{ priorityWords: [{ word: 'a.*b', priority: 'high' }] }, 'emailSettings.priorityWords.0.word', EMAIL_MSG.wordCharacters],
        [{ priorityWords: [{ word: 'P1', priority: 'high' }, { word: 'p1', priority: 'low' }] }, 'emailSettings.priorityWords.1.word', EMAIL_MSG.wordTwice],
        [{ priorityWords: [{ word: '  ', priority: 'high' }] }, 'emailSettings.priorityWords.0.word', EMAIL_MSG.wordRequired],
        [{ defaultPriority: 'urgent' }, 'emailSettings.defaultPriority', ''],
      ];
      for (const [emailSettings, field, message] of cases) {
        const res = await m.owner.agent.patch(url, { emailSettings });
        expect(res.statusCode, JSON.stringify(emailSettings)).toBe(400);
        expect(res.data.error.code).toBe('validation_failed');
        expect(Object.keys(res.data.error.fields)).toEqual([field]);
        if (message) expect(res.data.error.fields[field]).toBe(message);
      }
      // Nothing of it was saved.
      expect((await m.owner.agent.get(m.base)).data.items[0].emailSettings.dedupPattern).toBeNull();
    });

    it('applies saved rules: a dedup pattern over the body, own priority words, a resolve pattern, a default priority', async () => {
      const m = await mailTenant();
      const url = `${m.base}/${m.id}`;
      const saved = await m.owner.agent.patch(url, {
        emailSettings: {
          dedupPattern: '  ^Job:\\s*(\\S+)$  ',
          dedupField: 'body',
          resolvePattern: '^Result:\\s*success',
          resolveField: 'body',
          priorityWords: [
            { word: 'P1', priority: 'critical' },
            { word: 'not responding', priority: 'high' },
          ],
          defaultPriority: 'low',
        },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.data.emailSettings).toEqual({
        dedupPattern: '^Job:\\s*(\\S+)$',
        dedupField: 'body',
        resolvePattern: '^Result:\\s*success',
        resolveField: 'body',
        priorityWords: [
          { word: 'P1', priority: 'critical' },
          { word: 'not responding', priority: 'high' },
        ],
        defaultPriority: 'low',
      });
      // A change of one field keeps the others.
      const one = await m.owner.agent.patch(url, { name: 'Veeam EU', emailSettings: { defaultPriority: 'info' } });
      expect(one.data).toMatchObject({ name: 'Veeam EU', emailSettings: { dedupField: 'body', defaultPriority: 'info' } });

      await send(port(), { to: m.address, subject: 'Veeam report 2025-05-01', text: 'Job: nightly-fs2\nResult: failed' });
      await send(port(), { to: m.address, subject: 'P1 Veeam report 2025-05-02', text: 'Job: nightly-fs2\nResult: failed' });
      await send(port(), { to: m.address, subject: 'Veeam report', text: 'Job: weekly-db\nResult: failed' });
      const alerts = await m.active();
      expect(alerts.map((a) => [a.dedupKey, a.occurrences, a.priority]).sort()).toEqual([
        ['nightly-fs2', 2, 'info'],
        ['weekly-db', 1, 'info'],
      ]);
      await send(port(), { to: m.address, subject: 'Veeam report 2025-05-03', text: 'Job: nightly-fs2\nResult: Success' });
      expect((await m.active()).map((a) => a.dedupKey)).toEqual(['weekly-db']);
      // Own words: P1 now is critical.
      await send(port(), { to: m.address, subject: 'P1: web-7 not responding', text: 'Job: web-7' });
      expect((await m.active()).find((a) => a.dedupKey === 'web-7')?.priority).toBe('critical');

      // null restores a default.
      const reset = await m.owner.agent.patch(url, { emailSettings: { dedupPattern: null, resolvePattern: '', priorityWords: null } });
      expect(reset.data.emailSettings).toMatchObject({ dedupPattern: null, resolvePattern: null, priorityWords: null });
    });

    it('routes a mail by the integration’s routing rules like any event: a client by the sender, a dropped test mail', async () => {
      const m = await mailTenant('Shared backup mailbox');
      const globex = (await m.owner.agent.post(`/api/tenants/${m.owner.tenantId}/clients`, { name: 'Globex', status: 'active' })).data.id as string;
      // Before any rule, the mail opens an alert with no client (the address is shared by every client's backups).
      await send(port(), { to: m.address, from: 'backup@globex.example', subject: 'Backup failed on gx-fs1', text: 'disk full' });
      expect((await m.active())[0]).toMatchObject({ clientId: null });
      const rules = [
        { when: [{ field: 'title', op: 'contains', value: 'test message' }], then: { drop: true } },
        { when: [{ field: 'source', op: 'matches', value: '@globex\\.example$' }], then: { clientId: globex, priority: 'critical' } },
      ];
      expect((await m.owner.agent.put(`${m.base}/${m.id}/rules`, { rules })).statusCode).toBe(200);
      await send(port(), { to: m.address, from: 'backup@globex.example', subject: 'Backup failed on gx-db2', text: 'disk full' });
      await send(port(), { to: m.address, from: 'backup@globex.example', subject: 'Veeam test message', text: 'ignore me' });
      const byKey = new Map((await m.active()).map((a) => [a.dedupKey, a]));
      expect(byKey.get('backup failed on gx-db2')).toMatchObject({ clientId: globex, clientName: 'Globex', priority: 'critical' });
      expect([...byKey.keys()].some((k) => String(k).includes('test message'))).toBe(false);
      expect(byKey.size).toBe(2);
    });

    it('takes a mail to a heartbeat monitor’s own address as a ping, and a subject saying it failed as a /fail', async () => {
      const owner = await registerOwner(t().app);
      const base = `/api/tenants/${owner.tenantId}/heartbeats`;
      const created = await owner.agent.post(base, { name: 'Nightly backup', intervalMinutes: 60, graceMinutes: 10, priority: 'critical' });
      expect(created.statusCode).toBe(201);
      const address = created.data.emailAddress as string;
      expect(address).toMatch(/^[a-z0-9]{24}@alerts\.test$/);
      const read = async () => (await owner.agent.get(`${base}/${created.data.id}`)).data;
      expect((await read()).state).toBe('new');
      expect(await send(port(), { to: address, from: 'veeam@client.example', subject: 'Backup job Nightly: Success', text: 'All 4 VMs processed.' })).toMatch(/^250 /);
      expect(await read()).toMatchObject({ state: 'up', lastFailAt: null });
      await send(port(), { to: address, from: 'veeam@client.example', subject: '[Failed] Backup job Nightly', text: 'VM fs-2: the target disk is full.' });
      const down = await read();
      expect(down.state).toBe('down');
      const detail = (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts/${down.alertId}`)).data;
      expect(detail.alert.description).toContain('VM fs-2: the target disk is full.');
      // A new ping URL comes with a new address: the old one pings nothing any more.
      const renewed = await owner.agent.post(`${base}/${created.data.id}/renew`);
      expect(renewed.data.emailAddress).not.toBe(address);
      await send(port(), { to: address, subject: 'Backup job Nightly: Success', text: 'ok' }).catch(() => {});
      expect((await read()).state).toBe('down');
      await send(port(), { to: renewed.data.emailAddress, subject: 'Backup job Nightly: Success', text: 'ok' });
      expect((await read()).state).toBe('up');
    });

    it('closes its SMTP listener with the app', async () => {
      const env = await startTestApp(t().db, { inboundMail: inboundMailOn(DOMAIN) });
      const p = env.app.inboundMail.port();
      expect(p).toBeGreaterThan(0);
      await env.close();
      expect(env.app.inboundMail.port()).toBeNull();
      await expect(rawSmtp(p!)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    });
  },
  { inboundMail: inboundMailOn(DOMAIN) },
);

describe('email to alert: the listener', () => {
  it('runs on without mail when its port cannot be had, and is off with INBOUND_SMTP_PORT=0', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    const takenPort = (taken.address() as net.AddressInfo).port;
    const db = testDatabases()[0];
    const env = await startTestApp(db, { inboundMail: { ...inboundMailOn(DOMAIN), port: takenPort } });
    try {
      expect(env.app.inboundMail.port()).toBeNull();
      expect((await env.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await env.close();
      taken.close();
    }
    const off = await startTestApp(db);
    expect(off.app.inboundMail.port()).toBeNull();
    await off.close();
  });
});

// PostgreSQL only: SQLite is a file in the process and cannot lose its connection.
const postgres = testDatabases().find((d) => d.name === 'postgres');
describe.runIf(postgres)('email to alert while the database is away [postgres]', () => {
  let env: (TestEnv & { close(): Promise<void> }) | null = null;
  let proxy: CuttableProxy;
  beforeAll(async () => {
    const target = new URL(postgres!.url);
    proxy = new CuttableProxy(target.hostname, Number(target.port || 5432));
    await proxy.listen();
    const viaProxy = new URL(postgres!.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    env = await startTestApp({ name: 'postgres', url: viaProxy.toString() }, { databaseTimeoutMs: 500, inboundMail: inboundMailOn(DOMAIN) });
  });
  afterAll(async () => {
    proxy?.up();
    await env?.close();
    await proxy?.close();
  });

  it('answers 451 (try again later) instead of losing the mail, and stores it when the sender retries', async () => {
    const owner = await registerOwner(env!.app);
    await createIntegration(owner.agent, owner.tenantId, { name: 'Veeam' });
    const address = (await owner.agent.get(`/api/tenants/${owner.tenantId}/integrations`)).data.items[0].emailAddress;
    const port = env!.app.inboundMail.port()!;
    // Known (cached) address, database gone while the message is stored.
    expect(await sendCode(port, { to: address, subject: 'warm-up' })).toBe(250);
    proxy.down();
    expect(await sendCode(port, { to: address, subject: 'Backup failed during the outage' })).toBe(451);
    // An address not looked up yet cannot be checked either: 451 at RCPT, not 550.
    expect(await sendCode(port, { to: `${'b'.repeat(24)}@${DOMAIN}`, subject: 'x' })).toBe(451);
    proxy.up();
    await expect.poll(() => sendCode(port, { to: address, subject: 'Backup failed during the outage' })).toBe(250);
    const titles = (await owner.agent.get(`/api/tenants/${owner.tenantId}/alerts`)).data.items.map((a: { title: string }) => a.title);
    expect(titles.sort()).toEqual(['Backup failed during the outage', 'warm-up']);
  });
});
