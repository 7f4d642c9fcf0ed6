import { DateTime } from 'luxon';
import type { Priority } from '../../../contract/profile.ts';
import type { Message } from '../../notifications/channel.ts';
import { fitSms } from '../../notifications/channels/sms.ts';

/** What a page says of its alert. */
export interface PageSubject {
  id: string;
  title: string;
  description: string | null;
  priority: string;
  source: string;
  created_at: string;
}

/** Whose alert it is and how it reaches this person. */
export interface PageContext {
  /** The alert's client, when it has one. */
  clientName: string | null;
  /** The tenant's name, when the person belongs to several (otherwise it tells them nothing). */
  tenantName: string | null;
  /** The escalation level that pages them; null for a subscriber's notice. */
  level: number | null;
  /** The person's time zone (IANA), for every time the page shows. */
  timeZone: string;
  now: Date;
  links: { open: string; ack: string; ackToken: string; /** The SMS's acknowledge link (short). */ shortAck: string };
}

const SHORT_PRIORITY: Record<string, string> = { critical: 'CRIT', high: 'HIGH', medium: 'MED', low: 'LOW', info: 'INFO' };
export const shortPriority = (priority: string) => SHORT_PRIORITY[priority] ?? priority.toUpperCase().slice(0, 4);
const label = (priority: string) => priority.charAt(0).toUpperCase() + priority.slice(1);

/** At most 160 characters: `[CRIT] Globex: ` (the client when there is one), as much of the title as fits, the link. */
export const smsText = (priority: string, client: string | null, title: string, url: string) =>
  fitSms(`[${shortPriority(priority)}] ${client ? `${client.slice(0, 30)}: ` : ''}`, title.replace(/[.\s]+$/, ''), `. Ack: ${url}`);

/** How long ago, in words: "just now", "14 min", "2 h 5 min", "3 days". */
export function age(from: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(from)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''} ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** Local times already written, per zone and minute (a burst of pages shows the same few): at most this many. */
const LOCAL_TIMES_KEPT = 2_000;
const localTimes = new Map<string, string>();

/**
 * A time in the person's zone: "Wed 25 Nov, 03:12 CET" (UTC for a zone Luxon does not know). It shows the minute, so
 * it is written once per zone and minute: Luxon's parse, zone and format cost tens of microseconds a page.
 */
export function localTime(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  const key = `${timeZone}|${Number.isNaN(ms) ? iso : Math.floor(ms / 60_000)}`;
  let text = localTimes.get(key);
  if (text === undefined) {
    let t = DateTime.fromISO(iso, { zone: timeZone });
    if (!t.isValid) t = DateTime.fromISO(iso, { zone: 'UTC' });
    text = t.toFormat('ccc d LLL, HH:mm ZZZZ');
    if (localTimes.size >= LOCAL_TIMES_KEPT) localTimes.clear();
    localTimes.set(key, text);
  }
  return text;
}

