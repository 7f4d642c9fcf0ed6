import { describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_SETTINGS, type EmailSettings } from '../../../contract/integrations.ts';
import { ignoreReason } from './ignored-mail.ts';
import { mailToEvent, NO_SUBJECT, type InboundMail } from './mail-event.ts';
import { parseMail } from './mail-parse.ts';

const mail = (over: Partial<InboundMail> = {}): InboundMail => ({
  subject: 'Backup failed on fs-2',
  text: 'Job Nightly failed: disk full',
  from: { name: 'Veeam', address: 'veeam@client.example' },
  envelopeFrom: 'veeam@client.example',
  messageId: '<1@client.example>',
  date: '2025-05-01T10:00:00.000Z',
  attachments: [],
  ...over,
});
const settings = (over: Partial<EmailSettings> = {}): EmailSettings => ({ ...DEFAULT_EMAIL_SETTINGS, ...over });
const TO = 'abc@alerts.test';

describe('ignoreReason', () => {
  const h = (key: string, value: string) => ({ key, value });
  it.each<[string, Array<{ key: string; value: string }>, string, string | null]>([
    ['a plain alert mail', [h('subject', 'x')], 'veeam@x', null],
    ["Alertdesk's own mail", [h('x-alertdesk-mail', '1')], 'no-reply@alertdesk', 'alertdesk-mail'],
    ['Auto-Submitted: auto-replied (vacation)', [h('auto-submitted', 'auto-replied')], 'p@x', 'auto-reply'],
    ['Auto-Submitted: auto-notified', [h('auto-submitted', 'auto-notified; owner-email="a@b"')], 'p@x', 'auto-reply'],
    ['Auto-Submitted: no', [h('auto-submitted', 'no')], 'p@x', null],
    ['Auto-Submitted: auto-generated (cron, monitoring tools)', [h('auto-submitted', 'auto-generated')], 'root@x', null],
    ['X-Autoreply: yes', [h('x-autoreply', 'yes')], 'p@x', 'auto-reply'],
    ['X-Autorespond', [h('x-autorespond', 'Out of office')], 'p@x', 'auto-reply'],
    ['Precedence: junk', [h('precedence', 'junk')], 'p@x', 'auto-reply'],
    ['Precedence: bulk (cron writes it on every job mail)', [h('precedence', 'bulk')], 'root@x', null],
    ['Precedence: list', [h('precedence', 'list')], 'list@x', null],
    ['the null envelope sender (a bounce)', [], '', 'bounce'],
    ['Return-Path: <>', [h('return-path', '<>')], 'x@y', 'bounce'],
    ['a delivery report', [h('content-type', 'multipart/report; report-type=delivery-status')], 'x@y', 'bounce'],
    ['our mail that bounced counts as ours', [h('x-alertdesk-mail', '1')], '', 'alertdesk-mail'],
  ])('%s → %s', (_what, headers, envelopeFrom, reason) => {
    expect(ignoreReason(headers, envelopeFrom)).toBe(reason);
  });
});

