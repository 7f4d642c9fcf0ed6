import { chunks } from '../../db/bulk-insert.ts';
import { isDatabaseUnavailable, type DB } from '../../db/database.ts';
import type { JobsTable } from '../../db/schema.ts';
import { DONE_AND_DELETED, type BatchJobHandler, type JobContext, type WorkerClaim } from '../../jobs/job-worker.ts';
import { insertJobs, unsafeCompleteJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import { randomBytes } from 'node:crypto';
import { timeOrderedUuid as timeOrderedId } from '../../lib/ids.ts';
import type { EscalationChannel } from '../../../contract/escalation.ts';
import {
  attemptKey,
  findAttempts,
  findStepChannels,
  findStepOutcomes,
  recordAttempts,
  recordOutcomesAtOnce,
  type AttemptRow,
} from '../../notifications/attempts.repository.ts';
import { PAGING_MSG } from '../../../contract/paging.ts';
import type { Notifier, Outcome } from '../../notifications/notifier.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { FALLBACK_TIME_ZONE, timeZonesOf } from '../users/users.service.ts';
import { ackLinkSigner } from './ack-links.ts';
import { groupBy } from './batches.ts';
import { KeyedLock } from '../../lib/keyed-lock.ts';
import { pageMessage } from './page-message.ts';
import { stormHeld } from './page-storm.ts';
import { markPagedNobody, type MarkedAlert } from './paged-nobody.repository.ts';
import { unsafeFindPageContext, unsafeFindPagedAlerts, type PagedAlert } from './paging.repository.ts';

export const PAGES_JOB = 'escalation.pages';

/** How long an acknowledge link works. */
export const ACK_LINK_TTL_MS = 7 * 24 * 3600_000;
/** Pages per job (named under escalation.* so the job-lag alert rule of ops/alert-rules.yml sees them). */
const PAGES_PER_JOB = 500;
/**
 * Tries of a page job: with the worker's backoff (5 s × 4ⁿ, at most 10 minutes) a page whose provider is down keeps
 * being retried for about 37 minutes (5 s, 20 s, 80 s, 5 min, then every 10 min) before it is recorded as failed.
 */
export const PAGE_JOB_TRIES = 8;
/** A page that failed this many tries in a row pages its person on their next channel at once. */
const FALLBACK_AFTER_TRIES = 2;
/** The order channels take over from one another (after the last, the first). */
const CHANNEL_ORDER: EscalationChannel[] = ['email', 'push', 'sms'];
/** A short acknowledge link's code: 12 characters of base64url (72 random bits). */
const shortCode = () => randomBytes(9).toString('base64url');

/** One page: an alert, to a person, by a channel, at a step of its escalation ('L1'…, 'overdue', 'subscription'). */
export interface Page {
  tenantId: string;
  alertId: string;
  userId: string;
  channel: EscalationChannel | 'voice';
  step: string;
  level: number | null;
  /** The channel whose repeated failures made this page (the person's next channel). */
  fallbackFrom?: EscalationChannel | 'voice';
}

/** A page job's payload: its pages grouped by what they share, each group listing its alerts (a few kB per 500 pages). */
type PackedPages = { groups: Array<Omit<Page, 'alertId'> & { alertIds: string[] }> };

export function packPages(pages: Page[]): PackedPages {
  const groups = groupBy(pages, (p) => `${p.tenantId}|${p.step}|${p.level}|${p.userId}|${p.channel}|${p.fallbackFrom ?? ''}`);
  return {
    groups: [...groups.values()].map((list) => {
      const { alertId: _, ...shared } = list[0];
      return { ...shared, alertIds: list.map((p) => p.alertId) };
    }),
  };
}

function unpackPages(payload: Record<string, unknown>): Page[] {
  return ((payload as Partial<PackedPages>).groups ?? []).flatMap(({ alertIds, ...shared }) => alertIds.map((alertId) => ({ ...shared, alertId })));
}

/** How the batch's jobs end when all their pages are done: deleted in the write that records the outcomes. */
interface Finish {
  jobIds: (failed: Set<number>) => string[];
  token: string;
  committed: () => void;
}

/**
 * Page delivery: a sweep's pages become jobs of up to 500 pages, inserted already claimed by the worker that fired
 * them (`jobsFor`, then `adopt` after the commit), which sends them right away. Each page goes out at most once per
 * (alert, step, person, channel): the attempt row is its record, and a finished attempt is never sent again.
 */
export function createPageDelivery(deps: {
  db: DB;
  notifier: Notifier;
  publicUrl: () => string;
  /** Pages 'sending' at most at once. */
  inFlight: number;
  /** More pages than this for one person and channel within a minute wait for a summary page (0: never). */
  stormLimit: number;
  /** Tells open dashboards of alerts newly marked as having paged nobody. */
  announce: (marked: Array<{ tenantId: string; alert: MarkedAlert }>) => void;
}) {
  const { db } = deps;
  /**
   * What a sweep knows of the page jobs it just committed (their alerts, read in its transaction), for their first run
   * right after on this worker: the alerts are not read again, and no attempt can exist yet. Consumed by that run.
   */
  const fresh = new Map<string, Map<string, PagedAlert>>();
  /**
   * The pages this server may have 'sending' at once, shared by every run (PostgreSQL runs two side by side): a slot
   * is taken when a page is marked 'sending' and given back once its outcome is written.
   */
  const slots = { free: deps.inFlight, waiting: [] as Array<() => void> };
  /** Runs deciding a storm for the same person and channel, one at a time (taken before any slot, so never circular). */
  const stormLock = new KeyedLock();
  const giveBack = (n: number) => {
    if (n <= 0) return;
    slots.free += n;
    for (const wake of slots.waiting.splice(0)) wake();
  };
  const take = (wanted: number) => {
    const n = Math.max(0, Math.min(wanted, slots.free));
    slots.free -= n;
    return n;
  };

  const jobsFor = (pages: Page[], now: Date): NewJob[] =>
    chunks(pages, PAGES_PER_JOB).map((part) => ({
      kind: PAGES_JOB,
      uniqueKey: `pages:${timeOrderedId()}`,
      dueAt: now,
      payload: packPages(part),
      runNow: true,
      maxAttempts: PAGE_JOB_TRIES,
    }));

  function adopt(claim: WorkerClaim | undefined, claimed: JobsTable[], alerts: PagedAlert[]) {
    if (!claim || claimed.length === 0) return;
    const byId = new Map(alerts.map((a) => [a.id, a]));
    for (const job of claimed) if (job.kind === PAGES_JOB) fresh.set(job.id, byId);
    claim.adopt(claimed);
  }

  /**
   * Writes attempt rows (and, with `done`, deletes the finished jobs in the same commit: PostgreSQL one statement);
   * when that fails for another reason than the database being away, each row alone, so one row that cannot be
   * written (its alert was deleted meanwhile) fails only itself. Answers the rows that could not be written.
   */
  async function writeAttempts(rows: AttemptRow[], done: { ids: string[]; token: string } | null): Promise<Set<AttemptRow>> {
    const write = async (list: AttemptRow[], jobs: typeof done) => {
      if (list.length === 0 && !jobs) return;
      if (await recordOutcomesAtOnce(db, list, jobs)) return;
      await db.transaction().execute(async (trx) => {
        await recordAttempts(trx, list);
        if (jobs) await unsafeCompleteJobs(trx, jobs.ids, jobs.token);
      });
    };
    try {
      await write(rows, done);
      return new Set();
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err;
      const failed = new Set<AttemptRow>();
      for (const row of rows) await write([row], null).catch(() => failed.add(row));
      if (done) await write([], done);
      return failed;
    }
  }

  /**
   * Sends a batch of pages, recording each one's outcome as it comes; returns per page null or the error it failed
   * with (a transient failure, or an outcome that could not be written: its job runs again).
   *
   * Exactly once, as far as a crash allows: before a page goes to its provider its attempt row says 'sending' (written
   * in the same statement as the outcomes that came in meanwhile), and at most `inFlight` pages are 'sending' at any
   * moment, so a process killed or a database lost mid-send leaves at most that many pages whose fate is unknown. The
   * next run sends such a page once more (email, push: a duplicate beats a missed page); an SMS costs money and is
   * mostly delivered, so it is not sent again but recorded as uncertain; a page found 'sending' after being sent again
   * is not sent a third time.
   *
   * A storm: a person who got `stormLimit` pages on a channel within the last minute gets the batch's further pages in
   * one summary page a minute (they are recorded 'held', then 'summarized': `page-summary.ts`). A page that failed
   * twice in a row pages its person at once on their next channel (`fallBack`).
   */
  async function deliver(items: Array<{ page: Page; ctx: JobContext }>, known: Map<string, PagedAlert> | null, finish: Finish | null): Promise<unknown[]> {
    const out: unknown[] = items.map(() => null);
    const alerts = known ?? (await unsafeFindPagedAlerts(db, items.map((i) => i.page.alertId)));
    const members = new Map<string, { id: string; email: string }>();
    for (const [tenantId, list] of groupBy(items, (i) => i.page.tenantId))
      for (const m of await listActiveMemberAccounts(db, tenantId, [...new Set(list.map((i) => i.page.userId))])) members.set(`${tenantId}|${m.id}`, m);
    // An escalation page waits for nobody once the alert is acknowledged; a subscriber's notice goes out regardless.
    const candidates = items.flatMap(({ page: p, ctx }, index) => {
      const alert = alerts.get(p.alertId);
      const member = members.get(`${p.tenantId}|${p.userId}`);
      if (!alert || alert.tenant_id !== p.tenantId || (p.step !== 'subscription' && alert.status !== 'new') || !member) return [];
      return [{ index, p, alert, member, ctx, at: ctx.now.toISOString() }];
    });
    const keyOf = (p: Page) => attemptKey({ alert_id: p.alertId, step: p.step, user_id: p.userId, channel: p.channel });
    const attempts = known
      ? new Map<string, AttemptRow>()
      : await findAttempts(db, candidates.map(({ p }) => ({ tenant_id: p.tenantId, alert_id: p.alertId, step: p.step, user_id: p.userId, channel: p.channel })));
    type Record = { index: number; started: boolean; attempt: AttemptRow; error: unknown };
    const settled: Record[] = [];
    let open = candidates.flatMap((c) => {
      const row: AttemptRow = attempts.get(keyOf(c.p)) ?? {
        id: timeOrderedId(),
        tenant_id: c.p.tenantId,
        alert_id: c.p.alertId,
        step: c.p.step,
        level: c.p.level,
        user_id: c.p.userId,
        channel: c.p.channel,
        outcome: 'pending',
        reason: c.p.fallbackFrom ? PAGING_MSG.fallback(c.p.fallbackFrom) : null,
        provider_id: null,
        tries: 0,
        created_at: c.at,
        updated_at: c.at,
        short_code: c.p.channel === 'sms' ? shortCode() : null,
        fallback_from: c.p.fallbackFrom ?? null,
      };
      const tries = Number(row.tries) + 1;
      if (row.outcome === 'pending') return [{ ...c, row, tries, resend: false }];
      if (row.outcome !== 'sending') return [];
      // A page whose earlier run stopped mid-send.
      const uncertain = c.p.channel === 'sms' ? PAGING_MSG.smsUncertain : row.reason === PAGING_MSG.resentAfterStop ? PAGING_MSG.sendUncertain : null;
      if (!uncertain) return [{ ...c, row, tries, resend: true }];
      settled.push({ index: c.index, started: false, attempt: { ...row, outcome: 'failed', reason: uncertain, updated_at: c.at }, error: null });
      return [];
    });

    // A storm is decided per person and channel under a lock held until this run's pages are written: two runs at once
    // (the worker's lanes) would otherwise both count the same last minute and both find room.
    const firstTries = deps.stormLimit > 0 ? open.filter((c) => c.tries === 1 && !c.resend) : [];
    const release = firstTries.length ? await stormLock.acquire(firstTries.map((c) => `${c.p.userId}|${c.p.channel}`)) : null;
    try {
      return await sendOpen();
    } finally {
      release?.();
    }

    async function sendOpen(): Promise<unknown[]> {
      // A storm: past the limit, a person's new pages on a channel wait for their summary (page-storm.ts).
      if (firstTries.length > 0) {
        let held: Set<(typeof firstTries)[number]>;
        try {
          held = await stormHeld(db, deps.stormLimit, firstTries, firstTries[0].ctx.now);
        } catch (err) {
          items.forEach((_, i) => (out[i] = err));
          return out;
        }
        for (const c of held)
          settled.push({ index: c.index, started: false, attempt: { ...c.row, outcome: 'held', reason: PAGING_MSG.heldForSummary(deps.stormLimit), tries: c.tries, updated_at: c.at }, error: null });
        open = open.filter((c) => !held.has(c));
      }

      // Whose alert it is and the person's time zone, for what the pages say.
      const context = open.length
        ? await unsafeFindPageContext(db, {
            clientIds: open.flatMap((c) => (c.alert.client_id ? [c.alert.client_id] : [])),
            tenantIds: open.map((c) => c.p.tenantId),
            userIds: open.map((c) => c.p.userId),
          })
        : null;
      const zones = open.length ? await timeZonesOf(db, open.map((c) => c.p.userId)) : null;
      // A single-use acknowledge link per page, signed for its person and alert (nothing stored until it is used).
      const sign = open.length ? await ackLinkSigner(db) : null;
      const send = await deps.notifier.prepare(
        open.map((c) => {
          const token = sign!(c.p.alertId, c.p.userId, new Date(c.ctx.now.getTime() + ACK_LINK_TTL_MS));
          const base = deps.publicUrl();
          const links = {
            open: `${base}/app/dashboard?alert=${encodeURIComponent(c.alert.id)}`,
            ack: `${base}/ack/${token}`,
            ackToken: token,
            shortAck: c.row.short_code ? `${base}/a/${c.row.short_code}` : `${base}/ack/${token}`,
          };
          const message = pageMessage(c.alert, {
            clientName: c.alert.client_id ? (context!.clients.get(c.alert.client_id) ?? null) : null,
            tenantName: (context!.tenantsPerPerson.get(c.p.userId) ?? 1) > 1 ? (context!.tenants.get(c.p.tenantId) ?? null) : null,
            level: c.p.level,
            timeZone: zones!.get(c.p.userId) ?? FALLBACK_TIME_ZONE,
            now: c.ctx.now,
            links,
          });
          return { person: { userId: c.member.id, email: c.member.email }, channel: c.p.channel, message, final: c.ctx.finalAttempt };
        }),
      );

      const finished: Record[] = [...settled];
      const written: Record[] = [];
      let next = 0;
      /** Pages handed to their provider whose outcome is not written yet. */
      let sending = 0;
      let wake: () => void = () => {};
      let failure: unknown = null;
      const inFlight: Array<Promise<void>> = [];
      for (;;) {
        // The outcomes that came in are written with the next pages' 'sending' rows, in one statement.
        const outcomes = finished.splice(0);
        const freed = outcomes.filter((r) => r.started).length;
        sending -= freed;
        giveBack(freed);
        const first = next;
        const starting = open.slice(first, first + take(open.length - first));
        next += starting.length;
        const last = next >= open.length && starting.length === 0 && sending === 0;
        const reserved = starting.map((c): AttemptRow => ({ ...c.row, outcome: 'sending', reason: c.resend ? PAGING_MSG.resentAfterStop : c.row.reason, tries: c.tries, updated_at: c.at }));
        const done = last && finish ? { ids: finish.jobIds(new Set([...written, ...outcomes].flatMap((r) => (r.error === null ? [] : [r.index])))), token: finish.token } : null;
        let unwritten: Set<AttemptRow>;
        try {
          unwritten = await writeAttempts([...outcomes.map((r) => r.attempt), ...reserved], done);
        } catch (err) {
          failure = err;
          giveBack(starting.length);
          break;
        }
        if (done) finish!.committed();
        // An outcome that could not be written leaves its page 'sending': its job runs again and decides then.
        for (const r of outcomes) written.push(unwritten.has(r.attempt) ? { ...r, error: r.error ?? new Error('the page’s outcome could not be recorded') } : r);
        if (last) break;
        for (const [k, c] of starting.entries()) {
          // Its alert went away meanwhile: nothing to page about.
          if (unwritten.has(reserved[k])) {
            giveBack(1);
            continue;
          }
          sending++;
          // A send that throws (not a provider's refusal: those are outcomes) counts as a transient failure of its page.
          const outcome = send(first + k).catch((err: unknown): Outcome => ({ outcome: 'pending', reason: String((err as Error)?.message ?? err), providerId: null, error: err ?? new Error('send failed') }));
          inFlight.push(
            outcome.then((o) => {
              // A page made by a fallback keeps saying so unless its own outcome has a reason.
              const reason = o.reason ?? (c.row.fallback_from ? PAGING_MSG.fallback(c.row.fallback_from) : null);
              finished.push({ index: c.index, started: true, attempt: { ...c.row, outcome: o.outcome, reason, provider_id: o.providerId, tries: c.tries, updated_at: c.at }, error: o.error });
              wake();
            }),
          );
        }
        // Until a page of this run comes back, or (every slot taken by another run) a slot is given back.
        if (finished.length === 0)
          await new Promise<void>((resolve) => {
            wake = resolve;
            if (next < open.length) slots.waiting.push(resolve);
          });
      }
      // The database went away: no more pages start; those on their way finish, their outcomes unrecorded.
      if (failure !== null) {
        await Promise.all(inFlight);
        giveBack(sending);
        items.forEach((_, i) => (out[i] = failure));
        return out;
      }
      for (const r of written) if (r.error !== null && out[r.index] === null) out[r.index] = r.error;
      // Level 1 reached nobody (every page of it skipped: nobody had a channel that works): the alert says so.
      const skipped = written.filter((r) => r.attempt.step === 'L1' && r.attempt.outcome === 'skipped').map((r) => r.attempt);
      if (skipped.length) await markUnreachable(skipped, items[0].ctx.now).catch(() => {});
      // Pages that keep failing: their people are paged on their next channel now (a failure here is tried again with
      // the page's next retry).
      const failing = written.filter((r) => r.attempt.outcome === 'pending' && Number(r.attempt.tries) >= FALLBACK_AFTER_TRIES && r.attempt.step !== 'subscription');
      if (failing.length) {
        await fallBack(
          failing.map((r) => ({ row: r.attempt, email: members.get(`${r.attempt.tenant_id}|${r.attempt.user_id}`)!.email })),
          items[failing[0].index].ctx,
        ).catch(() => {});
      }
      return out;
    }
  }

  /** Marks the alerts all of whose level-1 pages (of every job) were skipped as having paged nobody. */
  async function markUnreachable(skipped: AttemptRow[], now: Date) {
    const outcomes = await findStepOutcomes(db, skipped, 'L1');
    const nobody = [...new Map(skipped.map((a) => [a.alert_id, a])).values()].filter((a) => outcomes.get(a.alert_id)?.every((o) => o === 'skipped'));
    const marked: Array<{ tenantId: string; alert: MarkedAlert }> = [];
    for (const [tenantId, list] of groupBy(nobody, (a) => a.tenant_id))
      for (const alert of await markPagedNobody(db, tenantId, list.map((a) => a.alert_id), now.toISOString(), 'unreachable')) marked.push({ tenantId, alert });
    deps.announce(marked);
  }

  /**
   * Pages each failing page's person on their next channel (email → push → SMS → email): the first one after the
   * failing channel that they can be reached by and that has no page of this step yet, once per failing channel. The
   * new pages are jobs run by this worker right after the current batch.
   */
  async function fallBack(failing: Array<{ row: AttemptRow; email: string }>, ctx: JobContext) {
    const steps = await findStepChannels(
      db,
      failing.map(({ row }) => row),
    );
    const reach = await deps.notifier.reachability(failing.map(({ row, email }) => ({ userId: row.user_id, email })));
    const pages: Page[] = [];
    for (const { row } of failing) {
      const taken = steps.get(`${row.alert_id}|${row.step}|${row.user_id}`) ?? [];
      if (taken.some((t) => t.fallback_from === row.channel)) continue;
      const from = CHANNEL_ORDER.indexOf(row.channel as EscalationChannel);
      const order = [...CHANNEL_ORDER.slice(from + 1), ...CHANNEL_ORDER.slice(0, from)];
      const next = order.find((ch) => reach.get(row.user_id)?.[ch] && !taken.some((t) => t.channel === ch));
      if (!next) continue;
      pages.push({ tenantId: row.tenant_id, alertId: row.alert_id, userId: row.user_id, channel: next, step: row.step, level: row.level === null ? null : Number(row.level), fallbackFrom: row.channel });
    }
    if (pages.length === 0) return;
    // One job per fallback page, keyed by it: a second failing run before it ran adds nothing.
    const jobs: NewJob[] = pages.map((p) => ({
      kind: PAGES_JOB,
      uniqueKey: `pages:fallback:${p.alertId}:${p.step}:${p.userId}:${p.fallbackFrom}`,
      dueAt: ctx.now,
      payload: packPages([p]),
      runNow: true,
      maxAttempts: PAGE_JOB_TRIES,
    }));
    const { claimed } = await insertJobs(db, jobs, ctx.now, ctx.claim ?? null);
    ctx.claim?.adopt(claimed);
  }

  /**
   * Page jobs, their pages delivered as one batch. A job with a page that failed (transiently, or its outcome could
   * not be recorded) fails as a whole and is retried with the worker's backoff; its pages already finished are then
   * skipped (their attempts are read), and its last try records a permanent failure.
   */
  const handler: BatchJobHandler = async (items) => {
    const hints = items.map(({ job }) => {
      const hint = fresh.get(job.id);
      fresh.delete(job.id);
      return Number(job.attempts) === 1 ? hint : undefined;
    });
    // The sweep's alerts when every job is fresh from it; otherwise everything is read.
    const known = hints.every((h) => h !== undefined) ? new Map(hints.flatMap((h) => [...h!])) : null;
    const pages = items.flatMap(({ ctx }, index) => unpackPages(ctx.payload).map((page) => ({ index, page, ctx })));
    // The jobs all of whose pages are done are deleted in the transaction that records their outcomes.
    const token = items[0]?.ctx.claim?.token;
    let done = new Set<number>();
    let deleted = false;
    const finish: Finish = {
      jobIds: (failed) => {
        const failedJobs = new Set([...failed].map((k) => pages[k].index));
        done = new Set(items.flatMap((_, i) => (failedJobs.has(i) ? [] : [i])));
        return [...done].map((i) => items[i].job.id);
      },
      token: token!,
      committed: () => void (deleted = true),
    };
    const results = await deliver(pages, known, token ? finish : null);
    const out: unknown[] = items.map((_, i) => (deleted && done.has(i) ? DONE_AND_DELETED : null));
    pages.forEach((x, k) => {
      if (results[k] !== null && results[k] !== undefined && out[x.index] === null) out[x.index] = results[k];
    });
    return out;
  };

  return { jobsFor, adopt, handler };
}
