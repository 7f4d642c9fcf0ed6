import type { DB } from '../../db/database.ts';
import { isUniqueViolation, now } from '../../db/database.ts';
import { MSG } from '../../../contract/messages.ts';
import { PRICING_MSG, type PricingPlanFields } from '../../../contract/pricing.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import {
  clearOtherDefaults,
  deletePlanRow,
  findPlan,
  insertPlan,
  takenPlanIds,
  updatePlanRow,
  type PlanValues,
} from './pricing-plans.repository.ts';

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'plan';

/** The id a new plan gets from its name: its slug, or the slug with the first free numeric suffix. */
async function freeIdFor(db: DB, name: string) {
  const base = slugify(name);
  const candidates = [base, ...Array.from({ length: 20 }, (_, i) => `${base}-${i + 2}`)];
  const taken = await takenPlanIds(db, candidates);
  return candidates.find((c) => !taken.has(c)) ?? `${base}-${Date.now().toString(36)}`;
}

function defaultMustBePublic(values: PlanFields) {
  if (values.isDefault && !values.isPublic) throw badRequest(PRICING_MSG.defaultMustBePublic, { isPublic: PRICING_MSG.defaultMustBePublic });
}

type PlanFields = PricingPlanFields;
const toValues = (f: PlanFields): PlanValues => ({ ...f, features: f.features.map((x) => ({ ...x, description: x.description ?? '' })) });

/** A new plan; made default, it takes the flag from every other plan in the same transaction. */
export async function createPlan(db: DB, input: PlanFields & { id?: string }) {
  defaultMustBePublic(input);
  const idTaken = () => conflict(PRICING_MSG.planIdTaken, { id: PRICING_MSG.planIdTaken });
  let id = input.id;
  if (id) {
    if ((await takenPlanIds(db, [id])).size > 0) throw idTaken();
  } else id = await freeIdFor(db, input.name);
  const at = now();
  try {
    await db.transaction().execute(async (trx) => {
      if (input.isDefault) await clearOtherDefaults(trx, id, at);
      await insertPlan(trx, id, toValues(input), at);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw idTaken();
    throw e;
  }
  return (await findPlan(db, id))!;
}

/** Saves a plan. The default plan stays default until another plan takes the flag. */
export async function updatePlan(db: DB, id: string, input: PlanFields) {
  const at = now();
  await db.transaction().execute(async (trx) => {
    const existing = await findPlan(trx, id);
    if (!existing) throw notFound();
    if (existing.isDefault && !input.isDefault) throw badRequest(PRICING_MSG.keepOneDefault, { isDefault: PRICING_MSG.keepOneDefault });
    defaultMustBePublic(input);
    if (input.isDefault) await clearOtherDefaults(trx, id, at);
    await updatePlanRow(trx, id, toValues(input), at);
  });
  return (await findPlan(db, id))!;
}

/** Deletes a plan other than the default. Tenants on it keep their plan id, limits and features. */
export async function deletePlan(db: DB, id: string) {
  await db.transaction().execute(async (trx) => {
    const existing = await findPlan(trx, id);
    if (!existing) throw notFound();
    if (existing.isDefault) throw conflict(MSG.cannotDeleteDefaultPlan);
    await deletePlanRow(trx, id);
  });
}

// Other modules' way to plans: registration and administration read a plan, tenants take its preset, app.ts seeds
// the defaults at start.
export { findPlan, includedFeatureIds, seedDefaultPlans, type Plan } from './pricing-plans.repository.ts';
