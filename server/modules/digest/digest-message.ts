import { DateTime } from 'luxon';
import { ALERT_PRIORITIES } from '../../../contract/alerts.ts';
import type { DigestFigures } from '../reports/reports.service.ts';
import { escapeHtml as e } from '../paging/page-message.ts';

// What the weekly digest says: for each tenant of the person, last week's alerts by priority, MTTA/MTTR against the
// week before, the busiest clients and the alerts that paged nobody. HTML (inline styles, a dark variant) and text.

export interface TenantWeek {
  tenantName: string;
  week: DigestFigures;
  previous: DigestFigures;
}

export interface DigestContent {
  personName: string;
  /** The Monday the digest is for, and the zone its dates are given in. */
  from: string;
  to: string;
  timeZone: string;
  tenants: TenantWeek[];
  dashboardUrl: string;
  /** Null for someone who is owner or admin of none of the tenants (only they see reports). */
  reportsUrl: string | null;
  offUrl: string;
}

/** "4 min", "1 h 5 min", "2 days 3 h"; an em dash without a value. */
export function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  return `${Math.floor(hours / 24)} days${hours % 24 ? ` ${hours % 24} h` : ''}`;
}

/** "faster than the week before (12 min)", "slower …", "as the week before", or nothing to compare with. */
export function comparison(now: number | null, before: number | null): string {
  if (now === null || before === null) return before === null ? '' : `week before: ${duration(before)}`;
  if (now === before) return 'as the week before';
  return `${now < before ? 'faster' : 'slower'} than the week before (${duration(before)})`;
}

const label = (p: string) => p.charAt(0).toUpperCase() + p.slice(1);
const period = (c: DigestContent) => {
  const from = DateTime.fromISO(c.from, { zone: c.timeZone });
  const to = DateTime.fromISO(c.to, { zone: c.timeZone }).minus({ days: 1 });
  return `${from.toFormat('ccc d LLL')} – ${to.toFormat('ccc d LLL yyyy')}`;
};

export function digestSubject(c: DigestContent): string {
  const opened = c.tenants.reduce((n, t) => n + t.week.opened, 0);
  const names = c.tenants.length === 1 ? `${c.tenants[0].tenantName}: ` : '';
  return `Your week in Alertdesk: ${names}${opened} alert${opened === 1 ? '' : 's'} (${period(c)})`;
}

function tenantText(t: TenantWeek): string {
  const w = t.week;
  const lines = [`${t.tenantName}`, `  Alerts: ${w.opened} (week before: ${t.previous.opened})`];
  if (w.opened) lines.push(`  ${w.byPriority.filter((p) => p.opened).map((p) => `${label(p.priority)} ${p.opened}`).join(', ')}`);
  lines.push(`  Time to acknowledge (mean): ${duration(w.mttaSeconds)}${comparison(w.mttaSeconds, t.previous.mttaSeconds) ? `, ${comparison(w.mttaSeconds, t.previous.mttaSeconds)}` : ''}`);
  lines.push(`  Time to resolve (mean): ${duration(w.mttrSeconds)}${comparison(w.mttrSeconds, t.previous.mttrSeconds) ? `, ${comparison(w.mttrSeconds, t.previous.mttrSeconds)}` : ''}`);
  if (w.neverAcknowledged) lines.push(`  Not acknowledged: ${w.neverAcknowledged}`);
  if (w.topClients.length) lines.push(`  Top clients: ${w.topClients.map((c) => `${c.name} (${c.opened})`).join(', ')}`);
  if (w.pagedNobody) lines.push(`  Paged nobody: ${w.pagedNobody} — set up an escalation policy`);
  return lines.join('\n');
}

const cell = (text: string, extra = '') => `<td style="padding:4px 12px 4px 0;vertical-align:top;${extra}">${e(text)}</td>`;
const muted = 'color:#495057';

