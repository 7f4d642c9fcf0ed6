import type { DB } from '../../db/database.ts';
import { now, parseJson } from '../../db/database.ts';
import type { PricingPlansTable } from '../../db/schema.ts';
import { DEFAULT_PLANS, planFeatures } from '../../../contract/plans.ts';

export interface PlanFeature {
  id: string;
  name: string;
  description: string;
  included: boolean;
}

export function toPlan(row: PricingPlansTable) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price,
    priceId: row.price_id,
    features: parseJson<PlanFeature[]>(row.features, []),
    maxUsers: row.max_users,
    maxClients: row.max_clients,
    isDefault: row.is_default === 1,
    isPublic: row.is_public === 1,
    sortOrder: row.sort_order,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
export type Plan = ReturnType<typeof toPlan>;

/** The ids of the features a plan includes: what a tenant on this plan gets. */
export const includedFeatureIds = (plan: Plan) => plan.features.filter((f) => f.included).map((f) => f.id);

/** Seeds the four plans of spec section 9 when the table is empty. Safe to run at every start. */
export async function seedDefaultPlans(db: DB) {
  const existing = await db.selectFrom('pricing_plans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) return;
  const at = now();
  await db
    .insertInto('pricing_plans')
    .values(
      DEFAULT_PLANS.map((p) => ({
        id: p.id,
        name: p.name,
        description: p.description,
        price: p.price,
        price_id: null,
        features: JSON.stringify(planFeatures(p.features)),
        max_users: p.maxUsers,
        max_clients: p.maxClients,
        is_default: p.isDefault ? 1 : 0,
        is_public: p.isPublic ? 1 : 0,
        sort_order: p.sortOrder,
        created_at: at,
        updated_at: at,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function listPlans(db: DB, opts: { includePrivate: boolean }) {
  let q = db.selectFrom('pricing_plans').selectAll().orderBy('sort_order').orderBy('name');
  if (!opts.includePrivate) q = q.where('is_public', '=', 1);
  return (await q.execute()).map(toPlan);
}

export async function findPlan(db: DB, id: string) {
  const row = await db.selectFrom('pricing_plans').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toPlan(row) : undefined;
}
