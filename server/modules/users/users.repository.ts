import type { DB } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';

/** The user as clients see it: never the password hash or the OIDC subject. */
export function toPublicUser(u: UsersTable) {
  return {
    id: u.id,
    email: u.email,
    displayName: u.display_name,
    role: u.role,
    createdAt: u.created_at,
    lastSignInAt: u.last_sign_in_at,
    hasPassword: u.password_hash !== null,
    emailVerified: !!u.email_verified_at,
  };
}

export async function findUserByEmail(db: DB, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function findUserById(db: DB, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Display name default of spec section 3: the given name, else the email, else 'Unknown User'. */
export const defaultDisplayName = (name: string | null | undefined, email: string | null | undefined) =>
  name?.trim() || email?.trim() || 'Unknown User';
