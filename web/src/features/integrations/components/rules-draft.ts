import type { AlertPriority } from '../../../../../contract/alerts.ts';
import type { RoutingRule, RuleOp, RulesPreview } from '../../../../../contract/ingest-formats.ts';

/** One condition as the editor holds it (`key`: React's, stable across moves). */
export interface ConditionDraft {
  key: string;
  field: string;
  op: RuleOp;
  value: string;
}

/** Where a rule takes the client from: unchanged, a chosen client, or a field's value matched to client names. */
export type ClientMode = 'none' | 'client' | 'field';

export interface RuleDraft {
  key: string;
  when: ConditionDraft[];
  clientMode: ClientMode;
  clientId: string | null;
  clientFrom: string;
  priority: AlertPriority | '';
  escalationPolicyId: string | null;
  drop: boolean;
  dedupKey: string;
}

let seq = 0;
const nextKey = () => `r${++seq}`;

export const newCondition = (field = ''): ConditionDraft => ({ key: nextKey(), field, op: 'equals', value: '' });

export const newRule = (): RuleDraft => ({ key: nextKey(), when: [newCondition()], clientMode: 'client', clientId: null, clientFrom: '', priority: '', escalationPolicyId: null, drop: false, dedupKey: '' });

export function draftOf(rule: RoutingRule): RuleDraft {
  const t = rule.then;
  return {
    key: nextKey(),
    when: rule.when.map((c) => ({ key: nextKey(), field: c.field, op: c.op, value: c.value ?? '' })),
    clientMode: t.clientId ? 'client' : t.clientFrom ? 'field' : 'none',
    clientId: t.clientId ?? null,
    clientFrom: t.clientFrom ?? '',
    priority: t.priority ?? '',
    escalationPolicyId: t.escalationPolicyId ?? null,
    drop: !!t.drop,
    dedupKey: t.dedupKey ?? '',
  };
}

/**
 * The rules as the API takes them, one condition per condition drafted (left as typed, so the server's field
 * messages, `rules.0.when.1.value`, point at the input they are about). A dropping rule does nothing else.
 */
export function rulesOf(drafts: RuleDraft[]): RoutingRule[] {
  return drafts.map((d) => {
    const when = d.when.map((c) => ({ field: c.field.trim(), op: c.op, ...(c.op === 'exists' ? {} : { value: c.value }) }));
    if (d.drop) return { when, then: { drop: true as const } };
    const then: RoutingRule['then'] = {};
    if (d.clientMode === 'client' && d.clientId) then.clientId = d.clientId;
    if (d.clientMode === 'field') then.clientFrom = d.clientFrom.trim();
    if (d.priority) then.priority = d.priority;
    if (d.escalationPolicyId) then.escalationPolicyId = d.escalationPolicyId;
    if (d.dedupKey.trim()) then.dedupKey = d.dedupKey.trim();
    return { when, then };
  });
}

/** Every field seen on the previewed events (the normalized ones first), with the values seen for each. */
export function fieldsSeen(preview: RulesPreview | undefined): Map<string, string[]> {
  const seen = new Map<string, string[]>(['title', 'description', 'priority', 'source', 'dedupKey', 'client'].map((f) => [f, []]));
  for (const ev of preview?.events ?? [])
    for (const a of ev.alerts)
      for (const { field, value } of a.fields ?? []) {
        const values = seen.get(field) ?? [];
        if (!values.includes(value) && values.length < 20) values.push(value);
        seen.set(field, values);
      }
  return seen;
}
