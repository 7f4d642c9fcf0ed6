import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import { PRICING_SETTINGS_DEFAULTS } from '../../../contract/plans.ts';
import type { PricingSettings } from '../../../contract/pricing.ts';

const KEY = 'pricing';
type Values = Omit<PricingSettings, 'updatedAt'>;

/** The saved pricing settings over the defaults of spec section 9 (updatedAt null while never saved). */
export async function getPricingSettings(db: DB): Promise<PricingSettings> {
  const row = await db.selectFrom('settings').select(['value', 'updated_at']).where('key', '=', KEY).executeTakeFirst();
  const saved = parseJson<Partial<Values>>(row?.value, {});
  return { ...PRICING_SETTINGS_DEFAULTS, ...saved, updatedAt: row?.updated_at ?? null };
}

export async function savePricingSettings(db: DB, values: Values, at: string) {
  const value = JSON.stringify(values);
  await db
    .insertInto('settings')
    .values({ key: KEY, value, updated_at: at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: at }))
    .execute();
}
