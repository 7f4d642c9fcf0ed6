import type { DB } from '../../db/database.ts';
import type { JobHandler } from '../../jobs/job-worker.ts';
import { insertJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import { PAGING_MSG } from '../../../contract/paging.ts';
import { recordAttempts, unsafeListHeldPages, type AttemptRow } from '../../notifications/attempts.repository.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { summaryMessage } from './page-message.ts';
import { unsafeFindPageContext } from './paging.repository.ts';

/** A person's summary page of the pages held for them during a storm (one job per tenant, person, channel, minute). */
export const SUMMARY_JOB = 'escalation.summary';
/** Pages one summary covers at most (a bigger storm gets another summary a minute later). */
const PER_SUMMARY = 1000;
const MINUTE = 60_000;

type SummaryPayload = { tenantId: string; userId: string; channel: AttemptRow['channel'] };

/**
 * The summary job for a page held at `now`: due at the start of the next minute, keyed by that minute, so a person
 * gets at most one summary a minute per channel and every held page is in one within a minute. Tried as often as page
 * jobs (a mail outage is waited out for about 37 minutes).
 */
export function summaryJob(p: { tenantId: string; userId: string; channel: AttemptRow['channel'] }, now: Date): NewJob {
  const minute = Math.floor(now.getTime() / MINUTE);
  const payload: SummaryPayload = { tenantId: p.tenantId, userId: p.userId, channel: p.channel };
  return { kind: SUMMARY_JOB, uniqueKey: `page-summary:${p.tenantId}:${p.userId}:${p.channel}:${minute}`, dueAt: new Date((minute + 1) * MINUTE), payload, maxAttempts: 8 };
}

/**
 * Sends a person's summary page: their held pages whose alerts are still new, counted per client, with a link to the
 * dashboard's new alerts ("acknowledge all" there). The held pages become 'summarized' with the summary's outcome (or
 * its skip or failure); pages of alerts acknowledged meanwhile are skipped. A crash between the send and the write
 * sends the summary once more (a duplicate beats a missed page).
 */
export function createPageSummaries(deps: { db: DB; notifier: Notifier; publicUrl: () => string }) {
  const { db } = deps;
  const handler: JobHandler = async (_job, ctx) => {
    const { tenantId, userId, channel } = ctx.payload as SummaryPayload;
    const rows = await unsafeListHeldPages(db, tenantId, userId, channel, PER_SUMMARY);
    if (rows.length === 0) return;
    const at = ctx.now.toISOString();
    const settle = (r: (typeof rows)[number], outcome: AttemptRow['outcome'], reason: string | null): AttemptRow => {
      const { alert_status: _s, client_name: _c, ...row } = r;
      return { ...row, outcome, reason, updated_at: at };
    };
    const live = rows.filter((r) => r.step === 'subscription' || r.alert_status === 'new');
    const updates = rows.filter((r) => !live.includes(r)).map((r) => settle(r, 'skipped', PAGING_MSG.ackedBeforeSummary));
    const [member] = await listActiveMemberAccounts(db, tenantId, [userId]);
    if (!member) updates.push(...live.map((r) => settle(r, 'skipped', PAGING_MSG.notMemberAnyMore)));
    else if (live.length > 0) {
      const alerts = new Map(live.map((r) => [r.alert_id, r.client_name ?? 'no client']));
      const byClient = new Map<string, number>();
      for (const name of alerts.values()) byClient.set(name, (byClient.get(name) ?? 0) + 1);
      const context = await unsafeFindPageContext(db, { clientIds: [], tenantIds: [tenantId], userIds: [userId] });
      const message = summaryMessage({
        count: alerts.size,
        byClient: [...byClient].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
        tenantName: (context.tenantsPerPerson.get(userId) ?? 1) > 1 ? (context.tenants.get(tenantId) ?? null) : null,
        url: `${deps.publicUrl()}/app/dashboard?status=new`,
      });
      const [o] = await deps.notifier.deliver([{ person: { userId: member.id, email: member.email }, channel, message, final: ctx.finalAttempt }]);
      if (o.outcome === 'pending') {
        await recordAttempts(db, updates);
        throw o.error;
      }
      updates.push(...live.map((r) => (o.outcome === 'sent' ? settle(r, 'summarized', PAGING_MSG.inSummary(alerts.size)) : settle(r, o.outcome, o.reason))));
    }
    await recordAttempts(db, updates);
    // Pages held since the read (or past its limit) get the next minute's summary.
    if ((await unsafeListHeldPages(db, tenantId, userId, channel, 1)).length > 0) await insertJobs(db, [summaryJob({ tenantId, userId, channel }, ctx.now)], ctx.now, null);
  };
  return { handler };
}
