import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { hashPassword } from '../../lib/password.ts';
import { createUser, findUserByEmail, hasSuperAdmin, promoteToSuperAdmin } from './users.repository.ts';

/** Creates the account as super admin, or promotes it and sets its password when it exists. */
export async function createSuperAdmin(db: DB, input: { email: string; password: string; displayName?: string }) {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const at = now();
  const existing = await findUserByEmail(db, email);
  if (existing) {
    await promoteToSuperAdmin(db, existing.id, passwordHash, at);
    return { id: existing.id, created: false };
  }
  const user = await createUser(db, { email, displayName: input.displayName?.trim() || email, passwordHash, role: 'superAdmin' }, at);
  return { id: user.id, created: true };
}

/** ADMIN_EMAIL/ADMIN_PASSWORD at start: only acts while the platform has no super admin at all. */
export async function ensureSuperAdmin(db: DB, admin: { email: string; password: string } | null) {
  if (!admin) return false;
  if (await hasSuperAdmin(db)) return false;
  await createSuperAdmin(db, admin);
  return true;
}
