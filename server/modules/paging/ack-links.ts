import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { hmacKey } from '../../db/server-keys.ts';

/**
 * Signed acknowledge links: nothing is stored when a page goes out. A token carries the alert, the person
 * and its expiry, signed with HMAC-SHA-256 under a key generated once and kept in server_keys (every instance uses the
 * same). It is single-use at USE time: the acknowledgement stores the used token's hash (unique) in its own
 * transaction, so a replayed link finds it there.
 *
 * Layout (48 bytes, 64 base64url characters): alert id (16 bytes), person id (16), expiry (seconds since the epoch,
 * uint32), the first 12 bytes of the HMAC over the 36 before. Every id we issue is a UUID.
 */
const KEY_NAME = 'ack-link-hmac';
const MAC_BYTES = 12;
const BODY_BYTES = 36;
export const SIGNED_TOKEN_LENGTH = 64;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const packUuid = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
const unpackUuid = (b: Buffer) => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const keyOf = hmacKey(KEY_NAME);

/** The signature of a token's body: the first MAC_BYTES of its HMAC-SHA-256. */
const macOf = (key: Buffer, body: Buffer) => createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);

export interface AckLinkClaims {
  alertId: string;
  userId: string;
  expiresAt: Date;
}

/** Makes signed tokens with the database's key (read once). */
export async function ackLinkSigner(db: DB) {
  const key = await keyOf(db);
  return (alertId: string, userId: string, expiresAt: Date): string => {
    if (!UUID.test(alertId) || !UUID.test(userId)) throw new Error(`an acknowledge link needs UUIDs (alert ${alertId}, person ${userId})`);
    const body = Buffer.allocUnsafe(BODY_BYTES);
    packUuid(alertId).copy(body, 0);
    packUuid(userId).copy(body, 16);
    body.writeUInt32BE(Math.min(0xffffffff, Math.floor(expiresAt.getTime() / 1000)), 32);
    return Buffer.concat([body, macOf(key, body)]).toString('base64url');
  };
}

/** What a signed token says, or null when it is not one of ours (wrong shape or signature). Expiry is the caller's. */
export async function verifyAckToken(db: DB, token: string): Promise<AckLinkClaims | null> {
  if (token.length !== SIGNED_TOKEN_LENGTH) return null;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== BODY_BYTES + MAC_BYTES || raw.toString('base64url') !== token) return null;
  const body = raw.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(macOf(await keyOf(db), body), raw.subarray(BODY_BYTES))) return null;
  return { alertId: unpackUuid(body.subarray(0, 16)), userId: unpackUuid(body.subarray(16, 32)), expiresAt: new Date(body.readUInt32BE(32) * 1000) };
}
