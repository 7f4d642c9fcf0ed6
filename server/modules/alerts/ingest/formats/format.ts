import type { z } from 'zod';
import type { IngestFormatName } from '../../../../../contract/ingest-formats.ts';
import { badRequest } from '../../../../http/errors.ts';
import { clip, TITLE_MAX, type NormalizedEvent } from '../ingest.mappers.ts';

export { clientTag } from '../ingest.mappers.ts';

/**
 * One vendor's webhook: how many alerts a body holds (counted against the key's rate limit before anything else
 * is read), and its body → our events (none: accepted, nothing to store, e.g. a monitor going into maintenance).
 * `parse` throws a 400 naming the field for a malformed body; only aws-sns is asynchronous (it verifies a signature).
 */
export interface IngestFormat {
  name: IngestFormatName;
  summary: string;
  count(body: unknown): number;
  parse(body: unknown, ctx: { integrationName: string }): NormalizedEvent[] | Promise<NormalizedEvent[]>;
  /** What `parse` makes of a body already accepted once, without side effects (aws-sns: no signature check, no confirming). */
  preview?(body: unknown): NormalizedEvent[];
}

/** Tells a format's events apart from Alertmanager's or another format's with the same ids. */
export const keyed = (format: IngestFormatName, id: string | number) => clip(`${format}:${id}`, 255);

/** `body` checked against `schema`, or a 400 whose fields name each wrong field (dotted path) once. */
export function validate<T extends z.ZodType>(schema: T, body: unknown, prefix = ''): z.output<T> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const fields: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body';
    fields[key] ??= issue.message;
  }
  const [field, message] = Object.entries(fields)[0];
  throw badRequest(field === 'body' ? message : `${field}: ${message}`, fields);
}

/** A 400 naming one field, for rules a schema does not say (one of two fields required, say). */
export const fieldError = (field: string, message: string) => badRequest(`${field}: ${message}`, { [field]: message });

/** How many alerts a body's `list` field holds, for the rate limit (a malformed body costs one). */
export const countOf = (body: unknown, list: string) => {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[list] : undefined;
  return Array.isArray(v) ? Math.max(1, v.length) : 1;
};

/** A Zabbix macro that was not expanded (`{HOST.IP}`) or a Datadog variable left as is (`$ALERT_PRIORITY`): no value. */
export const filled = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  const s = String(v).trim();
  return /^(\{[A-Z0-9_.$]+\}|\$[A-Z][A-Z0-9_]*)$/.test(s) ? '' : s;
};

export const title = (...candidates: Array<string | null | undefined>) => clip(candidates.find((c) => c && c.trim())?.trim() ?? 'Alert', TITLE_MAX);

/** `name:value` tags of the non-empty values, and the value of a `client:<name>` tag among `tags`, if any. */
export function tagsOf(pairs: Record<string, string | number | null | undefined>, more: string[] = []) {
  const tags = [...more];
  for (const [k, v] of Object.entries(pairs)) if (filled(v)) tags.push(clip(`${k}:${filled(v)}`, 200));
  return [...new Set(tags)];
}

/** The first of `refs` with a value: where the client comes from in this payload (matched by name, alias or id). */
export const clientRefOf = (...refs: Array<string | number | null | undefined>) => {
  for (const r of refs) if (filled(r)) return clip(filled(r), 200);
  return null;
};