function tenantHtml(t: TenantWeek): string {
  const w = t.week;
  const priorities = ALERT_PRIORITIES.map((p) => {
    const n = w.byPriority.find((x) => x.priority === p)?.opened ?? 0;
    return `<td style="padding:6px 10px 6px 0;text-align:center"><div style="font-size:18px;font-weight:700">${n}</div><div class="muted" style="font-size:12px;${muted}">${label(p)}</div></td>`;
  }).join('');
  const rows = [
    ['Time to acknowledge (mean)', duration(w.mttaSeconds), comparison(w.mttaSeconds, t.previous.mttaSeconds)],
    ['Time to resolve (mean)', duration(w.mttrSeconds), comparison(w.mttrSeconds, t.previous.mttrSeconds)],
    ['Not acknowledged', String(w.neverAcknowledged), ''],
  ]
    .map(([k, v, note]) => `<tr>${cell(k, muted)}${cell(v, 'font-weight:600')}${cell(note, `${muted};font-size:13px`)}</tr>`)
    .join('');
  const clients = w.topClients.length
    ? `<p class="muted" style="margin:12px 0 4px;${muted}">Top clients by alerts</p><table role="presentation" style="border-collapse:collapse">${w.topClients
        .map((c) => `<tr>${cell(c.name)}${cell(String(c.opened), 'font-weight:600')}</tr>`)
        .join('')}</table>`
    : '';
  const nobody = w.pagedNobody
    ? `<p style="margin:12px 0 0;padding:8px 10px;border-radius:6px;background:#fff4e6;color:#d9480f">${w.pagedNobody} alert${w.pagedNobody === 1 ? '' : 's'} paged nobody — set up an escalation policy</p>`
    : '';
  return `<div class="box" style="margin:0 0 16px;padding:14px 16px;border:1px solid #dee2e6;border-radius:8px">
<h2 style="margin:0 0 4px;font-size:17px">${e(t.tenantName)}</h2>
<p class="muted" style="margin:0 0 8px;${muted}">${w.opened} alert${w.opened === 1 ? '' : 's'} (week before: ${t.previous.opened})</p>
<table role="presentation" style="border-collapse:collapse;margin:0 0 8px"><tr>${priorities}</tr></table>
<table role="presentation" style="border-collapse:collapse">${rows}</table>${clients}${nobody}
</div>`;
}

export function digestText(c: DigestContent): string {
  return [
    `Hello ${c.personName},`,
    '',
    `Your week in Alertdesk, ${period(c)} (${c.timeZone}):`,
    '',
    ...c.tenants.map(tenantText).flatMap((t) => [t, '']),
    `Dashboard: ${c.dashboardUrl}`,
    ...(c.reportsUrl ? [`Reports: ${c.reportsUrl}`] : []),
    '',
    `You get this digest every Monday at 08:00. Turn it off: ${c.offUrl}`,
  ].join('\n');
}

export function digestHtml(c: DigestContent): string {
  const link = (href: string, text: string) => `<a href="${e(href)}" style="color:#1c7ed6">${e(text)}</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">
<title>${e(digestSubject(c))}</title>
<style>
@media (prefers-color-scheme: dark) {
  body, .card { background:#1a1b1e !important; color:#e9ecef !important; }
  .muted, .muted td { color:#adb5bd !important; }
  .box { background:#25262b !important; border-color:#373a40 !important; }
}
</style></head>
<body style="margin:0;padding:0;background:#f1f3f5;color:#212529;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.45">
<div class="card" style="max-width:600px;margin:0 auto;padding:20px;background:#ffffff">
<p style="margin:0 0 4px">Hello ${e(c.personName)},</p>
<h1 style="margin:0 0 4px;font-size:20px">Your week in Alertdesk</h1>
<p class="muted" style="margin:0 0 16px;${muted}">${e(period(c))} · ${e(c.timeZone)}</p>
${c.tenants.map(tenantHtml).join('\n')}
<p style="margin:0 0 16px">${link(c.dashboardUrl, 'Open the dashboard')}${c.reportsUrl ? ` · ${link(c.reportsUrl, 'Reports')}` : ''}</p>
<p class="muted" style="margin:0;${muted};font-size:13px">You get this digest every Monday at 08:00. ${link(c.offUrl, 'Turn off the weekly digest')}</p>
</div></body></html>`;
}
