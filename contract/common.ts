import { z } from 'zod';

/** The one error shape every API error answers with. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
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
