import { hash, randomBytes } from 'node:crypto';

/** SHA-256 (hex) of a secret handed out once: what we store and look up in its place. */
export const hashToken = (token: string) => hash('sha256', token, 'hex');

/** A fresh random token (256 bits, base64url) and the hash we store in its place. */
export function newToken() {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}
