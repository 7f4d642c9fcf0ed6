import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { hashPassword } from '../auth/password.ts';
import { findUserByEmail } from './users.repository.ts';

/** Creates the account as super admin, or promotes it and sets its password when it exists. */
export async function createSuperAdmin(db: DB, input: { email: string; password: string; displayName?: string }) {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const at = now();
  const existing = await findUserByEmail(db, email);
  if (existing) {
    await db.updateTable('users').set({ role: 'superAdmin', password_hash: passwordHash, updated_at: at }).where('id', '=', existing.id).execute();
    return { id: existing.id, created: false };
  }
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      email,
      display_name: input.displayName?.trim() || email,
      password_hash: passwordHash,
      role: 'superAdmin',
      plan: null,
      oidc_subject: null,
      created_at: at,
      updated_at: at,
      last_sign_in_at: null,
    })
    .execute();
  return { id, created: true };
}

/** ADMIN_EMAIL/ADMIN_PASSWORD at start: only acts while the platform has no super admin at all. */
export async function ensureSuperAdmin(db: DB, admin: { email: string; password: string } | null) {
  if (!admin) return false;
  const any = await db.selectFrom('users').select('id').where('role', '=', 'superAdmin').limit(1).executeTakeFirst();
  if (any) return false;
  await createSuperAdmin(db, admin);
  return true;
}
