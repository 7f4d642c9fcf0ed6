import type { DB } from '../../db/database.ts';
import { insertJobs } from '../../jobs/jobs.repository.ts';
import { unsafeCountRecentPages } from '../../notifications/attempts.repository.ts';
import { groupBy } from './batches.ts';
import type { Page } from './page-delivery.ts';
import { summaryJob } from './page-summary.ts';

/**
 * A storm: a person who got `limit` pages on a channel within the last minute gets a run's further pages in one summary
 * page a minute (page-summary.ts). Of these first tries, the ones to hold for that summary: none while there is room,
 * all while the person's pages are being summed up (one summary a minute until a minute passes without one), else
 * what the limit leaves of the last minute's pages. Their summary jobs are inserted first, so a held page is never
 * left without one (a failure throws: nothing is held). The caller holds the person and channel's lock meanwhile.
 */
export async function stormHeld<T extends { p: Page }>(db: DB, limit: number, firstTries: T[], now: Date): Promise<Set<T>> {
  const byPerson = [...groupBy(firstTries, (c) => `${c.p.userId}|${c.p.channel}`).values()];
  const recent = await unsafeCountRecentPages(db, firstTries.map((c) => ({ userId: c.p.userId, channel: c.p.channel })), new Date(now.getTime() - 60_000).toISOString(), limit);
  const room = (userId: string, channel: string) => {
    const r = recent.get(`${userId}|${channel}`);
    return !r ? limit : r.summed > 0 ? 0 : Math.max(0, limit - r.pages);
  };
  const held = new Set(byPerson.flatMap((list) => list.slice(room(list[0].p.userId, list[0].p.channel))));
  if (held.size > 0) {
    const jobs = [...groupBy([...held], (c) => `${c.p.tenantId}|${c.p.userId}|${c.p.channel}`).values()].map((list) => summaryJob(list[0].p, now));
    await insertJobs(db, jobs, now, null);
  }
  return held;
}
