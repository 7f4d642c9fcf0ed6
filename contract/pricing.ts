import { z } from 'zod';
import { requiredString } from './common.ts';

/** Texts of our own for the plan and settings forms (the spec is silent); server and client say the same thing. */
export const PRICING_MSG = {
  planNameRequired: 'Plan name is required',
  priceRequired: 'Price is required',
  planIdInvalid: 'Plan ID may contain only lowercase letters, digits, "-" and "_"',
  planIdTaken: 'A plan with this ID already exists',
  maxUsersPositive: 'Max users must be a positive whole number',
  maxClientsPositive: 'Max clients must be a positive whole number',
  sortOrderInvalid: 'Sort order must be a whole number of 0 or more',
  featureNameRequired: 'Feature name is required',
  featureIdsUnique: 'Each feature must have a different ID',
  defaultMustBePublic: 'The default plan must be public',
  keepOneDefault: 'Make another plan the default instead',
  currencyInvalid: 'Currency must be a three-letter code such as USD',
  percentageInvalid: 'Enter a percentage between 0 and 100',
} as const;

export const PlanFeature = z.object({ id: z.string(), name: z.string(), description: z.string(), included: z.boolean() });
export type PlanFeature = z.infer<typeof PlanFeature>;

export const PricingPlan = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    price: z.string(),
    priceId: z.string().nullable(),
    features: z.array(PlanFeature),
    maxUsers: z.number().int(),
    maxClients: z.number().int(),
    isDefault: z.boolean(),
    isPublic: z.boolean(),
    sortOrder: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'PricingPlan' });
export type PricingPlan = z.infer<typeof PricingPlan>;

export const PricingPlanList = z.object({ items: z.array(PricingPlan) });

const PLAN_ID_RE = /^[a-z0-9][a-z0-9_-]*$/;
const positiveInt = (message: string) => z.number({ error: message }).int(message).min(1, message).max(1_000_000, message);

export const PlanFeatureInput = z.object({
  id: z.string({ error: PRICING_MSG.planIdInvalid }).trim().min(1, PRICING_MSG.planIdInvalid).max(60).regex(PLAN_ID_RE, PRICING_MSG.planIdInvalid),
  name: requiredString(PRICING_MSG.featureNameRequired, 80),
  description: z.string().trim().max(300).default(''),
  included: z.boolean(),
});

/** What a super admin edits on a plan; the id is chosen at creation only. */
export const PricingPlanFields = z.object({
  name: requiredString(PRICING_MSG.planNameRequired, 80),
  description: z.string().trim().max(500).default(''),
  price: requiredString(PRICING_MSG.priceRequired, 60),
  priceId: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((s) => s || null),
  features: z
    .array(PlanFeatureInput)
    .max(50)
    .default([])
    .refine((list) => new Set(list.map((f) => f.id)).size === list.length, PRICING_MSG.featureIdsUnique),
  maxUsers: positiveInt(PRICING_MSG.maxUsersPositive),
  maxClients: positiveInt(PRICING_MSG.maxClientsPositive),
  isDefault: z.boolean().default(false),
  isPublic: z.boolean().default(true),
  sortOrder: z.number({ error: PRICING_MSG.sortOrderInvalid }).int(PRICING_MSG.sortOrderInvalid).min(0, PRICING_MSG.sortOrderInvalid).max(10_000, PRICING_MSG.sortOrderInvalid),
});
export type PricingPlanFields = z.infer<typeof PricingPlanFields>;

/** POST /api/pricingPlans: without an id, one is made from the name. */
export const CreatePricingPlanBody = PricingPlanFields.extend({
  id: z
    .string()
    .trim()
    .max(60, PRICING_MSG.planIdInvalid)
    .optional()
    .transform((s) => s || undefined)
    .refine((s) => s === undefined || PLAN_ID_RE.test(s), PRICING_MSG.planIdInvalid),
});
export type CreatePricingPlanBody = z.input<typeof CreatePricingPlanBody>;
export const UpdatePricingPlanBody = PricingPlanFields;
export type UpdatePricingPlanBody = z.input<typeof UpdatePricingPlanBody>;

const percentage = z.number({ error: PRICING_MSG.percentageInvalid }).min(0, PRICING_MSG.percentageInvalid).max(100, PRICING_MSG.percentageInvalid);

export const BILLING_CYCLES = ['monthly', 'yearly'] as const;

/** PUT /api/settings/pricing. */
export const PricingSettingsBody = z.object({
  currency: z
    .string({ error: PRICING_MSG.currencyInvalid })
    .trim()
    .regex(/^[A-Za-z]{3}$/, PRICING_MSG.currencyInvalid)
    .transform((s) => s.toUpperCase()),
  billingCycle: z.enum(BILLING_CYCLES),
  showYearlyDiscount: z.boolean(),
  yearlyDiscountPercentage: percentage,
  taxRate: percentage,
  taxInclusive: z.boolean(),
});
export type PricingSettingsBody = z.input<typeof PricingSettingsBody>;

export const PricingSettings = z
  .object({
    currency: z.string(),
    billingCycle: z.enum(BILLING_CYCLES),
    showYearlyDiscount: z.boolean(),
    yearlyDiscountPercentage: z.number(),
    taxRate: z.number(),
    taxInclusive: z.boolean(),
    /** null while the defaults of spec section 9 have never been saved. */
    updatedAt: z.string().nullable(),
  })
  .meta({ id: 'PricingSettings' });
export type PricingSettings = z.infer<typeof PricingSettings>;
