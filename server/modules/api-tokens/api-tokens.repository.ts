import type { DB } from '../../db/database.ts';
import type { ApiTokensTable } from '../../db/schema.ts';

/** A tenant's live (unrevoked) tokens, newest first, with their creator's name. */
export async function listTokens(db: DB, tenantId: string) {
  return db
    .selectFrom('api_tokens as t')
    .leftJoin('users as u', 'u.id', 't.created_by')
    .selectAll('t')
    .select(['u.display_name as creator_name', 'u.email as creator_email'])
    .where('t.tenant_id', '=', tenantId)
    .where('t.revoked_at', 'is', null)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id')
    .execute();
}

export async function countLiveTokens(db: DB, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertToken(db: DB, row: ApiTokensTable) {
  await db.insertInto('api_tokens').values(row).execute();
}

/** Revokes one of the tenant's tokens; false when there is no such live token. */
export async function revokeToken(db: DB, tenantId: string, id: string, at: string): Promise<boolean> {
  const res = await db.updateTable('api_tokens').set({ revoked_at: at }).where('tenant_id', '=', tenantId).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * A token by its hash, with its creator's user row, before the tenant is known (the token names it): crosses tenants
 * by design, as every look-up by secret does.
 */
export async function unsafeFindTokenByHash(db: DB, tokenHash: string) {
  const token = await db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!token) return undefined;
  const user = await db.selectFrom('users').selectAll().where('id', '=', token.created_by).executeTakeFirst();
  return user ? { token, user } : undefined;
}

/** Records a use, unless one was recorded since `since` (a conditional write: several instances write at most once). */
export async function touchLastUsed(db: DB, tenantId: string, id: string, at: string, since: string) {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .execute();
}
