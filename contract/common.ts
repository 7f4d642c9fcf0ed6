import { z } from 'zod';

/** The one error shape every API error answers with. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
      /** On a 500: the request's id, found on the server's log lines and in the error report. */
      requestId: z.string().optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const IdParam = z.object({ id: z.string().min(1).max(100) });
export const TenantParam = z.object({ tenantId: z.string().min(1).max(100) });

/** Paginated list envelope: `{items, total, page, pageSize}`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
}

export const Ok = z.object({ ok: z.literal(true) });

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (s: string) => EMAIL_RE.test(s);

/** Required, trimmed string whose every failure (missing, wrong type, empty) says `message`. */
export const requiredString = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

/**
 * Bounds of free-form JSON (alert metadata, PagerDuty custom_details, Alertmanager labels and annotations): nesting
 * depth counts every object or array on the way down, the outermost one as 1; size is the length of the JSON text.
 * A request body as a whole is held to the same depth (server/http/body-guard.ts).
 */
export const JSON_LIMITS = { depth: 32, metadataChars: 65_536, labelsChars: 16_384 } as const;

/** Texts of refused input that is not about one form field's meaning. */
export const INPUT_MSG = {
  tooDeep: `Nested too deeply (limit ${JSON_LIMITS.depth})`,
  badCharacters: 'Must not contain NUL characters or unpaired surrogates',
  forbiddenKey: 'Forbidden property name in body',
  tooLarge: (max: number) => `Must be at most ${max} characters as JSON`,
} as const;

/**
 * How deep (containers on the way down, the outermost counting 1) and how long as JSON text a parsed JSON value is,
 * measured without recursion and stopped as soon as either bound is passed (the numbers are then only lower bounds).
 */
export function measureJson(value: unknown, maxDepth: number, maxChars: number): { depth: number; chars: number } {
  let depth = 0;
  let chars = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v === 'string') chars += v.length + 2;
    else if (v === null || typeof v !== 'object') chars += String(v).length;
    else {
      if (d > depth) depth = d;
      if (depth > maxDepth) break;
      chars += 2;
      if (Array.isArray(v)) {
        chars += v.length;
        for (const item of v) stack.push([item, d + 1]);
      } else {
        for (const [k, item] of Object.entries(v)) {
          chars += k.length + 4;
          stack.push([item, d + 1]);
        }
      }
    }
    if (chars > maxChars) break;
  }
  return { depth, chars };
}

/** A free-form JSON value (`z.unknown()`) held to JSON_LIMITS.depth and `maxChars` of JSON text. */
export const boundedJson = <T extends z.ZodType>(schema: T, maxChars: number) =>
  schema.superRefine((v, ctx) => {
    const m = measureJson(v, JSON_LIMITS.depth, maxChars);
    if (m.depth > JSON_LIMITS.depth) ctx.addIssue({ code: 'custom', message: INPUT_MSG.tooDeep });
    else if (m.chars > maxChars) ctx.addIssue({ code: 'custom', message: INPUT_MSG.tooLarge(maxChars) });
  });
