import { createHash, randomUUID } from 'node:crypto';
import type { AlertPriority } from '../../../../contract/alerts.ts';
import type { AlertmanagerWebhook, GenericEvent, PagerDutyEvent } from '../../../../contract/integrations.ts';

/** One event in our terms, whatever format it arrived in. */
export interface NormalizedEvent {
  action: 'trigger' | 'acknowledge' | 'resolve';
  dedupKey: string;
  title: string;
  description: string;
  priority: AlertPriority;
  source: string;
  /**
   * A client named by the event itself (generic `client`, a `client` label, PagerDuty `custom_details.client`, a
   * `client:<name>` tag, a vendor's organization or site), matched against the tenant's client ids, names and
   * aliases; when it matches none, the integration's client applies.
   */
  clientRef: string | null;
  tags: string[];
  metadata: Record<string, unknown>;
  /** A routing rule's escalation policy (issue 28): governs the alert instead of the integration's, client's or default. */
  escalationPolicyId?: string;
}

export const TITLE_MAX = 1024;
const DESCRIPTION_MAX = 65_536;

/** A dedup key for a trigger that came without one: 32 hex characters, like PagerDuty's. */
export const generatedDedupKey = () => randomUUID().replace(/-/g, '');

/** At most `max` UTF-16 units, never cutting a surrogate pair in two (half a pair is not valid text to store). */
export const clip = (s: string, max: number) => {
  if (s.length <= max) return s;
  const end = max > 0 && s.charCodeAt(max - 1) >= 0xd800 && s.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
  return s.slice(0, end);
};

const PAGERDUTY_SEVERITY: Record<NonNullable<PagerDutyEvent['payload']>['severity'], AlertPriority> = {
  critical: 'critical',
  error: 'high',
  warning: 'medium',
  info: 'info',
};

/** PagerDuty severities: critical / error / warning / info → critical / high / medium / info. */
export const pagerDutyPriority = (severity: keyof typeof PAGERDUTY_SEVERITY): AlertPriority => PAGERDUTY_SEVERITY[severity];

/**
 * Alertmanager's `severity` label: critical; error, high or major → high; warning (or medium) → medium; low (or
 * minor) → low; info or none → info; missing or anything else → medium.
 */
export function alertmanagerPriority(severity: string | undefined): AlertPriority {
  switch ((severity ?? '').trim().toLowerCase()) {
    case 'critical':
      return 'critical';
    case 'error':
    case 'high':
    case 'major':
      return 'high';
    case 'low':
    case 'minor':
      return 'low';
    case 'info':
    case 'none':
      return 'info';
    default:
      return 'medium';
  }
}

/** The client a tag list names (`client:<name>` or `client=<name>`), else null. */
export function clientTag(tags: readonly string[]): string | null {
  for (const t of tags) {
    const m = /^client[:=](.+)$/i.exec(t.trim());
    if (m && m[1].trim()) return m[1].trim();
  }
  return null;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * `base` with `fields` laid over it, without the undefined, null and empty-string values (a field that is empty
 * removes the base's value of that name), as `{...base, ...fields}` filtered, in plain loops: this runs once per
 * ingested event.
 */
export function nonEmpty(base: Record<string, unknown>, fields: Record<string, unknown> = {}) {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(base)) if (k !== '__proto__' && !isEmpty(base[k])) out[k] = base[k];
  for (const k of Object.keys(fields)) {
    const v = fields[k];
    if (!isEmpty(v)) out[k] = v;
    else if (k in out) delete out[k];
  }
  return out;
}

export function fromPagerDuty(e: PagerDutyEvent): NormalizedEvent {
  const dedupKey = e.dedup_key || generatedDedupKey();
  if (e.event_action !== 'trigger' || !e.payload) {
    return { action: e.event_action, dedupKey, title: '', description: '', priority: 'medium', source: '', clientRef: null, tags: [], metadata: {} };
  }
  const p = e.payload;
  const details = p.custom_details;
  const detailFields =
    details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : details !== undefined ? { custom_details: details } : {};
  return {
    action: 'trigger',
    dedupKey,
    title: clip(p.summary, TITLE_MAX),
    description: typeof details === 'string' ? clip(details, DESCRIPTION_MAX) : '',
    priority: pagerDutyPriority(p.severity),
    source: clip(p.source, 1024),
    clientRef: detailFields.client !== undefined && typeof detailFields.client !== 'object' ? clip(String(detailFields.client).trim(), 200) || null : null,
    tags: [p.component && `component:${p.component}`, p.group && `group:${p.group}`, p.class && `class:${p.class}`].filter((t): t is string => !!t),
    metadata: nonEmpty(detailFields, {
      severity: p.severity,
      timestamp: p.timestamp,
      component: p.component,
      group: p.group,
      class: p.class,
      client: e.client,
      client_url: e.client_url,
      links: e.links?.length ? e.links : undefined,
      images: e.images?.length ? e.images : undefined,
    }),
  };
}

/** Alertmanager's own fingerprint, or (older versions send none) a stable hash of the sorted labels. */
function fingerprintOf(labels: Record<string, string>) {
  const sorted = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u0000');
  return createHash('sha256').update(sorted).digest('hex').slice(0, 16);
}

export function fromAlertmanager(body: AlertmanagerWebhook): NormalizedEvent[] {
  return body.alerts.map((a) => {
    const labels = a.labels;
    const annotations = a.annotations ?? {};
    const status = a.status ?? body.status;
    const { summary, description, message, title: annotationTitle, ...otherAnnotations } = annotations;
    const title = summary || annotationTitle || labels.alertname || 'Alertmanager alert';
    return {
      action: status === 'resolved' ? 'resolve' : 'trigger',
      dedupKey: a.fingerprint || fingerprintOf(labels),
      title: clip(title, TITLE_MAX),
      description: clip(description || message || '', DESCRIPTION_MAX),
      priority: alertmanagerPriority(labels.severity),
      source: clip(labels.instance || labels.job || labels.service || hostOf(body.externalURL) || 'alertmanager', 1024),
      clientRef: labels.client?.trim() || body.commonLabels?.client?.trim() || null,
      tags: Object.entries(labels).map(([k, v]) => clip(`${k}:${v}`, 200)),
      metadata: nonEmpty({
        ...otherAnnotations,
        generatorURL: a.generatorURL,
        fingerprint: a.fingerprint,
        startsAt: a.startsAt,
        endsAt: a.endsAt && !a.endsAt.startsWith('0001-') ? a.endsAt : undefined,
        receiver: body.receiver,
        externalURL: body.externalURL,
        groupKey: body.groupKey,
      }),
    };
  });
}

function hostOf(url: string | undefined) {
  if (!url) return '';
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

export function fromGeneric(e: GenericEvent, integrationName: string): NormalizedEvent {
  return {
    action: e.action,
    dedupKey: e.dedupKey || generatedDedupKey(),
    title: clip(e.title ?? '', TITLE_MAX),
    description: e.description ?? '',
    priority: e.priority ?? 'medium',
    source: e.source || integrationName,
    clientRef: e.client?.trim() || clientTag(e.tags ?? []),
    tags: [...new Set((e.tags ?? []).map((t) => t.trim()).filter(Boolean))],
    metadata: e.metadata ?? {},
  };
}
