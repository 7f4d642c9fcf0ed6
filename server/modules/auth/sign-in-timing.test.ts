import { randomUUID } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { hash, verify } from '@node-rs/argon2';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner, uniqueEmail } from '../../test/factories.ts';

// The real argon2 library, watched: every call goes through to it unchanged. Sign-in timing is not measured with a
// clock here (that would be flaky); instead the test shows that every failing path does the same costly work, one
// argon2id verification against a hash of the same parameters as a real password's.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify), hash: vi.fn(real.hash) };
});

const params = (h: string) => h.split('$').slice(1, 4).join('$'); // e.g. argon2id$v=19$m=19456,t=2,p=1

describeEachDatabase('sign-in does the same work whether or not the account exists', (t) => {
  async function failedSignIn(email: string) {
    vi.mocked(verify).mockClear();
    const res = await new Agent(t().app).post('/api/auth/sign-in', { email, password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(vi.mocked(verify)).toHaveBeenCalledTimes(1);
    return vi.mocked(verify).mock.calls[0][0] as string;
  }

  it('verifies one argon2id hash for an unknown email, a password account and a Google-only account', async () => {
    const owner = await registerOwner(t().app);
    const realHash = await t().deps.db.selectFrom('users').select('password_hash').where('id', '=', owner.userId).executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const google = uniqueEmail('google');
    await t()
      .deps.db.insertInto('users')
      .values({ id: randomUUID(), email: google, display_name: 'G', password_hash: null, role: 'user', plan: null, oidc_subject: `sub-${google}`, created_at: at, updated_at: at, last_sign_in_at: null, email_verified_at: at })
      .execute();

    vi.mocked(hash).mockClear();
    const existing = await failedSignIn(owner.email);
    expect(existing).toBe(realHash.password_hash);
    const unknown = await failedSignIn(uniqueEmail('nobody'));
    const googleOnly = await failedSignIn(google);
    // The stand-in hash costs what a real one does: same algorithm, version, memory, iterations and lanes.
    expect(params(unknown)).toBe(params(existing));
    expect(params(unknown)).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1$/);
    expect(googleOnly).toBe(unknown);
    // It was made at start-up, not on the spot for the first such sign-in (which would then take twice as long).
    expect(vi.mocked(hash)).not.toHaveBeenCalled();
  });
});
