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

/** Every column of a plan row but the timestamps, from the API's field names. */
export interface PlanValues {
  name: string;
  description: string;
  price: string;
  priceId: string | null;
  features: PlanFeature[];
  maxUsers: number;
  maxClients: number;
  isDefault: boolean;
  isPublic: boolean;
  sortOrder: number;
}

function toRow(v: PlanValues) {
  return {
    name: v.name,
    description: v.description,
    price: v.price,
    price_id: v.priceId,
    features: JSON.stringify(v.features),
    max_users: v.maxUsers,
    max_clients: v.maxClients,
    is_default: v.isDefault ? 1 : 0,
    is_public: v.isPublic ? 1 : 0,
    sort_order: v.sortOrder,
  };
}

export async function insertPlan(db: DB, id: string, values: PlanValues, at: string) {
  await db
    .insertInto('pricing_plans')
    .values({ id, ...toRow(values), created_at: at, updated_at: at })
    .execute();
}

export async function updatePlanRow(db: DB, id: string, values: PlanValues, at: string) {
  await db.updateTable('pricing_plans').set({ ...toRow(values), updated_at: at }).where('id', '=', id).execute();
}

/** Clears the default flag on every plan but `keepId`. */
export async function clearOtherDefaults(db: DB, keepId: string, at: string) {
  await db.updateTable('pricing_plans').set({ is_default: 0, updated_at: at }).where('is_default', '=', 1).where('id', '!=', keepId).execute();
}

export async function deletePlanRow(db: DB, id: string) {
  await db.deleteFrom('pricing_plans').where('id', '=', id).execute();
}

/** Ids among `candidates` that are already taken. */
export async function takenPlanIds(db: DB, candidates: string[]) {
  if (candidates.length === 0) return new Set<string>();
  const rows = await db.selectFrom('pricing_plans').select('id').where('id', 'in', candidates).execute();
  return new Set(rows.map((r) => r.id));
}
