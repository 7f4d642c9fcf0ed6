import { z } from 'zod';
import { AlertPriority } from './alerts.ts';
import { patternProblem } from './integrations.ts';

/**
 * The vendor formats of `POST /api/ingest/{format}` (key as `Authorization: Bearer KEY`) and
 * `POST /api/ingest/{format}/{key}` (for tools that cannot set a header), besides PagerDuty, Alertmanager and our
 * generic format. Shared by the server (one route per entry) and the integration card (a copyable URL each).
 */
export const INGEST_FORMATS = ['grafana', 'zabbix', 'uptime-kuma', 'ninjaone', 'datto-rmm', 'azure-monitor', 'datadog', 'aws-sns'] as const;
export type IngestFormatName = (typeof INGEST_FORMATS)[number];

export const INGEST_FORMAT_LABELS: Record<IngestFormatName, string> = {
  grafana: 'Grafana',
  zabbix: 'Zabbix',
  'uptime-kuma': 'Uptime Kuma',
  ninjaone: 'NinjaOne',
  'datto-rmm': 'Datto RMM',
  'azure-monitor': 'Azure Monitor',
  datadog: 'Datadog',
  'aws-sns': 'AWS SNS (CloudWatch)',
};

/**
 * Severity → priority, one table for every format (the key is the vendor's value, lowercased; `*` is what anything
 * else, or none, becomes). Grafana uses the `severity` label like Alertmanager; Uptime Kuma and CloudWatch have no
 * severity, so a monitor that is down and an alarm in ALARM are high.
 */
export const FORMAT_PRIORITIES: Record<IngestFormatName, Record<string, AlertPriority>> = {
  grafana: { critical: 'critical', error: 'high', high: 'high', major: 'high', warning: 'medium', medium: 'medium', low: 'low', minor: 'low', info: 'info', none: 'info', '*': 'medium' },
  // {EVENT.NSEVERITY}: 0 not classified, 1 information, 2 warning, 3 average, 4 high, 5 disaster.
  zabbix: { '5': 'critical', '4': 'high', '3': 'medium', '2': 'low', '1': 'info', '0': 'medium', '*': 'medium' },
  // heartbeat.status 0 (down); 1 (up) resolves; 2 (pending) and 3 (maintenance) are not alerts.
  'uptime-kuma': { '0': 'high', '*': 'info' },
  ninjaone: { critical: 'critical', major: 'high', moderate: 'medium', minor: 'low', none: 'info', '*': 'medium' },
  'datto-rmm': { critical: 'critical', high: 'high', moderate: 'medium', low: 'low', information: 'info', '*': 'medium' },
  'azure-monitor': { sev0: 'critical', sev1: 'high', sev2: 'medium', sev3: 'low', sev4: 'info', '*': 'medium' },
  // $ALERT_PRIORITY first; without one, $ALERT_TYPE (error / warning / info / success).
  datadog: { p1: 'critical', p2: 'high', p3: 'medium', p4: 'low', p5: 'info', error: 'high', warning: 'medium', info: 'info', success: 'info', '*': 'medium' },
  // NewStateValue: ALARM; OK resolves.
  'aws-sns': { alarm: 'high', insufficient_data: 'low', '*': 'medium' },
};

/** The priority a format's severity value maps to (FORMAT_PRIORITIES). */
export function formatPriority(format: IngestFormatName, severity: unknown): AlertPriority {
  const table = FORMAT_PRIORITIES[format];
  const key = typeof severity === 'string' || typeof severity === 'number' ? String(severity).trim().toLowerCase() : '';
  return Object.hasOwn(table, key) ? table[key] : table['*'];
}

// ---- Routing rules (issue 28): one monitoring tool, many clients ----------------------------------------------

export const RULE_OPS = ['equals', 'contains', 'matches', 'exists'] as const;
export type RuleOp = (typeof RULE_OPS)[number];
export const RULE_LIMITS = { rules: 50, conditions: 10, field: 200, value: 500, template: 255 } as const;

export const RULE_MSG = {
  valueRequired: 'A value is required for this operator',
  fieldInvalid: 'Field must be title, description, priority, source, dedupKey, client, a tag name (tags.NAME) or metadata.PATH',
  oneTarget: 'Give either a client or a field to take the client from, not both',
  emptyThen: 'A rule must do something: set a client, a priority, an escalation policy or a dedup key, or drop the alert',
  tooManyRules: `At most ${RULE_LIMITS.rules} rules per integration`,
  tooManyConditions: `At most ${RULE_LIMITS.conditions} conditions per rule`,
} as const;

