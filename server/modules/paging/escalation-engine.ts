import { randomBytes } from 'node:crypto';
import { hashToken } from '../../lib/tokens.ts';
import { chunks } from '../../db/bulk-insert.ts';
import type { DB, Dialect } from '../../db/database.ts';
import { isDatabaseUnavailable, parseJson } from '../../db/database.ts';
import type { AlertPriority } from '../../../contract/alerts.ts';
import type { EscalationChannel, EscalationPolicy, LaterLevel } from '../../../contract/escalation.ts';
import { noTarget } from '../../../contract/escalation.ts';
import { PAGING_MSG } from '../../../contract/paging.ts';
import { DONE_AND_DELETED, type BatchJobHandler, type JobHandler, type WorkerClaim } from '../../jobs/job-worker.ts';
import type { JobsTable } from '../../db/schema.ts';
import { timeOrderedUuid as timeOrderedId } from '../../lib/ids.ts';
import { completeJobs, insertJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { toPolicy } from '../escalation/escalation-policies.repository.ts';
import { policyForAlert } from '../escalation/escalation-policies.service.ts';
import { deletePushToken, toChannelPreferences } from '../profile/profile.repository.ts';
import { whoIsOnCall } from '../schedules/schedules.service.ts';
import { listActiveMemberAccounts } from '../members/members.repository.ts';
import {
  attemptKey,
  findAttempts,
  findPagedAlerts,
  findPoliciesByIds,
  findPreferencesOfMany,
  findSubscribersOfMany,
  insertAckTokens,
  insertSystemEvents,
  listPushTargetsOfMany,
  lockPendingAlerts,
  recordAttempts,
  recordOutcomesAtOnce,
  setEscalationEach,
  setEscalationMany,
  lockDueOverdueChecks,
  lockDueSteps,
  anyDue,
  type EscalationStart,
  type AttemptRow,
  type EscalationValues,
  type PagedAlert,
  type SystemEvent,
} from './paging.repository.ts';
import { DeliveryError, type PushTarget, type Transports } from './transports.ts';
import { ackLinkSigner } from './ack-links.ts';

export const JOB = { step: 'escalation.step', overdue: 'escalation.overdue', deliver: 'page.deliver', pages: 'escalation.pages' } as const;

/** How long an acknowledge link works. */
export const ACK_LINK_TTL_MS = 7 * 24 * 3600_000;

/** Pending alerts the sweep starts per transaction. */
export const START_BATCH = 500;
/** Pages per 'escalation.pages' job (named under escalation.* so the job-lag alert rule of ops/alert-rules.yml sees them). */
const PAGES_PER_JOB = 500;
/** Pages of one batch in flight to the providers at once. */
const SEND_CONCURRENCY = 50;

const MINUTE = 60_000;
const LEVEL_KEYS = ['level_1', 'level_2', 'level_3'] as const;

interface DeliverPayload {
  tenantId: string;
  alertId: string;
  userId: string;
  channel: EscalationChannel;
  step: string;
  level: number | null;
}

interface StepPayload {
  tenantId: string;
  alertId: string;
  level: number;
  repeat: boolean;
}

type Member = { id: string; display_name: string; email: string };

/** Who a level pages, read once per batch (`peopleReader`). */
type PeopleOf = (tenantId: string, policy: EscalationPolicy, level: number, now: Date) => Promise<Member[]>;

/**
 * A sweep of escalation work kept on the alerts (`sweepDue`): the column it is due by, which alerts still escalate,
 * and what it does to one of them with its policy as it is now (fires what it must and says what to set).
 */
interface DueSweep {
  column: 'next_step_at' | 'overdue_check_at';
  live: (alert: PagedAlert) => boolean;
  act: (alert: PagedAlert, policy: EscalationPolicy, peopleOf: PeopleOf) => Promise<{ values: EscalationValues; events: SystemEvent[]; jobs: NewJob[] }>;
}

export interface EngineDeps {
  db: DB;
  dialect: Dialect;
  transports: Transports;
  /** Read when a link is made (the server may learn its address after start). */
  publicUrl: () => string;
  bus: AlertBus;
  log?: { error(obj: object, msg: string): void };
}

/** `fn` over `list` with at most `limit` calls in flight; results in order. */
async function mapLimit<T, R>(list: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(list.length);
  let next = 0;
  const lane = async () => {
    while (next < list.length) {
      const i = next++;
      out[i] = await fn(list[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, lane));
  return out;
}

/**
 * The escalation engine (issue 11). An alert is inserted with escalation_state 'pending'; the sweep starts it:
 * the governing policy is found (integration → client → tenant default), level 1 fires at once (in the same
 * transaction) and its overdue check is set to the priority's acknowledgement target (`alerts.overdue_check_at`,
 * run by the overdue sweep). Each later level's step, when it fires, reads the policy as it is then, pages its people
 * (users plus whoever is on call on its schedules) on each of the level's channels that the person can be reached by,
 * and schedules the next level. Acknowledge, resolve and close delete the alert's jobs and clear its overdue check in
 * their own transaction. Every page is a job and an attempt row unique per (alert, step, person, channel).
 *
 * Speed (10,000 alerts due in the same second): the sweeps, the steps and the deliveries each work a batch at a time:
 * what they read (alerts, policies, people, preferences, push subscriptions) is read once per batch, what they write
 * (escalation states, timeline entries, jobs, attempts) goes in multi-row statements (`bulkInsert`: no query building,
 * PostgreSQL `unnest` arrays), in one transaction per batch. A batch whose writes fail is written again item by item,
 * so one bad item fails (and is retried) alone. A level's deliveries are inserted already claimed by the worker that
 * fired it, which sends them right after the commit (no claim of their own; a dead worker's lease runs out and another
 * sends them). Acknowledge links are signed (`ack-links.ts`): nothing is stored per page.
 */
export function createEscalationEngine(deps: EngineDeps) {
  const { db, dialect, transports } = deps;

  /**
   * Runs `write` over all items in one transaction; when that fails (and the database is there), over each item alone,
   * so one item that cannot be written fails only itself. Returns, per item, null or the error. The jobs a write
   * inserted claimed (deliveries to send now) are handed to the worker's claim once their transaction has committed.
   */
  async function writeEach<T>(
    items: T[],
    write: (trx: DB, items: T[]) => Promise<JobsTable[] | void>,
    claim?: WorkerClaim,
    onCommit?: (items: T[]) => void,
  ): Promise<unknown[]> {
    if (items.length === 0) return [];
    const commit = async (list: T[]) => {
      const claimed = await db.transaction().execute((trx) => write(trx, list));
      if (claimed?.length) claim?.adopt(claimed);
      onCommit?.(list);
    };
    try {
      await commit(items);
      return items.map(() => null);
    } catch (err) {
      if (items.length === 1 || isDatabaseUnavailable(err)) return items.map(() => err);
      const out: unknown[] = [];
      for (const item of items) {
        try {
          await commit([item]);
          out.push(null);
        } catch (e) {
          out.push(e);
        }
      }
      return out;
    }
  }

  /**
   * The sweeps' deliveries, as 'escalation.pages' jobs of up to 500 pages each instead of a job per page (the other jobs as
   * they are). A sweep fires a level once per alert (its state or check changes in the same transaction), so its pages
   * need no unique key of their own; the attempt's unique key still makes a second page impossible.
   */
  function batchPages(jobs: NewJob[], now: Date): NewJob[] {
    const pages = jobs.filter((j) => j.kind === JOB.deliver).map((j) => j.payload as unknown as DeliverPayload);
    const others = jobs.filter((j) => j.kind !== JOB.deliver);
    for (const part of chunks(pages, PAGES_PER_JOB)) others.push({ kind: JOB.pages, uniqueKey: `pages:${timeOrderedId()}`, dueAt: now, payload: packPages(part), runNow: true });
    return others;
  }

  /**
   * What a sweep knows of the page batches it just committed (their alerts, read in its transaction), for their first
   * run right after on this worker: the alerts are not read again, and no attempt can exist yet. Consumed by that run.
   */
  const freshBatches = new Map<string, Map<string, PagedAlert>>();
  function adoptPages(claim: WorkerClaim | undefined, claimed: JobsTable[], alerts: PagedAlert[]) {
    if (!claim || claimed.length === 0) return;
    const byId = new Map(alerts.map((a) => [a.id, a]));
    for (const job of claimed) if (job.kind === JOB.pages) freshBatches.set(job.id, byId);
    claim.adopt(claimed);
  }

  /**
   * Runs a sweep's batch (`batch(limit, locked)`: returns how many alerts it took, telling `locked` which it locked).
   * A batch that throws for another reason than the database being away is taken again one alert at a time, as many
   * as it had locked: one alert that cannot be escalated (a stored policy or schedule the engine chokes on) must not
   * hold up every other alert's paging, batch after batch. The alert that fails alone is given up (`giveUp`).
   */
  async function isolating(batch: (limit: number, locked: (alerts: PagedAlert[]) => void) => Promise<number>, giveUp: (alert: PagedAlert, err: unknown) => Promise<void>): Promise<number> {
    let locked: PagedAlert[] = [];
    try {
      return await batch(START_BATCH, (alerts) => (locked = alerts));
    } catch (err) {
      if (isDatabaseUnavailable(err) || locked.length === 0) throw err;
      let took = 0;
      for (let i = 0; i < locked.length; i++) {
        let one: PagedAlert[] = [];
        try {
          const n = await batch(1, (alerts) => (one = alerts));
          if (n === 0) break;
          took += n;
        } catch (e) {
          if (isDatabaseUnavailable(e) || one.length === 0) throw e;
          await giveUp(one[0], e);
          took++;
        }
      }
      return took;
    }
  }

  /**
   * Stops the escalation of an alert the engine failed on alone (`column`: the sweep's, null for the start): its state
   * becomes 'stopped', nothing is left due for it, and its timeline says why (nobody more is paged for it).
   */
  async function giveUp(alert: PagedAlert, column: 'next_step_at' | 'overdue_check_at' | null, err: unknown, now: Date) {
    const at = now.toISOString();
    const values: EscalationValues = { escalation_state: 'stopped', next_step_at: null, overdue_check_at: null };
    await db.transaction().execute(async (trx) => {
      await setEscalationMany(trx, alert.tenant_id, [alert.id], values);
      await insertSystemEvents(trx, [{ tenantId: alert.tenant_id, alertId: alert.id, at, kind: 'unrouted', detail: { reason: PAGING_MSG.escalationFailed(err instanceof Error ? err.message : String(err)) } }]);
    });
    deps.log?.error({ err, alertId: alert.id, tenantId: alert.tenant_id, sweep: column ?? 'start' }, 'escalation stopped on an error');
  }

  /**
   * Starts the escalation of up to 500 pending alerts in one transaction (returns how many it took): the governing
   * policy is read, level 1 fires (its deliveries and level 2's step become jobs, the deliveries claimed by this worker
   * to send right after the commit; the overdue check is set on the alert), or the alert is marked unrouted. The
   * policy, people and on-call are read once per batch.
   */
  async function startPending(now: Date, claim?: WorkerClaim): Promise<number> {
    return isolating((limit, locked) => startBatch(now, claim, limit, locked), (alert, err) => giveUp(alert, null, err, now));
  }

  async function startBatch(now: Date, claim: WorkerClaim | undefined, limit: number, locked: (alerts: PagedAlert[]) => void): Promise<number> {
    const { started, claimed, alerts } = await db.transaction().execute(async (trx) => {
      const alerts = await lockPendingAlerts(trx, dialect, limit);
      locked(alerts);
      if (alerts.length === 0) return { started: 0, claimed: [], alerts };
      const at = now.toISOString();
      const jobs: NewJob[] = [];
      const events: SystemEvent[] = [];
      const updates: EscalationStart[] = [];
      const update = (alert: PagedAlert, values: Pick<EscalationStart, 'state'> & Partial<EscalationStart>) =>
        updates.push({ id: alert.id, tenantId: alert.tenant_id, policyId: alert.escalation_policy_id, level: alert.escalation_level, nextStepAt: null, overdueCheckAt: null, ...values });
      // Subscribers hear of every new alert that matches them, once, whatever the escalation does.
      const subscribers = await findSubscribersOfMany(
        trx,
        alerts.map((a) => {
          const tags = parseJson<unknown>(a.tags, []);
          return {
            id: a.id,
            tenantId: a.tenant_id,
            clientId: a.client_id,
            priority: a.priority,
            tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
          };
        }),
      );
      const peopleOf = peopleReader(trx);
      // The governing policy, read once per (tenant, integration, client) in this batch.
      const policies = new Map<string, EscalationPolicy | null>();
      const policyOf = async (alert: PagedAlert) => {
        const key = `${alert.tenant_id}|${alert.integration_id ?? ''}|${alert.client_id ?? ''}`;
        if (!policies.has(key)) policies.set(key, await policyForAlert(trx, alert.tenant_id, { integrationId: alert.integration_id, clientId: alert.client_id }));
        return policies.get(key)!;
      };
      for (const alert of alerts) {
        for (const userId of subscribers.get(alert.id) ?? [])
          for (const channel of ['email', 'push', 'sms'] as const) jobs.push(deliverJob({ tenantId: alert.tenant_id, alertId: alert.id, userId, channel, step: 'subscription', level: null }, now));
        if (alert.status !== 'new') {
          update(alert, { state: 'stopped' });
          continue;
        }
        const policy = await policyOf(alert);
        const target = policy ? policy.escalationTimes[alert.priority as AlertPriority] : null;
        if (!policy || noTarget(target)) {
          update(alert, { state: 'none', policyId: policy?.id ?? null });
          events.push({
            tenantId: alert.tenant_id,
            alertId: alert.id,
            at,
            kind: 'unrouted',
            detail: policy ? { reason: PAGING_MSG.noTargetForPriority(alert.priority), policyName: policy.name } : { reason: PAGING_MSG.noPolicy },
          });
          continue;
        }
        // Level 1 fires now, in this transaction: its deliveries and level 2's step are rows before the commit.
        const level1 = await fire(peopleOf, alert, policy, 1, false, now);
        // The overdue check falls due at the priority's target (a column of the alert, found by the overdue sweep).
        const checkAt = new Date(Math.max(new Date(alert.created_at).getTime() + (target as number) * MINUTE, now.getTime()));
        update(alert, { state: 'running', policyId: policy.id, level: 1, nextStepAt: level1.nextAt?.toISOString() ?? null, overdueCheckAt: checkAt.toISOString() });
        events.push(level1.event);
        jobs.push(...level1.jobs);
      }
      await setEscalationEach(trx, updates);
      await insertSystemEvents(trx, events);
      return { started: alerts.length, claimed: (await insertJobs(trx, batchPages(jobs, now), now, claim ?? null)).claimed, alerts };
    });
    // Level 1's deliveries go out right after the commit, on this worker (no claim of their own).
    adoptPages(claim, claimed, alerts);
    return started;
  }

  /**
   * One sweep of the escalation work kept on the alerts themselves (`column`: the next level or the overdue check),
   * in one transaction (returns how many alerts it took, and those it acted on): up to 500 alerts whose `column` is
   * due are locked; one whose escalation is no longer `live` (acknowledged, resolved, closed), or whose policy is
   * gone, has `column` cleared (a deleted policy stops the escalations it governed); every other one goes to `act`
   * with its policy as it is now, which fires what it must and says what to set. Alerts given the same values are
   * written by one statement per tenant. The deliveries fired go out right after the commit, on this worker.
   */
  async function sweepDue(now: Date, claim: WorkerClaim | undefined, sweep: DueSweep): Promise<{ found: number; acted: PagedAlert[] }> {
    // Every pass of every worker asks: one look-up when nothing is due, no transaction.
    if (!(await anyDue(db, sweep.column, now.toISOString()))) return { found: 0, acted: [] };
    const acted: PagedAlert[] = [];
    const found = await isolating(
      async (limit, locked) => {
        const batch = await sweepBatch(now, claim, sweep, limit, locked);
        acted.push(...batch.acted);
        return batch.found;
      },
      (alert, err) => giveUp(alert, sweep.column, err, now),
    );
    return { found, acted };
  }

  /** One transaction of `sweepDue`, over at most `limit` due alerts (telling `locked` which it locked). */
  async function sweepBatch(now: Date, claim: WorkerClaim | undefined, { column, live, act }: DueSweep, limit: number, locked: (alerts: PagedAlert[]) => void): Promise<{ found: number; acted: PagedAlert[] }> {
    const at = now.toISOString();
    const { found, claimed, acted } = await db.transaction().execute(async (trx) => {
      const alerts = await (column === 'next_step_at' ? lockDueSteps : lockDueOverdueChecks)(trx, dialect, at, limit);
      locked(alerts);
      if (alerts.length === 0) return { found: 0, claimed: [], acted: [] as PagedAlert[] };
      const rows = await findPoliciesByIds(trx, alerts.filter(live).map((a) => a.escalation_policy_id!));
      const policies = new Map<string, EscalationPolicy>();
      const peopleOf = peopleReader(trx);
      const sets = new Map<string, { tenantId: string; values: EscalationValues; ids: string[] }>();
      const set = (tenantId: string, values: EscalationValues, id: string) => {
        const key = `${tenantId}|${JSON.stringify(values)}`;
        (sets.get(key) ?? sets.set(key, { tenantId, values, ids: [] }).get(key)!).ids.push(id);
      };
      const events: SystemEvent[] = [];
      const jobs: NewJob[] = [];
      const acted: PagedAlert[] = [];
      for (const alert of alerts) {
        const row = live(alert) ? rows.get(alert.escalation_policy_id!) : undefined;
        if (!row || row.tenant_id !== alert.tenant_id) {
          const cleared: EscalationValues = { [column]: null };
          set(alert.tenant_id, live(alert) ? { ...cleared, escalation_state: 'stopped' } : cleared, alert.id);
          continue;
        }
        const policy = policies.get(row.id) ?? policies.set(row.id, toPolicy(row)).get(row.id)!;
        const done = await act(alert, policy, peopleOf);
        set(alert.tenant_id, done.values, alert.id);
        events.push(...done.events);
        jobs.push(...done.jobs);
        acted.push(alert);
      }
      for (const u of sets.values()) await setEscalationMany(trx, u.tenantId, u.ids, u.values);
      await insertSystemEvents(trx, events);
      return { found: alerts.length, claimed: (await insertJobs(trx, batchPages(jobs, now), now, claim ?? null)).claimed, acted };
    });
    adoptPages(claim, claimed, acted);
    return { found, acted };
  }

  const running = (a: PagedAlert) => a.status === 'new' && a.escalation_state === 'running' && a.escalation_policy_id !== null;

  /**
   * Fires the next level of up to 500 escalations whose `next_step_at` is due (returns how many it took): the policy
   * is read as it is now, the level pages its people, the alert's level and the level after it are set.
   */
  async function checkSteps(now: Date, claim?: WorkerClaim): Promise<number> {
    const live = (a: PagedAlert) => running(a) && a.escalation_level < 3;
    const { found } = await sweepDue(now, claim, {
      column: 'next_step_at',
      live,
      act: async (alert, policy, peopleOf) => {
        const level = alert.escalation_level + 1;
        const step = await fire(peopleOf, alert, policy, level, false, now);
        return { values: { escalation_level: level, next_step_at: step.nextAt?.toISOString() ?? null }, events: [step.event], jobs: step.jobs };
      },
    });
    return found;
  }

  /**
   * Runs up to 500 due overdue checks (returns how many it took): an alert still unacknowledged past its priority's
   * target is marked overdue (timeline entry) and the level paged last is paged once more (level 1 if none was paged
   * yet), firing right there as a step would (reading the policy now).
   */
  async function checkOverdue(now: Date, claim?: WorkerClaim): Promise<number> {
    const at = now.toISOString();
    const { found, acted } = await sweepDue(now, claim, {
      column: 'overdue_check_at',
      live: running,
      act: async (alert, policy, peopleOf) => {
        const repeat = await fire(peopleOf, alert, policy, Math.max(1, alert.escalation_level), true, now);
        // The timeline's 'overdue' entry is the alert's overdue_at (alerts.service presentDetail): no row of its own.
        return { values: { overdue_at: at, overdue_check_at: null }, events: [repeat.event], jobs: repeat.jobs };
      },
    });
    for (const a of acted) deps.bus.publish(a.tenant_id, { kind: 'updated', id: a.id, status: 'new', priority: a.priority, dedupKey: null, updatedAt: at });
    return found;
  }

  const deliverJob = (p: DeliverPayload, dueAt: Date): NewJob => ({
    kind: JOB.deliver,
    uniqueKey: `page:${p.alertId}:${p.step}:${p.userId}:${p.channel}`,
    tenantId: p.tenantId,
    alertId: p.alertId,
    dueAt,
    payload: { ...p },
    runNow: true,
  });

  /**
   * For each (tenant, alert): the alert and its policy when the escalation should still go on, null otherwise (and
   * the state stopped when its policy is gone). Alerts and policies are read once for the whole list.
   */
  async function liveMany(list: Array<{ tenantId: string; alertId: string }>): Promise<Array<{ alert: PagedAlert; policy: EscalationPolicy } | null>> {
    const alerts = await findPagedAlerts(db, list.map((x) => x.alertId));
    const running = (x: { tenantId: string; alertId: string }) => {
      const alert = alerts.get(x.alertId);
      return alert && alert.tenant_id === x.tenantId && alert.status === 'new' && alert.escalation_state === 'running' && alert.escalation_policy_id ? alert : null;
    };
    const rows = await findPoliciesByIds(db, list.flatMap((x) => running(x)?.escalation_policy_id ?? []));
    const policies = new Map<string, EscalationPolicy>();
    const orphaned = new Map<string, Set<string>>();
    const out = list.map((x) => {
      const alert = running(x);
      if (!alert) return null;
      const row = rows.get(alert.escalation_policy_id!);
      if (!row || row.tenant_id !== x.tenantId) {
        orphaned.set(x.tenantId, (orphaned.get(x.tenantId) ?? new Set()).add(x.alertId));
        return null;
      }
      const policy = policies.get(row.id) ?? policies.set(row.id, toPolicy(row)).get(row.id)!;
      return { alert, policy };
    });
    // A deleted policy stops the escalations it governed.
    for (const [tenantId, ids] of orphaned) await setEscalationMany(db, tenantId, [...ids], { escalation_state: 'stopped' });
    return out;
  }

  /**
   * Who a level pages, read once per batch: each (policy, level)'s people at a moment are its users and whoever is on
   * call (primary and secondary) on its schedules, active members only; each schedule's on-call is read once.
   */
  function peopleReader(reader: DB) {
    const onCall = new Map<string, Awaited<ReturnType<typeof whoIsOnCall>>>();
    const people = new Map<string, Member[]>();
    return async (tenantId: string, policy: EscalationPolicy, level: number, now: Date): Promise<Member[]> => {
      const key = `${tenantId}|${policy.id}|${level}|${now.getTime()}`;
      const known = people.get(key);
      if (known) return known;
      const config = policy[LEVEL_KEYS[level - 1]];
      const ids = new Set(config.userIds);
      for (const scheduleId of config.scheduleIds) {
        const k = `${tenantId}|${scheduleId}|${now.getTime()}`;
        if (!onCall.has(k)) onCall.set(k, await whoIsOnCall(reader, tenantId, scheduleId, now));
        const on = onCall.get(k);
        if (on?.primary) ids.add(on.primary);
        if (on?.secondary) ids.add(on.secondary);
      }
      const list = await listActiveMemberAccounts(reader, tenantId, [...ids]);
      people.set(key, list);
      return list;
    };
  }

  /**
   * What firing a level of an alert's escalation writes: a delivery job per person and channel of the level, the next
   * level's step (after its delay), and the 'escalated' timeline entry.
   */
  async function fire(peopleOf: ReturnType<typeof peopleReader>, alert: PagedAlert, policy: EscalationPolicy, level: number, repeat: boolean, now: Date) {
    const config = policy[LEVEL_KEYS[level - 1]];
    const persons = await peopleOf(alert.tenant_id, policy, level, now);
    const stepName = repeat ? 'overdue' : `L${level}`;
    const jobs: NewJob[] = [];
    for (const person of persons)
      for (const channel of config.notificationChannels) jobs.push(deliverJob({ tenantId: alert.tenant_id, alertId: alert.id, userId: person.id, channel, step: stepName, level }, now));
    const next = !repeat && level < 3 ? (policy[LEVEL_KEYS[level]] as LaterLevel) : null;
    // When the next level falls due (the caller sets it on the alert: `next_step_at`).
    const nextAt = next ? new Date(now.getTime() + next.timeAfterPrevious * MINUTE) : null;
    const event: SystemEvent = {
      tenantId: alert.tenant_id,
      alertId: alert.id,
      at: now.toISOString(),
      kind: 'escalated',
      detail: { level, repeat, policyName: policy.name, names: persons.map((x) => x.display_name || x.email) },
    };
    return { jobs, event, nextAt };
  }

  /**
   * Steps scheduled as jobs (escalations started before migration 0013: their next level then becomes the alert's
   * `next_step_at`), a batch at a time (levels 2 and 3, the overdue repeat, and level 1 of escalations started before
   * level 1 was fired by the sweep): alerts and policies read once, people once per (policy, level); the levels reached, timeline
   * entries and new jobs written in one transaction.
   */
  const steps: BatchJobHandler = async (items) => {
    const payloads = items.map(({ ctx }) => ctx.payload as unknown as StepPayload);
    const states = await liveMany(payloads);
    const peopleOf = peopleReader(db);
    type StepWrite = { index: number; p: StepPayload; now: Date; event: SystemEvent; jobs: NewJob[]; nextAt: Date | null };
    const writes: StepWrite[] = [];
    for (const [index, { ctx }] of items.entries()) {
      const state = states[index];
      if (!state) continue;
      const p = payloads[index];
      writes.push({ index, p, now: ctx.now, ...(await fire(peopleOf, state.alert, state.policy, p.level, p.repeat, ctx.now)) });
    }
    const results = await writeEach(writes, async (trx, list) => {
      const levels = new Map<string, { tenantId: string; values: EscalationValues; ids: string[] }>();
      for (const w of list) {
        if (w.p.repeat) continue;
        const nextStepAt = w.nextAt?.toISOString() ?? null;
        const key = `${w.p.tenantId}|${w.p.level}|${nextStepAt}`;
        (levels.get(key) ?? levels.set(key, { tenantId: w.p.tenantId, values: { escalation_level: w.p.level, next_step_at: nextStepAt }, ids: [] }).get(key)!).ids.push(w.p.alertId);
      }
      for (const l of levels.values()) await setEscalationMany(trx, l.tenantId, l.ids, l.values);
      await insertSystemEvents(trx, list.map((w) => w.event));
      return insertJobsAtTheirMoment(trx, list, (w) => w.jobs, items[0].ctx.claim);
    }, items[0]?.ctx.claim);
    const out: unknown[] = items.map(() => null);
    writes.forEach((w, i) => (out[w.index] = results[i]));
    return out;
  };

  /**
   * Overdue checks scheduled as jobs (escalations started before migration 0013; later ones use `checkOverdue`), a
   * batch at a time: an alert still unacknowledged past its priority's target is marked overdue (timeline
   * entry) and the level paged last is paged once more (level 1 if none was paged yet), in one transaction: the repeat
   * fires right there (as a step would, reading the policy now), its deliveries go out right after the commit.
   */
  const overdues: BatchJobHandler = async (items) => {
    const payloads = items.map(({ ctx }) => ctx.payload as unknown as { tenantId: string; alertId: string });
    const states = await liveMany(payloads);
    const peopleOf = peopleReader(db);
    const writes: Array<{ index: number; p: (typeof payloads)[number]; alert: PagedAlert; now: Date; at: string; repeat: Awaited<ReturnType<typeof fire>> }> = [];
    for (const [index, { ctx }] of items.entries()) {
      const state = states[index];
      if (!state) continue;
      const repeat = await fire(peopleOf, state.alert, state.policy, Math.max(1, state.alert.escalation_level), true, ctx.now);
      writes.push({ index, p: payloads[index], alert: state.alert, now: ctx.now, at: ctx.now.toISOString(), repeat });
    }
    const results = await writeEach(writes, async (trx, list) => {
      for (const group of groupBy(list, (w) => `${w.p.tenantId}|${w.at}`).values())
        await setEscalationMany(trx, group[0].p.tenantId, group.map((w) => w.p.alertId), { overdue_at: group[0].at });
      await insertSystemEvents(trx, list.map((w) => w.repeat.event));
      return insertJobsAtTheirMoment(trx, list, (w) => w.repeat.jobs, items[0].ctx.claim);
    }, items[0]?.ctx.claim);
    const out: unknown[] = items.map(() => null);
    writes.forEach((w, i) => {
      out[w.index] = results[i];
      if (results[i] === null) deps.bus.publish(w.p.tenantId, { kind: 'updated', id: w.p.alertId, status: 'new', priority: w.alert.priority, dedupKey: null, updatedAt: w.at });
    });
    return out;
  };

  /** Why a person cannot be reached on a channel (null when they can), from their saved preferences. */
  function unreachable(p: DeliverPayload, alert: PagedAlert, prefs: ReturnType<typeof toChannelPreferences>, targets: PushTarget[]): string | null {
    if (p.channel === 'email') return prefs.email.enabled && prefs.email.alertNotifications ? null : PAGING_MSG.emailOff;
    if (p.channel === 'push') return !prefs.push.enabled ? PAGING_MSG.pushOff : targets.length ? null : PAGING_MSG.noPushSubscription;
    if (!transports.sms) return PAGING_MSG.smsNotConfigured;
    if (!prefs.sms.enabled) return PAGING_MSG.smsOff;
    if (!prefs.sms.alertTypes.includes(alert.priority as AlertPriority)) return PAGING_MSG.smsPriorityOff(alert.priority);
    return prefs.phoneNumber ? null : PAGING_MSG.noPhoneNumber;
  }

  /**
   * Deliveries of a batch. Read once for the batch: the alerts, the people (active members), the attempts recorded by
   * earlier runs (a finished one is never sent again), preferences and push subscriptions; each page to send gets a
   * signed acknowledge link. The pages go out concurrently; their outcomes
   * (attempt rows, unique per alert, step, person and channel, and timeline entries) are written in one transaction. A
   * page that failed transiently is recorded 'pending' and reported failed: the worker retries that job alone (a later
   * try sends it again); the others of the batch are done. A worker that dies mid-send leaves its jobs leased: another
   * worker runs them when the lease ends (at most one repeat, never a lost page).
   */
  const deliveries = async (
    items: Parameters<BatchJobHandler>[0],
    known: Map<string, PagedAlert> | null = null,
    /**
     * Jobs finished with the whole batch's outcomes (given the items that failed): deleted (with `token`) in the write
     * that records them; `committed` once it has (not when the outcomes had to be written item by item).
     */
    finish: { jobIds: (failed: Set<number>) => string[]; token: string; committed: () => void } | null = null,
  ): Promise<unknown[]> => {
    const out: unknown[] = items.map(() => null);
    const ps = items.map(({ ctx }) => ctx.payload as unknown as DeliverPayload);
    const alerts = known ?? (await findPagedAlerts(db, ps.map((p) => p.alertId)));
    const members = new Map<string, Member>();
    for (const [tenantId, list] of groupBy(ps, (p) => p.tenantId))
      for (const m of await listActiveMemberAccounts(db, tenantId, [...new Set(list.map((p) => p.userId))])) members.set(`${tenantId}|${m.id}`, m);
    // An escalation page waits for nobody once the alert is acknowledged (its jobs were deleted, this one was running).
    const candidates = ps.flatMap((p, index) => {
      const alert = alerts.get(p.alertId);
      const member = members.get(`${p.tenantId}|${p.userId}`);
      if (!alert || alert.tenant_id !== p.tenantId || (p.step !== 'subscription' && alert.status !== 'new') || !member) return [];
      return [{ index, p, alert, member, at: items[index].ctx.now.toISOString() }];
    });
    // An attempt already finished by an earlier run is never sent again; a 'pending' one (a transient failure) is.
    const keyOf = (p: DeliverPayload) => attemptKey({ alert_id: p.alertId, step: p.step, user_id: p.userId, channel: p.channel });
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
    const prefRows = await findPreferencesOfMany(db, open.map((c) => c.p.userId));
    const prefsOf = new Map([...new Set(open.map((c) => c.p.userId))].map((id) => [id, toChannelPreferences(prefRows.get(id))]));
    const targets = await listPushTargetsOfMany(db, open.filter((c) => c.p.channel === 'push' && prefsOf.get(c.p.userId)!.push.enabled).map((c) => c.p.userId));
    const planned = open.map((c) => {
      const prefs = prefsOf.get(c.p.userId)!;
      const pushTargets = c.p.channel === 'push' && prefs.push.enabled ? (targets.get(c.p.userId) ?? []) : [];
      return { ...c, prefs, pushTargets, why: unreachable(c.p, c.alert, prefs, pushTargets), link: null as { token: string; url: string } | null };
    });
    // A new single-use acknowledge link for each page about to go out, bound to its person and alert: signed (nothing
    // stored until it is used), or a stored random token when the ids cannot be packed into a signed one.
    const ackRows: Parameters<typeof insertAckTokens>[1] = [];
    const sign = planned.some((c) => !c.why) ? await ackLinkSigner(db) : null;
    for (const c of planned) {
      if (c.why) continue;
      const now = items[c.index].ctx.now;
      const expiresAt = new Date(now.getTime() + ACK_LINK_TTL_MS);
      const signed = sign!(c.p.alertId, c.p.userId, expiresAt);
      const token = signed ?? randomBytes(16).toString('base64url');
      c.link = { token, url: `${deps.publicUrl()}/ack/${token}` };
      if (signed) continue;
      ackRows.push({
        token_hash: hashToken(token),
        tenant_id: c.p.tenantId,
        alert_id: c.p.alertId,
        user_id: c.p.userId,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      });
    }
    await insertAckTokens(db, ackRows);

    // The attempt row is the page's record; the alert's timeline shows it from there (`listPageOutcomes`).
    type PageRecord = { index: number; attempt: AttemptRow; error: unknown };
    const records = await mapLimit(planned, SEND_CONCURRENCY, async (c): Promise<PageRecord> => {
      const { p, at, tries, member } = c;
      const { ctx } = items[c.index];
      const record = (outcome: 'sent' | 'failed' | 'skipped' | 'pending', reason: string | null, providerId: string | null = null, error: unknown = null): PageRecord => ({
        index: c.index,
        attempt: { ...c.row, outcome, reason, provider_id: providerId, tries, updated_at: at },
        error,
      });
      if (c.why) return record('skipped', c.why);
      try {
        return record('sent', null, await send(p, c.alert, member, c.prefs.phoneNumber, c.pushTargets, c.link!));
      } catch (err) {
        const e = err instanceof DeliveryError ? err : new DeliveryError((err as Error).message, false);
        if (!e.permanent && !ctx.finalAttempt) return record('pending', e.message, null, e);
        return record('failed', e.message);
      }
    });
    const failed = new Set(records.flatMap((r) => (r.error === null ? [] : [r.index])));
    const done = finish && records.length ? { ids: finish.jobIds(failed), token: finish.token } : null;
    // PostgreSQL: the whole batch in one statement when it fits (one round trip); else, or when that fails, a
    // transaction for the whole batch, then one per page.
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
          records,
          async (trx, list) => {
            await recordAttempts(trx, list.map((r) => r.attempt));
            if (done && list === records) await completeJobs(trx, done.ids, done.token);
          },
          undefined,
          (list) => {
            if (finish && list === records) finish.committed();
          },
        );
    // A page whose outcome could not be recorded stays 'pending': its job runs again (at most one repeat).
    records.forEach((r, i) => (out[r.index] = written[i] ?? r.error));
    return out;
  };

  /**
   * Page batches (the sweeps' deliveries): their pages are delivered as one batch. A batch with a page that failed
   * (transiently, or its outcome could not be recorded) fails as a whole and is retried with the worker's backoff; its
   * pages already finished are then skipped (their attempts are read), so only the failed ones go out again, and its
   * last try records a permanent failure, as a job per page would.
   */
  const pageBatches: BatchJobHandler = async (items) => {
    const hints = items.map(({ job }) => {
      const hint = freshBatches.get(job.id);
      freshBatches.delete(job.id);
      return Number(job.attempts) === 1 ? hint : undefined;
    });
    // The sweep's alerts when every batch is fresh from it; otherwise everything is read.
    const known = hints.every((h) => h !== undefined) ? new Map(hints.flatMap((h) => [...h!])) : null;
    const pages = items.flatMap(({ job, ctx }, index) => {
      const list = unpackPages(ctx.payload);
      return list.map((p) => ({ index, item: { job, ctx: { ...ctx, payload: p as unknown as Record<string, unknown> } } }));
    });
    // The batches all of whose pages are done are deleted in the transaction that records their outcomes (one commit
    // fewer per batch); the worker then has nothing left to do for them.
    const token = items[0]?.ctx.claim?.token;
    let done = new Set<number>();
    let deleted = false;
    const finish = {
      jobIds: (failed: Set<number>) => {
        const failedJobs = new Set([...failed].map((k) => pages[k].index));
        done = new Set(items.flatMap((_, i) => (failedJobs.has(i) ? [] : [i])));
        return [...done].map((i) => items[i].job.id);
      },
      token: token!,
      committed: () => void (deleted = true),
    };
    const results = await deliveries(
      pages.map((x) => x.item),
      known,
      token ? finish : null,
    );
    const out: unknown[] = items.map((_, i) => (deleted && done.has(i) ? DONE_AND_DELETED : null));
    pages.forEach((x, k) => {
      if (results[k] !== null && results[k] !== undefined && out[x.index] === null) out[x.index] = results[k];
    });
    return out;
  };

  async function send(p: DeliverPayload, alert: PagedAlert, member: Member, phoneNumber: string | null, pushTargets: PushTarget[], link: { token: string; url: string }): Promise<string | null> {
    const openUrl = `${deps.publicUrl()}/app/dashboard?alert=${encodeURIComponent(alert.id)}`;
    const priority = alert.priority.toUpperCase();
    if (p.channel === 'email') {
      const lines = [
        `${priority} alert: ${alert.title}`,
        '',
        alert.description ? `${alert.description}\n` : '',
        `Source: ${alert.source}`,
        `Opened: ${alert.created_at}`,
        p.level ? `Escalation level: ${p.level}` : 'You subscribed to alerts like this one.',
        '',
        `Open alert: ${openUrl}`,
        `Acknowledge: ${link.url}`,
      ].filter((l, i, all) => l !== '' || all[i - 1] !== '');
      return (await transports.email({ to: member.email, subject: `[${priority}] ${alert.title}`.slice(0, 200), text: lines.join('\n') })).providerId;
    }
    if (p.channel === 'push') {
      const payload = JSON.stringify({
        title: `[${priority}] ${alert.title}`.slice(0, 200),
        body: (alert.description || alert.source).slice(0, 300),
        alertId: alert.id,
        url: openUrl,
        ackToken: link.token,
      });
      let sent: string | null = null;
      let lastError: DeliveryError | null = null;
      let delivered = 0;
      for (const target of pushTargets) {
        try {
          sent = (await transports.push(target, payload)).providerId ?? sent;
          delivered++;
        } catch (err) {
          const e = err instanceof DeliveryError ? err : new DeliveryError((err as Error).message, false);
          if (e.gone) await deletePushToken(db, p.userId, target.endpoint);
          lastError = e;
        }
      }
      if (delivered === 0) throw lastError ?? new DeliveryError(PAGING_MSG.noPushSubscription, true);
      return sent;
    }
    return (await transports.sms!(phoneNumber!, smsText(priority, alert.title, link.url))).providerId;
  }

  /** A batch handler run on one job (a worker given only `handlers` runs every kind). */
  const one =
    (batch: BatchJobHandler): JobHandler =>
    async (job, ctx) => {
      const [err] = await batch([{ job, ctx }]);
      if (err !== null && err !== undefined && err !== DONE_AND_DELETED) throw err;
    };

  return {
    startPending,
    checkSteps,
    checkOverdue,
    handlers: { [JOB.step]: one(steps), [JOB.overdue]: one(overdues), [JOB.deliver]: one(deliveries), [JOB.pages]: one(pageBatches) } as Record<string, JobHandler>,
    /** Every kind a batch at a time (what the worker uses). */
    batchHandlers: { [JOB.step]: steps, [JOB.overdue]: overdues, [JOB.deliver]: (items) => deliveries(items), [JOB.pages]: pageBatches } as Record<string, BatchJobHandler>,
  };
}

/**
 * A page batch's payload: its pages grouped by what they share (tenant, step, level, person, channel), each group
 * listing its alerts, so 500 pages of one level take a few kilobytes, not one object each.
 */
type PackedPages = { groups: Array<Omit<DeliverPayload, 'alertId'> & { alertIds: string[] }> };

function packPages(pages: DeliverPayload[]): PackedPages {
  const groups = groupBy(pages, (p) => `${p.tenantId}|${p.step}|${p.level}|${p.userId}|${p.channel}`);
  return {
    groups: [...groups.values()].map((list) => {
      const { alertId: _, ...shared } = list[0];
      return { ...shared, alertIds: list.map((p) => p.alertId) };
    }),
  };
}

function unpackPages(payload: Record<string, unknown>): DeliverPayload[] {
  return ((payload as Partial<PackedPages>).groups ?? []).flatMap(({ alertIds, ...shared }) => alertIds.map((alertId) => ({ ...shared, alertId })));
}

/**
 * The jobs of a batch's writes, inserted at the moment each write was made (its job's `now`), those to run now under
 * `claim`; returns them, for the worker to run once the transaction has committed.
 */
async function insertJobsAtTheirMoment<W extends { now: Date }>(trx: DB, list: W[], jobsOf: (w: W) => NewJob[], claim: WorkerClaim | undefined): Promise<JobsTable[]> {
  const claimed: JobsTable[] = [];
  for (const [now, group] of groupBy(list, (w) => w.now.getTime())) claimed.push(...(await insertJobs(trx, group.flatMap(jobsOf), new Date(now), claim ?? null)).claimed);
  return claimed;
}

/** `list` grouped by `key`, in first-seen order. */
function groupBy<T, K>(list: T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of list) {
    const k = key(item);
    const group = out.get(k);
    if (group) group.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** At most 160 characters: priority, as much of the title as fits, the acknowledge link. */
export function smsText(priority: string, title: string, url: string) {
  const tail = ` Ack: ${url}`;
  const head = `[${priority}] `;
  const room = 160 - head.length - tail.length;
  const t = title.length > room ? `${title.slice(0, Math.max(0, room - 1))}…` : title;
  return `${head}${t}${tail}`.slice(0, 160);
}