const trimmed = (text: string | null, max: number) => {
  const t = (text ?? '').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const PRIORITY_COLOR: Record<string, string> = { critical: '#c92a2a', high: '#e8590c', medium: '#e67700', low: '#1971c2', info: '#495057' };

/**
 * The page as an HTML email: one column, inline styles (mail clients drop style sheets' classes unevenly), the
 * Acknowledge and Open buttons first, and a dark-mode variant for clients that honour `prefers-color-scheme`.
 */
function pageHtml(p: { heading: string; whose: string; title: string; description: string; facts: Array<[string, string]>; links: PageContext['links']; priority: string; footer: string }) {
  const e = escapeHtml;
  const color = PRIORITY_COLOR[p.priority] ?? '#495057';
  const rows = p.facts
    .map(([k, v]) => `<tr><td class="muted" style="padding:2px 12px 2px 0;color:#495057;white-space:nowrap;vertical-align:top">${e(k)}</td><td style="padding:2px 0">${e(v)}</td></tr>`)
    .join('');
  const button = (href: string, text: string, primary: boolean) =>
    `<a href="${e(href)}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 18px;border-radius:6px;font-weight:600;text-decoration:none;${
      primary ? `background:${color};color:#ffffff;border:1px solid ${color}` : 'background:#ffffff;color:#1c7ed6;border:1px solid #1c7ed6'
    }">${e(text)}</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">
<title>${e(p.title)}</title>
<style>
@media (prefers-color-scheme: dark) {
  body, .card { background:#1a1b1e !important; color:#e9ecef !important; }
  .muted { color:#adb5bd !important; }
  .box { background:#25262b !important; border-color:#373a40 !important; }
}
</style></head>
<body style="margin:0;padding:0;background:#f1f3f5;color:#212529;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.45">
<div class="card" style="max-width:560px;margin:0 auto;padding:20px;background:#ffffff">
<div style="display:inline-block;padding:2px 8px;border-radius:4px;background:${color};color:#ffffff;font-size:12px;font-weight:700;letter-spacing:.04em">${e(p.heading)}</div>
${p.whose ? `<p class="muted" style="margin:12px 0 2px;color:#495057">${e(p.whose)}</p>` : '<div style="height:12px"></div>'}
<h1 style="margin:0 0 12px;font-size:20px;line-height:1.3">${e(p.title)}</h1>
${p.description ? `<div class="box" style="margin:0 0 14px;padding:10px 12px;border:1px solid #dee2e6;border-radius:6px;background:#f8f9fa;white-space:pre-wrap">${e(p.description)}</div>` : ''}
<div style="margin:0 0 12px">${button(p.links.ack, 'Acknowledge', true)}${button(p.links.open, 'Open alert', false)}</div>
<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${rows}</table>
<p class="muted" style="margin:0;color:#495057;font-size:13px">${e(p.footer)}</p>
</div></body></html>`;
}

/**
 * A page of an alert for every channel, naming the client (and the tenant when the person has several), the priority,
 * title, description, source, how long it has been open and the level, with times in the person's zone: the email
 * (HTML with a plain-text alternative, Acknowledge and Open buttons), the push notification (opening the alert, with
 * its acknowledge token), the SMS (160 characters, the short acknowledge link).
 */
export function pageMessage(alert: PageSubject, ctx: PageContext): Message {
  const priority = alert.priority.toUpperCase();
  const whose = [ctx.clientName, ctx.tenantName].filter(Boolean).join(' · ');
  const opened = `${localTime(alert.created_at, ctx.timeZone)} (${age(alert.created_at, ctx.now)})`;
  const why = ctx.level ? `Escalation level ${ctx.level}` : 'You subscribed to alerts like this one';
  const description = trimmed(alert.description, 1000);
  const facts: Array<[string, string]> = [
    ...(ctx.clientName ? [['Client', ctx.clientName] as [string, string]] : []),
    ...(ctx.tenantName ? [['Organization', ctx.tenantName] as [string, string]] : []),
    ['Priority', label(alert.priority)],
    ['Source', alert.source],
    ['Opened', opened],
    ['Paged', why],
  ];
  const text = [
    `${priority} alert${ctx.clientName ? ` for ${ctx.clientName}` : ''}${ctx.tenantName ? ` (${ctx.tenantName})` : ''}`,
    alert.title,
    '',
    ...(description ? [description, ''] : []),
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    `Acknowledge: ${ctx.links.ack}`,
    `Open alert: ${ctx.links.open}`,
  ].join('\n');
  const prefix = `[${shortPriority(alert.priority)}] ${ctx.clientName ? `${ctx.clientName}: ` : ''}`;
  return {
    purpose: 'alert',
    priority: alert.priority as Priority,
    title: `${prefix}${alert.title}${ctx.tenantName ? ` · ${ctx.tenantName}` : ''}`,
    text,
    html: pageHtml({
      heading: `${priority} ALERT`,
      whose: whose,
      title: alert.title,
      description,
      facts,
      links: ctx.links,
      priority: alert.priority,
      footer: `Times are in ${ctx.timeZone}; you can change your time zone in your profile.`,
    }),
    summary: [trimmed(alert.description, 120) || alert.source, `${why} · opened ${age(alert.created_at, ctx.now)}`].join('\n'),
    sms: smsText(alert.priority, ctx.clientName, alert.title, ctx.links.shortAck),
    url: ctx.links.open,
    pushData: { alertId: alert.id, ackToken: ctx.links.ackToken },
    // A voice call (issue 27) says the client, the priority and the title.
    voice: `Alertdesk. ${label(alert.priority)} priority alert${ctx.clientName ? ` for ${ctx.clientName}` : ''}${ctx.tenantName ? `, ${ctx.tenantName}` : ''}: ${trimmed(alert.title, 300)}.`,
  };
}

/** One summary page for the pages held during a storm: how many alerts, per client, and where to acknowledge them. */
export function summaryMessage(p: { count: number; byClient: Array<[string, number]>; tenantName: string | null; url: string }): Message {
  const clients = p.byClient
    .slice(0, 4)
    .map(([name, n]) => `${n} ${name}`)
    .concat(p.byClient.length > 4 ? [`${p.byClient.slice(4).reduce((s, [, n]) => s + n, 0)} more`] : [])
    .join(', ');
  const head = `${p.count} new alert${p.count === 1 ? '' : 's'} for you${clients ? `: ${clients}` : ''}`;
  const title = `${head}${p.tenantName ? ` · ${p.tenantName}` : ''}`;
  const text = [
    title,
    '',
    'So many alerts paged you within a minute that they are summed up here rather than sent one by one.',
    `Open them to acknowledge all: ${p.url}`,
  ].join('\n');
  return {
    purpose: 'alert',
    title,
    text,
    summary: `${head} — acknowledge all`,
    sms: fitSms('', `${head} — acknowledge all:`, ` ${p.url}`),
    url: p.url,
  };
}
