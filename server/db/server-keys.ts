import { randomBytes } from 'node:crypto';
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


/**
 * A 32-byte HMAC key of that name, as a reader cached per database: read (or generated and stored, first instance
 * wins) once per process; a failed read (database away) is tried again next time. The signed links' keys (acknowledge
 * links, the digest's "turn off" links) come from here.
 */
export function hmacKey(name: string): (db: DB) => Promise<Buffer> {
  const keys = new WeakMap<DB, Promise<Buffer>>();
  return (db) => {
    let key = keys.get(db);
    if (!key) {
      key = serverKey(db, name, () => randomBytes(32).toString('base64url')).then((stored) => Buffer.from(stored, 'base64url'));
      key.catch(() => keys.delete(db));
      keys.set(db, key);
    }
    return key;
  };
}
