// http_ece ships no types; the tests decrypt Web Push payloads (RFC 8188) with it as a push service's subscriber would.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  export function decrypt(buffer: Buffer, params: { version: 'aes128gcm' | 'aesgcm'; privateKey?: ECDH; authSecret?: string; dh?: string }): Buffer;
  export function encrypt(buffer: Buffer, params: Record<string, unknown>): Buffer;
  const ece: { decrypt: typeof decrypt; encrypt: typeof encrypt };
  export default ece;
}
