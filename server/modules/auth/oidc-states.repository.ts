import type { DB } from '../../db/database.ts';
import type { OidcStatesTable } from '../../db/schema.ts';

/** Keeps a started sign-in's nonce and PKCE verifier under its state, after dropping flows started before `staleBefore`. */
export async function saveOidcState(db: DB, row: OidcStatesTable, staleBefore: string) {
  await db.deleteFrom('oidc_states').where('created_at', '<', staleBefore).execute();
  await db.insertInto('oidc_states').values(row).execute();
}

/** Removes and returns the flow saved under `state` (a state is good for one callback), or undefined. */
export async function takeOidcState(db: DB, state: string) {
  return db.deleteFrom('oidc_states').where('state', '=', state).returningAll().executeTakeFirst();
}
