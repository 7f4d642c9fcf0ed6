import { chunks } from '../../db/bulk-insert.ts';
import type { DB } from '../../db/database.ts';
import { isDatabaseUnavailable } from '../../db/database.ts';
import type { JobsTable } from '../../db/schema.ts';
import { DONE_AND_DELETED, type BatchJobHandler, type JobContext, type WorkerClaim } from '../../jobs/job-worker.ts';
import { unsafeCompleteJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import { timeOrderedUuid as timeOrderedId } from '../../lib/ids.ts';
import type { EscalationChannel } from '../../../contract/escalation.ts';
import { attemptKey, findAttempts, recordAttempts, recordOutcomesAtOnce, type AttemptRow } from '../../notifications/attempts.repository.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { ackLinkSigner } from './ack-links.ts';
import { groupBy, writeEach } from './batches.ts';
import { pageMessage } from './page-message.ts';
import { unsafeFindPagedAlerts, type PagedAlert } from './paging.repository.ts';

export const PAGES_JOB = 'escalation.pages';

/** How long an acknowledge link works. */
export const ACK_LINK_TTL_MS = 7 * 24 * 3600_000;
/** Pages per job (named under escalation.* so the job-lag alert rule of ops/alert-rules.yml sees them). */
const PAGES_PER_JOB = 500;

/** One page: an alert, to a person, by a channel, at a step of its escalation ('L1'…, 'overdue', 'subscription'). */
export interface Page {
  tenantId: string;
  alertId: string;
  userId: string;
  channel: EscalationChannel;
  step: string;
  level: number | null;
}

/** A page job's payload: its pages grouped by what they share, each group listing its alerts (a few kB per 500 pages). */
type PackedPages = { groups: Array<Omit<Page, 'alertId'> & { alertIds: string[] }> };

function packPages(pages: Page[]): PackedPages {
  const groups = groupBy(pages, (p) => `${p.tenantId}|${p.step}|${p.level}|${p.userId}|${p.channel}`);
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
export function createPageDelivery(deps: { db: DB; notifier: Notifier; publicUrl: () => string }) {
  const { db } = deps;
  /**
   * What a sweep knows of the page jobs it just committed (their alerts, read in its transaction), for their first run
   * right after on this worker: the alerts are not read again, and no attempt can exist yet. Consumed by that run.
   */
  const fresh = new Map<string, Map<string, PagedAlert>>();

  const jobsFor = (pages: Page[], now: Date): NewJob[] =>
    chunks(pages, PAGES_PER_JOB).map((part) => ({ kind: PAGES_JOB, uniqueKey: `pages:${timeOrderedId()}`, dueAt: now, payload: packPages(part), runNow: true }));

  function adopt(claim: WorkerClaim | undefined, claimed: JobsTable[], alerts: PagedAlert[]) {
    if (!claim || claimed.length === 0) return;
    const byId = new Map(alerts.map((a) => [a.id, a]));
    for (const job of claimed) if (job.kind === PAGES_JOB) fresh.set(job.id, byId);
    claim.adopt(claimed);
  }

  /**
   * Sends a batch of pages and records their outcomes (attempt rows) in one write; returns per page null or the error
   * it failed with (a transient failure, or an outcome that could not be written: its job runs again).
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
    const open = candidates.flatMap((c) => {
      const row: AttemptRow = attempts.get(keyOf(c.p)) ?? {
        id: timeOrderedId(),
        tenant_id: c.p.tenantId,
        alert_id: c.p.alertId,
        step: c.p.step,
        level: c.p.level,
        user_id: c.p.userId,
        channel: c.p.channel,
        outcome: 'pending',
        reason: null,
        provider_id: null,
        tries: 0,
        created_at: c.at,
        updated_at: c.at,
      };
      return row.outcome === 'pending' ? [{ ...c, row, tries: Number(row.tries) + 1 }] : [];
    });
    // A single-use acknowledge link per page, signed for its person and alert (nothing stored until it is used).
    const sign = open.length ? await ackLinkSigner(db) : null;
    const outcomes = await deps.notifier.deliver(
      open.map((c) => {
        const token = sign!(c.p.alertId, c.p.userId, new Date(c.ctx.now.getTime() + ACK_LINK_TTL_MS));
        const links = { open: `${deps.publicUrl()}/app/dashboard?alert=${encodeURIComponent(c.alert.id)}`, ack: `${deps.publicUrl()}/ack/${token}`, ackToken: token };
        return { person: { userId: c.member.id, email: c.member.email }, channel: c.p.channel, message: pageMessage(c.alert, c.p.level, links), final: c.ctx.finalAttempt };
      }),
    );
    const records = open.map((c, i) => ({
      index: c.index,
      attempt: { ...c.row, outcome: outcomes[i].outcome, reason: outcomes[i].reason, provider_id: outcomes[i].providerId, tries: c.tries, updated_at: c.at },
      error: outcomes[i].error,
    }));
    const failed = new Set(records.flatMap((r) => (r.error === null ? [] : [r.index])));
    const done = finish && records.length ? { ids: finish.jobIds(failed), token: finish.token } : null;
    // PostgreSQL: the whole batch in one statement when it fits; else, or when that fails, a transaction for the whole
    // batch, then one per page.
    let atOnce = false;
    if (records.length) {
      try {
        atOnce = await recordOutcomesAtOnce(db, records.map((r) => r.attempt), done);
      } catch (err) {
        // The database is away: every page of the batch runs again later. Another error: written the slower way below.
        if (isDatabaseUnavailable(err)) {
          records.forEach((r) => (out[r.index] = err));
          return out;
        }
      }
    }
    if (atOnce) finish?.committed();
    const written = atOnce
      ? records.map(() => null)
      : await writeEach(
          db,
          records,
          async (trx, list) => {
            await recordAttempts(trx, list.map((r) => r.attempt));
            if (done && list === records) await unsafeCompleteJobs(trx, done.ids, done.token);
          },
          (list) => {
            if (finish && list === records) finish.committed();
          },
        );
    // A page whose outcome could not be recorded stays 'pending': its job runs again (at most one repeat).
    records.forEach((r, i) => (out[r.index] = written[i] ?? r.error));
    return out;
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
