import type { DB } from '../../db/database.ts';
import { readByKeys } from '../../db/bulk-insert.ts';
import type { NotificationRulesTable } from '../../db/schema.ts';

// A person's notification rules (issue 27): rows belong to the person (user_id), not to a tenant, like their
// notification preferences: one person's rules apply in every tenant they belong to.

export async function findRules(db: DB, userId: string) {
  return db.selectFrom('notification_rules').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function findRulesOfMany(db: DB, userIds: string[]): Promise<Map<string, NotificationRulesTable>> {
  return readByKeys(userIds, (part) => db.selectFrom('notification_rules').selectAll().where('user_id', 'in', part).execute(), (row) => row.user_id);
}

export async function upsertRules(db: DB, userId: string, rules: string, at: string) {
  await db
    .insertInto('notification_rules')
    .values({ user_id: userId, rules, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ rules, updated_at: at }))
    .execute();
}

export async function deleteRules(db: DB, userId: string) {
  await db.deleteFrom('notification_rules').where('user_id', '=', userId).execute();
}
