import type { DB } from './database.ts';

// Keys this server generates once and keeps (VAPID, the acknowledge-link HMAC): every instance uses the same.

async function findServerKey(db: DB, name: string) {
  return (await db.selectFrom('server_keys').select('value').where('name', '=', name).executeTakeFirst())?.value ?? null;
}

/** The key of that name: the stored one, else `generate()`'s, stored unless another instance stored one first. */
export async function serverKey(db: DB, name: string, generate: () => string): Promise<string> {
  return (await findServerKey(db, name)) ?? (await saveServerKey(db, name, generate(), new Date().toISOString()));
}

/** Stores a key unless another instance stored one first; returns the key in force. */
async function saveServerKey(db: DB, name: string, value: string, at: string): Promise<string> {
  await db.insertInto('server_keys').values({ name, value, created_at: at }).onConflict((oc) => oc.column('name').doNothing()).execute();
  return (await findServerKey(db, name)) ?? value;
}

