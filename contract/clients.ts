import { z } from 'zod';
import { isEmail, listOf, requiredString, TenantParam } from './common.ts';
import { escalationPolicyRef } from './escalation.ts';
import { MSG } from './messages.ts';
import { CLIENT_PAGE_SIZE } from './plans.ts';

/** Client statuses of spec section 4. */
export const CLIENT_STATUSES = ['active', 'inactive', 'pending'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** Company sizes of spec section 9, with the employee ranges the form shows. */
export const COMPANY_SIZES = ['small', 'medium', 'large', 'enterprise'] as const;
export type CompanySize = (typeof COMPANY_SIZES)[number];
export const COMPANY_SIZE_LABELS: Record<CompanySize, string> = {
  small: 'Small (1-50 employees)',
  medium: 'Medium (51-200 employees)',
  large: 'Large (201-1000 employees)',
  enterprise: 'Enterprise (1000+ employees)',
};

export const CLIENT_SORTS = ['name', 'status', 'createdAt'] as const;
export type ClientSort = (typeof CLIENT_SORTS)[number];

// name and contactName are capped at 100 characters because they, with the email, are copied into the covering
// indexes of migration 0005, and a PostgreSQL B-tree entry must stay under about 2.7 kB even in 4-byte characters.
export const CLIENT_LIMITS = { name: 100, text: 200, description: 2000, tags: 50, tag: 50, customFields: 50, customFieldKey: 100, customFieldValue: 1000, aliases: 50, alias: 200 } as const;

/**
 * Texts for clients. The permission texts are the spec's internal ones (section 8); the rest are our own (the spec
 * is silent), kept here so server and form say the same thing.
 */
export const CLIENT_MSG = {
  updateForbidden: 'You do not have permission to update this client',
  deleteForbidden: 'You do not have permission to delete this client',
  createForbidden: 'You do not have permission to create clients',
  sizeInvalid: 'Size must be small, medium, large or enterprise',
  tagTooLong: `Tags must be at most ${CLIENT_LIMITS.tag} characters`,
  tooManyTags: `A client can have at most ${CLIENT_LIMITS.tags} tags`,
  tagsInvalid: 'Tags must be a list of words',
  aliasTooLong: `Aliases must be at most ${CLIENT_LIMITS.alias} characters`,
  tooManyAliases: `A client can have at most ${CLIENT_LIMITS.aliases} aliases`,
  aliasesInvalid: 'Aliases must be a list of names',
  aliasesHelp: 'Other names monitoring tools use for this client: RMM organization or site, AWS account, Azure subscription, domain. Alerts naming one are routed to this client.',
  customFieldsInvalid: 'Custom fields must be names with text values',
  tooManyCustomFields: `A client can have at most ${CLIENT_LIMITS.customFields} custom fields`,
  customFieldKeyTooLong: `Custom field names must be at most ${CLIENT_LIMITS.customFieldKey} characters`,
  customFieldValueTooLong: `Custom field values must be at most ${CLIENT_LIMITS.customFieldValue} characters`,
  pageInvalid: 'Page must be a whole number of 1 or more',
  pageSizeInvalid: 'Page size must be a whole number from 1 to 100',
  searchTooLong: 'Search must be at most 100 characters',
  // Only the form checks these: the API takes customFields as an object, whose names are unique and non-empty.
  customFieldNameRequired: 'Each custom field with a value needs a name',
  customFieldNamesUnique: 'Custom field names must be different',
  created: 'Client added',
  updated: 'Client updated',
  deleted: 'Client deleted',
  noClients: 'No clients yet. Add your first client to get started.',
  noMatches: 'No clients match your search or filter.',
  // The details modal's alert sections.
  noOpenAlerts: 'No open alerts',
  noResolvedAlerts: 'No resolved alerts yet',
  openAlertsLoadFailed: 'Failed to load the open alerts of this client.',
  historyLoadFailed: 'Failed to load the alert history of this client.',
} as const;

/** The refusal when a tenant already has as many clients as its plan allows. */
export const clientPlanLimitMessage = (max: number) => `Your plan allows at most ${max} ${max === 1 ? 'client' : 'clients'}.`;

// Spec section 5: a URL-like string, optionally with http(s):// and www., then a dotted host name, an optional port
// and an optional path, query or fragment.
const WEBSITE_RE = /^(https?:\/\/)?(www\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?([/?#]\S*)?$/i;
export const isWebsite = (s: string) => WEBSITE_RE.test(s);

/** Tags as stored: trimmed, blanks dropped, de-duplicated ignoring case (the first spelling wins). */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** Custom fields as stored: names and values trimmed, rows without a name dropped. */
export function normalizeCustomFields(fields: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) {
    const key = k.trim();
    if (key) out[key] = v.trim();
  }
  return out;
}

const tooLong = (max: number) => `Must be at most ${max} characters`;

/** An optional text field: trimmed, and empty means none. */
const optionalText = (max: number = CLIENT_LIMITS.text) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, tooLong(max))
    .nullish()
    .transform((v) => v || null);

/** An optional text field with a shape check whose failure says `message`. */
const optionalShaped = (check: (s: string) => boolean, message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .refine((s) => s === '' || check(s), message)
    .nullish()
    .transform((v) => v || null);

/**
 * Body of create and update: every field of the Client entity a person edits, in the order the spec checks them.
 * Anything else (id, tenantId, createdBy, createdAt, updatedAt, unknown keys) is stripped: the server sets those.
 */
export const ClientInput = z.object({
  name: requiredString(MSG.clientNameRequired, CLIENT_LIMITS.name),
  status: z.enum(CLIENT_STATUSES, { error: MSG.statusRequired }),
  description: optionalText(CLIENT_LIMITS.description),
  contactName: optionalText(CLIENT_LIMITS.name),
  contactEmail: optionalShaped(isEmail, MSG.invalidEmail, 254),
  contactPhone: optionalText(50),
  address: optionalText(),
  city: optionalText(100),
  state: optionalText(100),
  zipCode: optionalText(20),
  country: optionalText(100),
  website: optionalShaped(isWebsite, MSG.invalidWebsite, 500),
  industry: optionalText(100),
  size: z
    .enum([...COMPANY_SIZES, ''], { error: CLIENT_MSG.sizeInvalid })
    .nullish()
    .transform((v) => (v ? v : null)),
  tags: z
    .array(z.string({ error: CLIENT_MSG.tagsInvalid }).trim().max(CLIENT_LIMITS.tag, CLIENT_MSG.tagTooLong), { error: CLIENT_MSG.tagsInvalid })
    .max(CLIENT_LIMITS.tags * 2, CLIENT_MSG.tooManyTags)
    .nullish()
    .transform((v) => normalizeTags(v ?? []))
    .refine((v) => v.length <= CLIENT_LIMITS.tags, CLIENT_MSG.tooManyTags),
  customFields: z
    .record(
      z.string().max(CLIENT_LIMITS.customFieldKey, CLIENT_MSG.customFieldKeyTooLong),
      z.string({ error: CLIENT_MSG.customFieldsInvalid }).max(CLIENT_LIMITS.customFieldValue, CLIENT_MSG.customFieldValueTooLong),
      { error: CLIENT_MSG.customFieldsInvalid },
    )
    .nullish()
    .transform((v) => normalizeCustomFields(v ?? {}))
    .refine((v) => Object.keys(v).length <= CLIENT_LIMITS.customFields, CLIENT_MSG.tooManyCustomFields),
  /** The escalation policy for this client's alerts (issue 11); none: the tenant's default policy. */
  escalationPolicyId: escalationPolicyRef,
  /** Other names an alert may give this client by (issue 28), matched like the name: ignoring case. */
  aliases: z
    .array(z.string({ error: CLIENT_MSG.aliasesInvalid }).trim().max(CLIENT_LIMITS.alias, CLIENT_MSG.aliasTooLong), { error: CLIENT_MSG.aliasesInvalid })
    .max(CLIENT_LIMITS.aliases * 2, CLIENT_MSG.tooManyAliases)
    .nullish()
    .transform((v) => normalizeTags(v ?? []))
    .refine((v) => v.length <= CLIENT_LIMITS.aliases, CLIENT_MSG.tooManyAliases),
});
/** What a form sends (before trimming and defaults). */
export type ClientInputBody = z.input<typeof ClientInput>;
export type ClientInput = z.output<typeof ClientInput>;

export const Client = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    contactName: z.string().nullable(),
    contactEmail: z.string().nullable(),
    contactPhone: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zipCode: z.string().nullable(),
    country: z.string().nullable(),
    website: z.string().nullable(),
    industry: z.string().nullable(),
    size: z.enum(COMPANY_SIZES).nullable(),
    status: z.enum(CLIENT_STATUSES),
    tags: z.array(z.string()),
    customFields: z.record(z.string(), z.string()),
    escalationPolicyId: z.string().nullable(),
    aliases: z.array(z.string()),
    /** User id of the creator, set by the server. */
    createdBy: z.string(),
    /** The creator's display name, or null once that account is gone. */
    createdByName: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Client' });
export type Client = z.infer<typeof Client>;

export const ClientListQuery = z.object({
  /** One status, or all (the default). */
  status: z.enum([...CLIENT_STATUSES, 'all']).default('all'),
  /** Case-insensitive substring of the name, contact name or contact email. */
  search: z.string().trim().max(100, CLIENT_MSG.searchTooLong).default(''),
  sort: z.enum(CLIENT_SORTS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number({ error: CLIENT_MSG.pageInvalid }).int(CLIENT_MSG.pageInvalid).min(1, CLIENT_MSG.pageInvalid).max(1_000_000, CLIENT_MSG.pageInvalid).default(1),
  pageSize: z.coerce
    .number({ error: CLIENT_MSG.pageSizeInvalid })
    .int(CLIENT_MSG.pageSizeInvalid)
    .min(1, CLIENT_MSG.pageSizeInvalid)
    .max(100, CLIENT_MSG.pageSizeInvalid)
    .default(CLIENT_PAGE_SIZE),
});
export type ClientListQuery = z.output<typeof ClientListQuery>;
/** What a caller may pass: any of the query's fields, the rest take their defaults. */
export type ClientListParams = Partial<ClientListQuery>;

export const ClientList = listOf(Client);
export type ClientList = z.infer<typeof ClientList>;

export const ClientParams = TenantParam.extend({ clientId: z.string().min(1).max(100) });
