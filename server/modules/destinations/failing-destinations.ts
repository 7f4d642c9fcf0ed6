import { DESTINATION_LIMITS, DESTINATION_MSG, TEST_EVENT } from '../../../contract/destinations.ts';
import type { DB } from '../../db/database.ts';
import type { DestinationsTable } from '../../db/schema.ts';
import type { Mailer } from '../../notifications/mailer.ts';
import * as repo from './destinations.repository.ts';

/**
 * Issue 29: a destination whose every delivery has failed for three days is disabled, and the tenant's owners are told
 * by mail (once: the destination is disabled by the same write that decides it). "Every delivery for three days": no
 * delivery succeeded since the oldest one still failing, and that one was made at least three days ago. Test events
 * count for nothing either way: someone trying a broken endpoint is not three days of lost alerts. The clock also starts
 * again when the destination was last edited (turned on again, its URL fixed): what failed before that is forgiven.
 */
export async function disableIfFailingTooLong(
  deps: { db: DB; mailer?: Mailer; publicUrl: string },
  tenantId: string,
  dest: Pick<DestinationsTable, 'id' | 'name' | 'updated_at'>,
  now: Date,
): Promise<boolean> {
  const succeeded = await repo.lastSucceededAt(deps.db, tenantId, dest.id, TEST_EVENT);
  const since = succeeded && succeeded > dest.updated_at ? succeeded : dest.updated_at;
  const oldest = await repo.oldestFailingSince(deps.db, tenantId, dest.id, since, TEST_EVENT);
  if (!oldest || Date.parse(oldest) > now.getTime() - DESTINATION_LIMITS.failingDisableMs) return false;
  return disableAndTell(deps, tenantId, dest, DESTINATION_MSG.disabledFailing, DESTINATION_MSG.failingSince(oldest), now);
}

/**
 * Disables a destination with `reason` and mails the tenant's owners `why` (once: only the write that disabled it
 * tells them). False when it was disabled already.
 */
export async function disableAndTell(deps: { db: DB; mailer?: Mailer; publicUrl: string }, tenantId: string, dest: Pick<DestinationsTable, 'id' | 'name'>, reason: string, why: string, now: Date): Promise<boolean> {
  if (!(await repo.disableDestination(deps.db, tenantId, dest.id, reason, now.toISOString()))) return false;
  if (deps.mailer) {
    const owners = await repo.ownerEmails(deps.db, tenantId);
    const link = `${deps.publicUrl}/app/tenant-admin?tab=destinations`;
    // One owner's mail failing must not keep the others from theirs, nor undo the disabling.
    await Promise.allSettled(
      owners.map((o) =>
        deps.mailer!.send({ to: o.email, subject: DESTINATION_MSG.disabledMailSubject(dest.name), text: DESTINATION_MSG.disabledMailText(o.display_name, dest.name, why, link) }),
      ),
    );
  }
  return true;
}
