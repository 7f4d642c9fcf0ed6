import type { RoutingRule, RuleCondition } from '../../../../contract/ingest-formats.ts';
import { clip, type NormalizedEvent } from './ingest.mappers.ts';

/** The text of a rule field on an event, or undefined when the event has no such field. */
export function fieldValue(ev: NormalizedEvent, field: string): string | undefined {
  switch (field) {
    case 'title':
      return ev.title;
    case 'description':
      return ev.description;
    case 'priority':
      return ev.priority;
    case 'source':
      return ev.source;
    case 'dedupKey':
      return ev.dedupKey;
    case 'client':
      return ev.clientRef ?? undefined;
  }
  if (field.startsWith('tags.')) {
    const prefix = `${field.slice(5)}:`;
    const tag = ev.tags.find((t) => t.startsWith(prefix));
    return tag === undefined ? undefined : tag.slice(prefix.length);
  }
  if (field.startsWith('metadata.')) {
    let v: unknown = ev.metadata;
    for (const part of field.slice(9).split('.')) {
      if (!v || typeof v !== 'object' || !Object.hasOwn(v, part)) return undefined;
      v = (v as Record<string, unknown>)[part];
    }
    if (v === null || v === undefined) return undefined;
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return undefined;
}

/** Patterns compiled once per rule text (rules are few; the cache is bounded anyway). */
const patterns = new Map<string, RegExp | null>();
function pattern(source: string): RegExp | null {
  let re = patterns.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source, 'i');
    } catch {
      re = null;
    }
    if (patterns.size > 5_000) patterns.clear();
    patterns.set(source, re);
  }
  return re;
}

/** Does the condition hold? Text comparisons ignore case; a pattern reads at most the first 10,000 characters. */
export function holds(ev: NormalizedEvent, c: RuleCondition): boolean {
  const v = fieldValue(ev, c.field);
  if (c.op === 'exists') return v !== undefined && v !== '';
  if (v === undefined || c.value === undefined) return false;
  if (c.op === 'equals') return v.toLowerCase() === c.value.toLowerCase();
  if (c.op === 'contains') return v.toLowerCase().includes(c.value.toLowerCase());
  return pattern(c.value)?.test(v.slice(0, 10_000)) ?? false;
}

/** A dedup key template with its `{{field}}` placeholders filled (a missing field fills nothing). */
export const fillTemplate = (template: string, ev: NormalizedEvent) => clip(template.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (_, f: string) => fieldValue(ev, f) ?? ''), 255) || ev.dedupKey;

/** What the rules made of an event: the event (changed or not) and the index of the rule that applied, or dropped. */
export type RuleOutcome = { event: NormalizedEvent; rule: number | null; dropped: boolean };

/**
 * The first rule all of whose conditions hold decides (none: the event as it came, its client matched by name or
 * alias as usual). Pure: no client is looked up here, a `clientId` or `clientFrom` becomes the event's client
 * reference, which ingestion matches against the tenant's client ids, names and aliases.
 */
export function applyRules(rules: readonly RoutingRule[] | undefined, ev: NormalizedEvent): RuleOutcome {
  if (!rules?.length) return { event: ev, rule: null, dropped: false };
  const index = rules.findIndex((r) => r.when.every((c) => holds(ev, c)));
  if (index < 0) return { event: ev, rule: null, dropped: false };
  const then = rules[index].then;
  if (then.drop) return { event: ev, rule: index, dropped: true };
  const fromField = then.clientFrom ? fieldValue(ev, then.clientFrom) : undefined;
  return {
    event: {
      ...ev,
      clientRef: then.clientId ?? (fromField ? clip(fromField.trim(), 200) || ev.clientRef : ev.clientRef),
      priority: then.priority ?? ev.priority,
      dedupKey: then.dedupKey ? fillTemplate(then.dedupKey, ev) : ev.dedupKey,
      ...(then.escalationPolicyId ? { escalationPolicyId: then.escalationPolicyId } : {}),
    },
    rule: index,
    dropped: false,
  };
}

const FIELD_SAMPLE_CHARS = 200;
const MAX_FIELDS = 100;

/**
 * The fields a rule can read on an event, each with its value (clipped), for the rules editor's suggestions: the
 * normalized fields that are set, each `name:value` tag as `tags.NAME`, and metadata leaves as `metadata.PATH` (a
 * nested object is walked three levels deep; an array or deeper object is one field, as `fieldValue` reads it).
 */
export function eventFields(ev: NormalizedEvent): Array<{ field: string; value: string }> {
  const out: Array<{ field: string; value: string }> = [];
  const seen = new Set<string>();
  const put = (field: string, value: string | undefined) => {
    if (out.length >= MAX_FIELDS || value === undefined || value === '' || /\s/.test(field) || field.length > 200 || seen.has(field)) return;
    seen.add(field);
    out.push({ field, value: value.slice(0, FIELD_SAMPLE_CHARS) });
  };
  for (const f of ['title', 'description', 'priority', 'source', 'dedupKey', 'client']) put(f, fieldValue(ev, f));
  for (const t of ev.tags) {
    const at = t.indexOf(':');
    if (at > 0) put(`tags.${t.slice(0, at)}`, t.slice(at + 1));
  }
  const walk = (v: unknown, path: string, depth: number) => {
    if (v === null || v === undefined) return;
    if (typeof v === 'object' && !Array.isArray(v) && depth < 3) {
      for (const k of Object.keys(v)) if (k && !k.includes('.')) walk((v as Record<string, unknown>)[k], `${path}.${k}`, depth + 1);
      return;
    }
    put(path, typeof v === 'object' ? JSON.stringify(v) : String(v));
  };
  walk(ev.metadata, 'metadata', 0);
  return out;
}
