// Accounts as the other modules use them: sign-in and registration (auth), invitations (members), the profile page,
// platform administration (system). The users module has no rules of its own beyond these queries and the pure
// presentation helpers, so its service is what its repository offers (and the time-zone look-up for other modules).
import { IANAZone } from 'luxon';
import type { DB } from '../../db/database.ts';
import { findTimeZones } from './users.repository.ts';

export {
  createUser,
  defaultDisplayName,
  deleteUser,
  findUserByEmail,
  findUserById,
  findUserByOidcSubject,
  linkOidcSubject,
  lockSuperAdmins,
  markEmailVerified,
  recordSignIn,
  setDisplayName,
  setPasswordHash,
  setTimeZone,
  setUserRole,
  toPublicUser,
  unsafeCountUsers,
} from './users.repository.ts';

/** Where a person's times are given when they never chose a zone (and their browser never said). */
export const FALLBACK_TIME_ZONE = 'UTC';

/**
 * Each user's IANA time zone, for rendering their pages and emails in it (issue 25): every id asked for gets an answer,
 * `FALLBACK_TIME_ZONE` when the person has none stored (or none this runtime knows) or does not exist. One query per 500 ids.
 */
export async function timeZonesOf(db: DB, userIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await findTimeZones(db, userIds);
  return new Map(
    userIds.map((id) => {
      const zone = rows.get(id)?.time_zone;
      // Checked when saved; checked again because a later runtime's zone data could lack a name an earlier one had.
      return [id, zone && IANAZone.isValidZone(zone) ? zone : FALLBACK_TIME_ZONE];
    }),
  );
}
