import { randomUUID } from 'node:crypto';
import { readByKeys } from '../../db/bulk-insert.ts';
import type { DB, Dialect } from '../../db/database.ts';
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
    timeZone: u.time_zone ?? null,
  };
}

/** Display name default of spec section 3: the given name, else the email, else 'Unknown User'. */
export const defaultDisplayName = (name: string | null | undefined, email: string | null | undefined) =>
  name?.trim() || email?.trim() || 'Unknown User';

export async function findUserByEmail(db: DB, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function findUserById(db: DB, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByOidcSubject(db: DB, subject: string) {
  return db.selectFrom('users').selectAll().where('oidc_subject', '=', subject).executeTakeFirst();
}

/** What a new account is made of; everything not given starts empty (no password, plain user, no plan). */
export interface NewUser {
  email: string;
  displayName: string;
  passwordHash?: string | null;
  role?: UsersTable['role'];
  plan?: string | null;
  oidcSubject?: string | null;
  lastSignInAt?: string | null;
  emailVerifiedAt?: string | null;
}

/** The one place an account is inserted (email stored lowercased); returns the stored row. */
export async function createUser(db: DB, input: NewUser, at: string): Promise<UsersTable> {
  const user: UsersTable = {
    id: randomUUID(),
    email: input.email.toLowerCase(),
    display_name: input.displayName,
    password_hash: input.passwordHash ?? null,
    role: input.role ?? 'user',
    plan: input.plan ?? null,
    oidc_subject: input.oidcSubject ?? null,
    created_at: at,
    updated_at: at,
    last_sign_in_at: input.lastSignInAt ?? null,
    email_verified_at: input.emailVerifiedAt ?? null,
    time_zone: null,
  };
  await db.insertInto('users').values(user).execute();
  return user;
}

export async function recordSignIn(db: DB, userId: string, at: string) {
  await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', userId).execute();
}

export async function setDisplayName(db: DB, userId: string, displayName: string, at: string) {
  await db.updateTable('users').set({ display_name: displayName, updated_at: at }).where('id', '=', userId).execute();
}

/** The person's IANA zone (checked by the caller). */
export async function setTimeZone(db: DB, userId: string, timeZone: string, at: string) {
  await db.updateTable('users').set({ time_zone: timeZone, updated_at: at }).where('id', '=', userId).execute();
}

/** The stored zones of these users (null when unset); users that do not exist are left out. */
export async function findTimeZones(db: DB, userIds: readonly string[]) {
  return readByKeys(userIds, (part) => db.selectFrom('users').select(['id', 'time_zone']).where('id', 'in', part).execute(), (r) => r.id);
}

/** A new password hash; `emailVerified` when the change came through a link mailed to the account (a reset). */
export async function setPasswordHash(db: DB, userId: string, passwordHash: string, at: string, opts: { emailVerified?: boolean } = {}) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: at, ...(opts.emailVerified ? { email_verified_at: at } : {}) })
    .where('id', '=', userId)
    .execute();
}

/** Records that the account proved it reads its mailbox; an earlier proof keeps its time. */
export async function markEmailVerified(db: DB, userId: string, at: string) {
  await db.updateTable('users').set({ email_verified_at: at }).where('id', '=', userId).where('email_verified_at', 'is', null).execute();
}

/** Links an OIDC subject to the account; the issuer asserted the address, so it counts as verified. */
export async function linkOidcSubject(db: DB, userId: string, subject: string, at: string) {
  await db.updateTable('users').set({ oidc_subject: subject, updated_at: at, email_verified_at: at }).where('id', '=', userId).execute();
}

export async function setUserRole(db: DB, userId: string, role: UsersTable['role'], at: string) {
  await db.updateTable('users').set({ role, updated_at: at }).where('id', '=', userId).execute();
}

/** Makes the account a super admin with this password (the admin CLI and ADMIN_EMAIL at start). */
export async function promoteToSuperAdmin(db: DB, userId: string, passwordHash: string, at: string) {
  await db.updateTable('users').set({ role: 'superAdmin', password_hash: passwordHash, updated_at: at }).where('id', '=', userId).execute();
}

/** Deletes the account; its sessions, memberships and reset links go with it (`on delete cascade`). */
export async function deleteUser(db: DB, userId: string) {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

export async function hasSuperAdmin(db: DB) {
  return (await db.selectFrom('users').select('id').where('role', '=', 'superAdmin').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Ids of every super admin. On PostgreSQL their rows are locked until the transaction ends, so two admins demoting
 * each other at the same moment cannot leave the platform without one (SQLite runs one write transaction at a time).
 */
export async function lockSuperAdmins(trx: DB, dialect: Dialect) {
  let q = trx.selectFrom('users').select('id').where('role', '=', 'superAdmin');
  if (dialect === 'postgres') q = q.forUpdate();
  return (await q.execute()).map((r) => r.id);
}

/** Every account of the platform (deliberately unscoped: platform analytics for super admins). */
export async function unsafeCountUsers(db: DB) {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
