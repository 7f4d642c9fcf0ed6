import type { DB } from '../../db/database.ts';
import type { SessionLookup } from '../../http/session.ts';
import { findSessionStanding, findSessionUser } from './sessions.repository.ts';

/** What the session hook (http/session.ts) asks to find the user behind a cookie; app.ts hands it in. */
export function sessionLookup(db: DB): SessionLookup {
  return {
    user: (token) => findSessionUser(db, token),
    userWithStanding: (token, tenantId) => findSessionStanding(db, token, tenantId),
  };
}

// Other modules' way to sessions: live streams re-check theirs, a password change ends the others.
export { deleteUserSessions, isSessionLive } from './sessions.repository.ts';
