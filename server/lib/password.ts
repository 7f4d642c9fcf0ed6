import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's recommended minimums.
const OPTS = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTS);

// A hash of a random password with the same parameters as real ones, made once at start-up (not on the first unknown
// email, which would make that one answer slower). Verified when the account does not exist or has no password
// (Google-only), so every sign-in costs one argon2id verification and its timing does not tell accounts apart.
let dummy: Promise<string> | null = null;
export const dummyHash = () => (dummy ??= hashPassword(randomBytes(16).toString('hex')));
void dummyHash().catch(() => (dummy = null));

/** True when `password` matches `stored`; with no stored hash it still verifies (against the dummy) and answers false. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await dummyHash(), password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