describe('mailToEvent', () => {
  it('maps subject → title, text → description, From → source, with the default rules', () => {
    const { event, timedOut } = mailToEvent(mail(), settings(), TO);
    expect(event).toEqual({
      action: 'trigger',
      dedupKey: 'backup failed on fs-2',
      title: 'Backup failed on fs-2',
      description: 'Job Nightly failed: disk full',
      priority: 'high',
      source: 'veeam@client.example',
      clientRef: null,
      tags: ['email'],
      metadata: { to: TO, from: 'Veeam <veeam@client.example>', messageId: '<1@client.example>', date: '2025-05-01T10:00:00.000Z' },
    });
    expect(timedOut).toEqual([]);
  });

  it.each<[string, Partial<InboundMail>, Partial<EmailSettings>, Partial<ReturnType<typeof mailToEvent>['event']>]>([
    ['a resolving subject', { subject: 'RESOLVED: Backup failed on fs-2' }, {}, { action: 'resolve', dedupKey: 'backup failed on fs-2' }],
    ['a dedup pattern over the subject', { subject: 'Backup of VM web-7 failed at 10:02' }, { dedupPattern: 'VM (\\S+)' }, { dedupKey: 'web-7' }],
    ['a dedup pattern over the body', { text: 'Job: nightly-fs2\nResult: failed' }, { dedupPattern: '^Job: (\\S+)$', dedupField: 'body' }, { dedupKey: 'nightly-fs2' }],
    ['a dedup pattern that does not match falls back to the subject', { text: 'nothing here' }, { dedupPattern: 'Job: (\\S+)', dedupField: 'body' }, { dedupKey: 'backup failed on fs-2' }],
    ['a resolve pattern over the body', { subject: 'Backup report fs-2', text: 'Status: Success' }, { resolvePattern: 'Status:\\s*success', resolveField: 'body' }, { action: 'resolve' }],
    ['a resolve pattern replaces the default', { subject: 'RESOLVED: x' }, { resolvePattern: '^CLOSED' }, { action: 'trigger' }],
    ['own priority words', { subject: 'P2 disk slow' }, { priorityWords: [{ word: 'P2', priority: 'low' }] }, { priority: 'low' }],
    ['the default priority when no word is found', { subject: 'Printer out of paper' }, { defaultPriority: 'info' }, { priority: 'info' }],
    ['no subject: a title of its own, the sender as key', { subject: '  ' }, {}, { title: NO_SUBJECT, dedupKey: 'from:veeam@client.example' }],
    ['no From: the envelope sender is the source', { from: null, envelopeFrom: 'bounce-123@relay.example' }, {}, { source: 'bounce-123@relay.example' }],
    ['a multi-line subject becomes one line', { subject: 'Backup\r\n failed' }, {}, { title: 'Backup failed' }],
  ])('%s', (_what, over, rules, expected) => {
    expect(mailToEvent(mail(over), settings(rules), TO).event).toMatchObject(expected);
  });

  it('strips NUL and lone surrogates, clips the title, and names attachments without storing them', () => {
    const { event } = mailToEvent(
      mail({
        subject: `Disk\u0000 full \ud800on db-1 ${'x'.repeat(2000)}`,
        text: `a\u0000b`,
        attachments: Array.from({ length: 25 }, (_, i) => ({ filename: `log-${i}.txt`, mimeType: 'text/plain', size: 10 + i })),
      }),
      settings(),
      TO,
    );
    expect(event.title.startsWith('Disk full on db-1 x')).toBe(true);
    expect(event.title.length).toBeLessThanOrEqual(1000);
    expect(event.description).toBe('ab');
    expect(event.metadata.attachments).toHaveLength(20);
    expect((event.metadata.attachments as unknown[])[0]).toEqual({ filename: 'log-0.txt', mimeType: 'text/plain', size: 10 });
    expect(event.metadata.attachmentsNotListed).toBe(5);
    expect(JSON.stringify(event)).not.toContain('content');
  });

  it('reports a tenant pattern that ran too long and treats it as not matching', () => {
    const { event, timedOut } = mailToEvent(mail({ text: `${'a'.repeat(60)}b` }), settings({ dedupPattern: '^(a|aa)+$', dedupField: 'body' }), TO);
    expect(timedOut).toEqual(['dedupPattern']);
    expect(event.dedupKey).toBe('backup failed on fs-2');
  });
});

describe('parseMail', () => {
  const crlf = (lines: string[]) => Buffer.from(lines.join('\r\n'));
  it('reads an encoded subject, the From mailbox and an HTML-only body as text', async () => {
    const { mail: m, headers } = await parseMail(
      crlf([
        'From: "Backup Server" <backup@client.example>',
        'To: abc@alerts.test',
        'Subject: =?UTF-8?Q?Sicherung_fehlgeschlagen_=E2=80=93_fs-2?=',
        'Message-ID: <42@client.example>',
        'Auto-Submitted: auto-generated',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<html><body><p>Job <b>Nightly</b> failed</p><script>x()</script></body></html>',
        '',
      ]),
      'bounces@client.example',
    );
    expect(m).toMatchObject({
      subject: 'Sicherung fehlgeschlagen – fs-2',
      text: 'Job Nightly failed',
      from: { name: 'Backup Server', address: 'backup@client.example' },
      envelopeFrom: 'bounces@client.example',
      messageId: '<42@client.example>',
      attachments: [],
    });
    expect(headers).toContainEqual({ key: 'auto-submitted', originalKey: 'Auto-Submitted', value: 'auto-generated' });
  });

  it('prefers the text part and lists attachments by name and size', async () => {
    const { mail: m } = await parseMail(
      crlf([
        'From: ups@client.example',
        'Subject: UPS on battery',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b1"',
        '',
        '--b1',
        'Content-Type: multipart/alternative; boundary="b2"',
        '',
        '--b2',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'UPS 1 is on battery.',
        '--b2',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>HTML version</p>',
        '--b2--',
        '--b1',
        'Content-Type: application/pdf',
        'Content-Disposition: attachment; filename="report.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('%PDF-1.4 fake').toString('base64'),
        '--b1--',
        '',
      ]),
      'ups@client.example',
    );
    expect(m.text.trim()).toBe('UPS 1 is on battery.');
    expect(m.attachments).toEqual([{ filename: 'report.pdf', mimeType: 'application/pdf', size: 13 }]);
  });
});
