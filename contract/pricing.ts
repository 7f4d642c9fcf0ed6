import { z } from 'zod';

export const PlanFeature = z.object({ id: z.string(), name: z.string(), description: z.string(), included: z.boolean() });

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
