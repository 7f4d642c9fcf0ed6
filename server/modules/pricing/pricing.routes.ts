import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PricingPlanList } from '../../../contract/pricing.ts';
import type { Deps } from '../../deps.ts';
import { listPlans } from './pricing-plans.repository.ts';

/** Pricing plans: public ones for everybody (ordered by sortOrder), all of them for super admins. */
export function registerPricingRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/pricingPlans', { schema: { tags: ['pricing'], response: { 200: PricingPlanList } } }, async (req) => ({
    items: await listPlans(deps.db, { includePrivate: req.sessionUser?.role === 'superAdmin' }),
  }));
}
