import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of random bytes; a
 * message is signed as `v1,` + base64 HMAC-SHA256, keyed by those bytes, of `{webhook-id}.{webhook-timestamp}.{body}`.
 * Several signatures go space-separated in one header (both secrets during a rotation).
 */
export const SECRET_PREFIX = 'whsec_';

export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

export function signatureOf(secret: string, msgId: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestampSec}.${body}`).digest('base64')}`;
}

/** The three headers of one message, signed with every secret given (current first). */
export function webhookHeaders(secrets: string[], msgId: string, timestampSec: number, body: string): Record<string, string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSec),
    'webhook-signature': secrets.map((s) => signatureOf(s, msgId, timestampSec, body)).join(' '),
  };
}

/**
 * Secrets at rest: AES-256-GCM under a server key (32 bytes, base64, in server_keys), stored as
 * `v1.<iv>.<tag>.<ciphertext>` (base64url each). A database dump alone does not give the secrets away.
 */
export function encryptSecret(keyB64: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyB64, 'base64'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function decryptSecret(keyB64: string, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unreadable stored secret');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyB64, 'base64'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

export const newSecretKey = () => randomBytes(32).toString('base64');
