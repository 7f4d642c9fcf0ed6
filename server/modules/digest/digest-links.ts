import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { hmacKey } from '../../db/server-keys.ts';

/**
 * The digest's "turn off" link: the person's id and an HMAC-SHA-256 over it (first 16 bytes) under a key generated
 * once and kept in server_keys. Nothing is stored per mail; a replayed link turns off what is already off. It never
 * turns anything on, so it needs no expiry.
 */
const KEY_NAME = 'digest-link-hmac';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAC_BYTES = 16;

const keyOf = hmacKey(KEY_NAME);

const macOf = (key: Buffer, id: Buffer) => createHmac('sha256', key).update('digest-off:').update(id).digest().subarray(0, MAC_BYTES);

/** The token of a person's "turn off" link. */
export async function digestOffToken(db: DB, userId: string): Promise<string> {
  if (!UUID.test(userId)) throw new Error(`a digest link needs a UUID (person ${userId})`);
  const id = Buffer.from(userId.replaceAll('-', ''), 'hex');
  return Buffer.concat([id, macOf(await keyOf(db), id)]).toString('base64url');
}

/** The person a token names, or null when it is not one of ours. */
export async function verifyDigestOffToken(db: DB, token: string): Promise<string | null> {
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== 16 + MAC_BYTES || raw.toString('base64url') !== token) return null;
  const id = raw.subarray(0, 16);
  if (!timingSafeEqual(macOf(await keyOf(db), id), raw.subarray(16))) return null;
  const h = id.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