/** What a condition or `clientFrom` may read: the normalized alert, its `name:value` tags, and its metadata. */
export const RULE_FIELD_RE = /^(title|description|priority|source|dedupKey|client|tags\.[^\s]{1,190}|metadata\.[^\s]{1,190})$/;

export const RuleCondition = z
  .object({
    field: z.string({ error: RULE_MSG.fieldInvalid }).trim().max(RULE_LIMITS.field).regex(RULE_FIELD_RE, RULE_MSG.fieldInvalid),
    op: z.enum(RULE_OPS, { error: 'op must be equals, contains, matches or exists' }),
    value: z.string().max(RULE_LIMITS.value, `Must be at most ${RULE_LIMITS.value} characters`).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.op === 'exists') return;
    if (!c.value) return ctx.addIssue({ code: 'custom', path: ['value'], message: RULE_MSG.valueRequired });
    if (c.op === 'matches') {
      const problem = patternProblem(c.value);
      if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
    }
  });
export type RuleCondition = z.infer<typeof RuleCondition>;

export const RoutingRule = z
  .object({
    /** Every condition must hold (none: always). */
    when: z.array(RuleCondition).max(RULE_LIMITS.conditions, RULE_MSG.tooManyConditions).default([]),
    then: z.object({
      clientId: z.string().max(100).optional(),
      /** A field whose value is matched against the client names and aliases. */
      clientFrom: z.string().trim().max(RULE_LIMITS.field).regex(RULE_FIELD_RE, RULE_MSG.fieldInvalid).optional(),
      priority: AlertPriority.optional(),
      drop: z.literal(true).optional(),
      /** `{{field}}` placeholders filled from the alert, e.g. `{{tags.instance}}-{{title}}`. */
      dedupKey: z.string().trim().min(1).max(RULE_LIMITS.template).optional(),
      /** The escalation policy that governs the alert instead of the integration's, client's or default (issue 28). */
      escalationPolicyId: z.string().max(100).optional(),
    }),
  })
  .superRefine((r, ctx) => {
    if (r.then.clientId && r.then.clientFrom) ctx.addIssue({ code: 'custom', path: ['then', 'clientFrom'], message: RULE_MSG.oneTarget });
    if (!r.then.clientId && !r.then.clientFrom && !r.then.priority && !r.then.drop && !r.then.dedupKey && !r.then.escalationPolicyId) ctx.addIssue({ code: 'custom', path: ['then'], message: RULE_MSG.emptyThen });
  });
export type RoutingRule = z.infer<typeof RoutingRule>;

/** `PUT …/integrations/{id}/rules` body and the answer of GET and PUT: the ordered list (the first match wins). */
export const RoutingRules = z.object({ rules: z.array(RoutingRule).max(RULE_LIMITS.rules, RULE_MSG.tooManyRules) }).meta({ id: 'RoutingRules' });
export type RoutingRules = z.infer<typeof RoutingRules>;

/** `POST …/integrations/{id}/rules/preview`: rules to try (left out: the saved ones) over the kept raw events. */
export const RulesPreviewBody = z.object({ rules: z.array(RoutingRule).max(RULE_LIMITS.rules, RULE_MSG.tooManyRules).optional() });
export type RulesPreviewBody = z.input<typeof RulesPreviewBody>;

export const PreviewAlert = z.object({
  action: z.enum(['trigger', 'acknowledge', 'resolve']),
  title: z.string(),
  priority: AlertPriority,
  dedupKey: z.string(),
  /** The client the event would be routed to; null: the integration's own. */
  clientId: z.string().nullable(),
  clientName: z.string().nullable(),
  /** The index of the rule that applied, or null. */
  rule: z.number().int().nullable(),
  dropped: z.boolean(),
  /** The fields a rule can read on the event as it came, with their values (clipped): the rules editor's suggestions. */
  fields: z.array(z.object({ field: z.string(), value: z.string() })).optional(),
});

/** The last raw events (newest first, secrets redacted) and what the rules make of each; `error` when it no longer reads. */
export const RulesPreview = z
  .object({
    events: z.array(z.object({ id: z.string(), format: z.string(), receivedAt: z.string(), body: z.string(), error: z.string().nullable(), alerts: z.array(PreviewAlert) })),
  })
  .meta({ id: 'RulesPreview' });
export type RulesPreview = z.infer<typeof RulesPreview>;
