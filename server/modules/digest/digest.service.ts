import type { DB, Dialect } from '../../db/database.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import { enqueueJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import type { Mail, Mailer } from '../../notifications/mailer.ts';
import { findPreferences, upsertPreferences } from '../../notifications/contacts.repository.ts';
import { toChannelPreferences } from '../../notifications/preferences.ts';
import { digestFigures } from '../reports/reports.service.ts';
import { digestHtml, digestSubject, digestText, type DigestContent } from './digest-message.ts';
import { digestHoursAnywhere, dueWeek, lastWeek, weekOf, zoneOrUtc, type DigestWeek } from './digest-schedule.ts';
import { digestOffToken, verifyDigestOffToken } from './digest-links.ts';
import * as repo from './digest.repository.ts';

export const DIGEST_JOB = 'digest.weekly';
/** How often the sweep looks for people whose Monday 08:00 has come (it reads every recipient on Mondays only). */
const SWEEP_EVERY_MS = 60_000;
/** A digest's tries (the worker's backoff: about half an hour in all); after that the next sweep schedules it again. */
const DIGEST_TRIES = 5;

export interface DigestDeps {
  db: DB;
  dialect: Dialect;
  mailer: Mailer;
  publicUrl: () => string;
}

/**
 * The weekly digest: a sweep (at most once a minute, only while it is Monday morning somewhere) schedules one job per
 * person whose Monday 08:00 has come, unique per person and week so every instance may sweep; the job claims the
 * week in digest_sends, mails the digest and marks it sent, so a week is mailed once across instances and restarts
 * (a crash between the mail and the mark sends it at most once more, as pages do).
 */
export function createDigest(deps: DigestDeps) {
  const { db } = deps;
  let lastSweep = Number.NEGATIVE_INFINITY;

  async function sweep(now: Date): Promise<number> {
    const t = now.getTime();
    if (t - lastSweep < SWEEP_EVERY_MS && t >= lastSweep) return 0;
    lastSweep = t;
    if (!digestHoursAnywhere(now)) return 0;
    const due = (await repo.unsafeDigestRecipients(db)).flatMap((r) => {
      const w = dueWeek(now, r.timeZone);
      return w ? [{ userId: r.id, week: w.week }] : [];
    });
    const sent = await repo.unsafeSentDigests(db, due);
    const jobs: NewJob[] = due
      .filter((d) => !sent.has(`${d.userId}:${d.week}`))
      .map((d) => ({ kind: DIGEST_JOB, uniqueKey: `digest:${d.userId}:${d.week}`, dueAt: now, payload: d, maxAttempts: DIGEST_TRIES }));
    await enqueueJobs(db, jobs, now);
    return 0;
  }

  /** The digest of a person for a week, over their tenants (or one of them), or null when they belong to none. */
  async function compose(person: { id: string; displayName: string; timeZone: string | null }, w: DigestWeek, now: Date, tenantId?: string): Promise<Omit<Mail, 'to'> | null> {
    const tenants = await repo.unsafeMembershipsOf(db, person.id, tenantId);
    if (tenants.length === 0) return null;
    const figures = await Promise.all(
      tenants.map(async (t) => {
        const [week, previous] = await Promise.all([digestFigures(deps, t.id, w.from, w.to, now), digestFigures(deps, t.id, w.previousFrom, w.from, now)]);
        return { tenantName: t.name, week, previous };
      }),
    );
    const base = deps.publicUrl();
    const token = await digestOffToken(db, person.id);
    const offUrl = `${base}/digest/off/${token}`;
    const content: DigestContent = {
      personName: person.displayName,
      from: w.from,
      to: w.to,
      timeZone: zoneOrUtc(person.timeZone),
      tenants: figures,
      dashboardUrl: `${base}/app/dashboard`,
      reportsUrl: tenants.some((t) => t.role !== 'user') ? `${base}/app/reports` : null,
      offUrl,
    };
    return {
      subject: digestSubject(content),
      text: digestText(content),
      html: digestHtml(content),
      // One-click unsubscribe (RFC 8058): mail clients POST to the link; a GET only shows the page.
      headers: { 'List-Unsubscribe': `<${base}/api/digest/off/${token}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  /** Mails one person's digest of one week unless it was sent, or they turned it off meanwhile. Fails to be retried. */
  const handler: JobHandler = async (_job, { payload, now }) => {
    const { userId, week } = payload as { userId: string; week: string };
    const [person] = await repo.unsafeDigestRecipients(db, [userId]);
    if (!person) return;
    const at = now.toISOString();
    if (!(await repo.claimDigest(db, userId, week, at))) return;
    const mail = await compose(person, weekOf(week, person.timeZone), now);
    if (mail) await deps.mailer.send({ ...mail, to: person.email });
    await repo.markDigestSent(db, userId, week, new Date().toISOString());
  };

  /** The digest the signed-in person would get for the last complete week (of one of their tenants); null: not a member. */
  async function preview(userId: string, now: Date, tenantId?: string): Promise<Omit<Mail, 'to'> | null> {
    const user = await repo.unsafeFindUser(db, userId);
    if (!user) return null;
    const person = { id: user.id, displayName: user.display_name, timeZone: user.time_zone ?? null };
    return compose(person, lastWeek(now, person.timeZone), now, tenantId);
  }

  /** Whose digest a "turn off" link is for, and whether it is on; null for a link that is not ours. */
  async function offInfo(token: string) {
    const userId = await verifyDigestOffToken(db, token);
    const user = userId ? await repo.unsafeFindUser(db, userId) : undefined;
    if (!user) return null;
    const prefs = toChannelPreferences(await findPreferences(db, user.id));
    return { userId: user.id, email: user.email, weeklyDigest: prefs.email.weeklyDigest };
  }

  /** Turns the digest off for the link's person (again, harmlessly, for a replayed link); null for a link not ours. */
  async function turnOff(token: string) {
    const info = await offInfo(token);
    if (!info) return null;
    if (info.weeklyDigest) {
      await db.transaction().execute(async (trx) => {
        const prefs = toChannelPreferences(await findPreferences(trx, info.userId));
        prefs.email.weeklyDigest = false;
        await upsertPreferences(trx, info.userId, prefs, new Date().toISOString());
      });
    }
    return { email: info.email, weeklyDigest: false };
  }

  return { sweep, handler, preview, offInfo, turnOff };
}

export type Digest = ReturnType<typeof createDigest>;
