import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorBody, Ok } from '../../../contract/common.ts';
import { MSG } from '../../../contract/messages.ts';
import { CreatePricingPlanBody, PricingPlan, PricingPlanList, PricingSettings, PricingSettingsBody, UpdatePricingPlanBody } from '../../../contract/pricing.ts';
import { IdParam } from '../../../contract/common.ts';
import type { Deps } from '../../deps.ts';
import { now } from '../../db/database.ts';
import { isSuperAdmin, superAdminOnly } from '../users/users.policy.ts';
import { listPlans } from './pricing-plans.repository.ts';
import { getPricingSettings, savePricingSettings } from './pricing-settings.repository.ts';
import { createPlan, deletePlan, updatePlan } from './pricing.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** Pricing plans and settings: public reading, changes by super admins only (spec section 6). */
export function registerPricingRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;

  // Public plans for everybody (ordered by sortOrder), all of them for super admins.
  r.get('/api/pricingPlans', { schema: { tags: ['pricing'], response: { 200: PricingPlanList } } }, async (req) => ({
    items: await listPlans(db, { includePrivate: isSuperAdmin(req.sessionUser) }),
  }));

  r.post(
    '/api/pricingPlans',
    {
      onRequest: superAdminOnly(MSG.onlySuperAdminsModifyPlans),
      schema: { tags: ['pricing'], body: CreatePricingPlanBody, response: { 201: PricingPlan, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await createPlan(db, req.body)),
  );

  r.put(
    '/api/pricingPlans/:id',
    {
      onRequest: superAdminOnly(MSG.onlySuperAdminsModifyPlans),
      schema: { tags: ['pricing'], params: IdParam, body: UpdatePricingPlanBody, response: { 200: PricingPlan, ...errors } },
    },
    async (req) => updatePlan(db, req.params.id, req.body),
  );

  r.delete(
    '/api/pricingPlans/:id',
    {
      onRequest: superAdminOnly(MSG.onlySuperAdminsDeletePlans),
      schema: { tags: ['pricing'], params: IdParam, response: { 200: Ok, ...errors } },
    },
    async (req) => {
      await deletePlan(db, req.params.id);
      return { ok: true as const };
    },
  );

  // Readable by everybody: the home page shows the yearly discount from it.
  r.get('/api/settings/pricing', { schema: { tags: ['pricing'], response: { 200: PricingSettings } } }, async () => getPricingSettings(db));

  r.put(
    '/api/settings/pricing',
    {
      onRequest: superAdminOnly(MSG.onlySuperAdminsPricingSettings),
      schema: { tags: ['pricing'], body: PricingSettingsBody, response: { 200: PricingSettings, ...errors } },
    },
    async (req) => {
      await savePricingSettings(db, req.body, now());
      return getPricingSettings(db);
    },
  );
}
