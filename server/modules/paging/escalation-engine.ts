import type { DB, Dialect } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { PagedNobodyReason } from '../../../contract/alerts.ts';
import type { EscalationPolicy } from '../../../contract/escalation.ts';
import { PAGING_MSG } from '../../../contract/paging.ts';
import type { WorkerClaim } from '../../jobs/job-worker.ts';
import { insertJobs } from '../../jobs/jobs.repository.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { policiesByIds } from '../escalation/escalation-policies.service.ts';
import { rulePolicyGone, startPolicies } from './escalation-start.ts';
import { whoIsOnCall } from '../schedules/schedules.service.ts';
import { levelPoster } from '../destinations/level-posts.service.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';
import { groupBy, isolating } from './batches.ts';
import { hasNextLevel, isEndOfHold, isRunning, levelPeople, levelSchedules, overdueAfterHold, overdueLevel, pagedNobodyAtStart, pagesOf, planFire, planStart, type OnCall } from './escalation-plan.ts';
import { markPagedNobody, type MarkedAlert } from './paged-nobody.repository.ts';
import { overdueFallsWithStep } from './page-targets.ts';
import { createPageDelivery, type Page } from './page-delivery.ts';
import { applyRules, rulesReader, splitDelayed } from './notification-rules.ts';
import {
  findSubscribersOfMany,
  insertSystemEvents,
  setEscalationEach,
  setEscalationMany,
  unsafeAnyDue,
  unsafeLockDueOverdueChecks,
  unsafeLockDueSteps,
  unsafeLockPendingAlerts,
  type EscalationStart,
  type EscalationValues,
  type PagedAlert,
  type SystemEvent,
} from './paging.repository.ts';

/** Alerts a sweep takes per transaction. */
export const START_BATCH = 500;

type DueColumn = 'next_step_at' | 'overdue_check_at';

/** What firing a level writes: its pages, the 'escalated' timeline entry, and when the next level is due. */
interface Fired {
  pages: Page[];
  event: SystemEvent;
  nextAt: Date | null;
}

/**
 * A sweep of escalation work kept on the alerts (`sweepDue`): the column it is due by, which alerts still escalate,
 * and what it does to one of them with its policy as it is now (fires what it must and says what to set).
 */
interface DueSweep {
  column: DueColumn;
  live: (alert: PagedAlert) => boolean;
  act: (alert: PagedAlert, policy: EscalationPolicy, fire: FireFn) => Promise<{ values: EscalationValues; fired: Fired; pagedNobody?: PagedNobodyReason | null; before?: SystemEvent }>;
}

type FireFn = (alert: PagedAlert, policy: EscalationPolicy, level: number, repeat: boolean) => Promise<Fired>;

export interface EngineDeps {
  db: DB;
  dialect: Dialect;
  notifier: Notifier;
  /** Read when a link is made (the server may learn its address after start). */
  publicUrl: () => string;
  /** Pages handed to providers at once whose outcome is not written yet: at most what a crash can send twice. */
  sendsInFlight: number;
  /** More pages than this for a person and channel within a minute wait for a summary page (0: never). */
  stormLimit: number;
  bus: AlertBus;
  log?: { error(obj: object, msg: string): void };
}

/**
 * The escalation engine. An alert is inserted with escalation_state 'pending'; the start sweep finds its policy
 * (integration → client → tenant default) and fires level 1 in the same transaction, setting the next level's time
 * (`next_step_at`) and the overdue check (`overdue_check_at`, the priority's acknowledgement target) on the alert. Two
 * more sweeps fire what falls due, reading the policy as it is then. Every sweep works 500 alerts a transaction; the
 * pages it fires are jobs inserted already claimed by this worker and sent right after the commit
 * (`page-delivery.ts`). The decisions themselves are `escalation-plan.ts`'s.
 */
export function createEscalationEngine(deps: EngineDeps) {
  const { db, dialect } = deps;
  const delivery = createPageDelivery({ db, notifier: deps.notifier, publicUrl: deps.publicUrl, inFlight: deps.sendsInFlight, stormLimit: deps.stormLimit, announce: (marked) => announce(marked) });

  /**
   * Marks alerts whose escalation paged nobody (`marks`: alert ids per tenant and reason), in the transaction that
   * found it; returns them, for `announce` once committed.
   */
  async function markAll(trx: DB, marks: Map<string, { tenantId: string; reason: PagedNobodyReason; ids: string[] }>, at: string) {
    const marked: Array<{ tenantId: string; alert: MarkedAlert }> = [];
    for (const m of marks.values()) for (const alert of await markPagedNobody(trx, m.tenantId, m.ids, at, m.reason)) marked.push({ tenantId: m.tenantId, alert });
    return marked;
  }

  /** Open dashboards show the mark and count it: each marked alert is a change of its tenant's live stream. */
  const announce = (marked: Array<{ tenantId: string; alert: MarkedAlert }>) => {
    for (const { tenantId, alert: a } of marked) deps.bus.publish(tenantId, { kind: 'updated', id: a.id, status: a.status, priority: a.priority, dedupKey: a.dedup_key, updatedAt: a.updated_at });
  };

  /** Collects the alerts a transaction found to have paged nobody, by tenant and reason, for `markAll`. */
  const nobodyCollector = () => {
    const marks = new Map<string, { tenantId: string; reason: PagedNobodyReason; ids: string[] }>();
    const add = (alert: PagedAlert, reason: PagedNobodyReason | null | undefined) => {
      if (!reason) return;
      const key = `${alert.tenant_id}|${reason}`;
      (marks.get(key) ?? marks.set(key, { tenantId: alert.tenant_id, reason, ids: [] }).get(key)!).ids.push(alert.id);
    };
    return { marks, add };
  };

  /**
   * Stops the escalation of an alert the engine failed on alone; its timeline says why. Failing at the start (the
   * start sweep, or level 1 of an alert whose start was decided at insert), the alert paged nobody (its batch's pages
   * were undone with it) and is marked so.
   */
  async function giveUp(alert: PagedAlert, column: DueColumn | null, err: unknown, now: Date) {
    const values: EscalationValues = { escalation_state: 'stopped', next_step_at: null, overdue_check_at: null };
    const at = now.toISOString();
    const marked = await db.transaction().execute(async (trx) => {
      await setEscalationMany(trx, alert.tenant_id, [alert.id], values);
      await insertSystemEvents(trx, [{ tenantId: alert.tenant_id, alertId: alert.id, at, kind: 'unrouted', detail: { reason: PAGING_MSG.escalationFailed(err instanceof Error ? err.message : String(err)) } }]);
      const atStart = column === null || (column === 'next_step_at' && alert.escalation_level === 0);
      return atStart ? (await markPagedNobody(trx, alert.tenant_id, [alert.id], at, 'failed')).map((a) => ({ tenantId: alert.tenant_id, alert: a })) : [];
    });
    announce(marked);
    deps.log?.error({ err, alertId: alert.id, tenantId: alert.tenant_id, sweep: column ?? 'start' }, 'escalation stopped on an error');
  }

  /**
   * Fires levels within one transaction: who a level pages is read once per (policy, level) and each schedule's
   * on-call once, at `now`.
   */
  function firer(reader: DB, now: Date): FireFn {
    const onCall = new Map<string, OnCall | null>();
    const people = new Map<string, Array<{ id: string; display_name: string; email: string }>>();
    const rules = rulesReader(reader);
    const posts = levelPoster(reader, now, deps.publicUrl);
    return async (alert, policy, level, repeat) => {
      const key = `${alert.tenant_id}|${policy.id}|${level}`;
      let persons = people.get(key);
      if (!persons) {
        for (const scheduleId of levelSchedules(policy, level)) {
          const k = `${alert.tenant_id}|${scheduleId}`;
          if (!onCall.has(k)) onCall.set(k, await whoIsOnCall(reader, alert.tenant_id, scheduleId, now));
        }
        const ids = levelPeople(policy, level, (scheduleId) => onCall.get(`${alert.tenant_id}|${scheduleId}`));
        persons = await listActiveMemberAccounts(reader, alert.tenant_id, ids);
        people.set(key, persons);
      }
      const plan = planFire(policy, level, repeat, now);
      const planned = pagesOf(persons.map((p) => p.id), plan).map((x) => ({ ...x, tenantId: alert.tenant_id, alertId: alert.id, step: plan.step, level }));
      // Each person's notification rules say when each of the level's channels pages them (issue 27).
      const pages = applyRules(planned, await rules(persons.map((p) => p.id)));
      const names = persons.map((x) => x.display_name || x.email);
      const event: SystemEvent = { tenantId: alert.tenant_id, alertId: alert.id, at: now.toISOString(), kind: 'escalated', detail: { level, repeat, policyName: policy.name, names } };
      // Issue 29: the level's destinations (and those subscribed to alert.escalated) get a post, in this transaction.
      await posts({ tenantId: alert.tenant_id, alertId: alert.id, level, repeat, policy });
      return { pages, event, nextAt: plan.nextAt };
    };
  }

  /** Inserts a transaction's pages as jobs claimed by this worker; returns the claimed rows, to adopt after the commit. */
  const insertPages = async (trx: DB, pages: Page[], now: Date, claim: WorkerClaim | undefined) => {
    // Pages a person's rules delay are jobs due later (not claimed: any worker runs them when due).
    const split = splitDelayed(pages, now);
    return (await insertJobs(trx, [...delivery.jobsFor(split.now, now), ...split.later], now, claim ?? null)).claimed;
  };

  /**
   * Subscribers hear of every new alert that matches them, once, whatever the escalation does; but a person level 1
   * already pages at this start (`paged`, any channel, delayed by their rules or not) gets no subscription page too
   * (issue 27: one page per step for one alert however many targets name them).
   */
  async function subscriberPages(trx: DB, alerts: PagedAlert[], paged: readonly Page[]): Promise<Page[]> {
    const pagedAlready = new Set(paged.map((p) => `${p.alertId}|${p.userId}`));
    const tagsOf = (a: PagedAlert) => {
      const tags = parseJson<unknown>(a.tags, []);
      return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
    };
    const subscribers = await findSubscribersOfMany(trx, alerts.map((a) => ({ id: a.id, tenantId: a.tenant_id, clientId: a.client_id, priority: a.priority, tags: tagsOf(a) })));
    return alerts.flatMap((a) =>
      (subscribers.get(a.id) ?? [])
        .filter((userId) => !pagedAlready.has(`${a.id}|${userId}`))
        .flatMap((userId) => (['email', 'push', 'sms'] as const).map((channel) => ({ tenantId: a.tenant_id, alertId: a.id, userId, channel, step: 'subscription', level: null }))),
    );
  }

  /** Starts the escalation of up to 500 pending alerts in one transaction; returns how many it took. */
  async function startBatch(now: Date, claim: WorkerClaim | undefined, limit: number, locked: (alerts: PagedAlert[]) => void): Promise<number> {
    const at = now.toISOString();
    const { started, claimed, alerts, marked, overdue } = await db.transaction().execute(async (trx) => {
      const alerts = await unsafeLockPendingAlerts(trx, dialect, limit);
      locked(alerts);
      if (alerts.length === 0) return { started: 0, claimed: [], alerts, marked: [], overdue: [] };
      // Snoozed before its escalation started (issue 31): nobody hears of it until the snooze ends, subscribers included.
      const snoozed = (a: PagedAlert) => a.snoozed_until !== null && a.snoozed_until > at;
      const pages: Page[] = [];
      const events: SystemEvent[] = [];
      const updates: EscalationStart[] = [];
      // Started past its target (the start waited): level 1's pages stand for the overdue re-page, as at a step.
      const overdue: PagedAlert[] = [];
      const { marks: nobody, add: pagedNobody } = nobodyCollector();
      const fire = firer(trx, now);
      const policyOf = startPolicies(trx);
      for (const alert of alerts) {
        // A routing rule's policy governs (issue 28); gone, the usual order applies and the timeline says so.
        const { policy, fellBack } = await policyOf(alert);
        const plan = planStart(alert, policy, now);
        if (fellBack && plan.kind !== 'stopped') events.push(rulePolicyGone(alert, plan, at));
        const base = { id: alert.id, tenantId: alert.tenant_id, policyId: alert.escalation_policy_id, level: alert.escalation_level, nextStepAt: null, overdueCheckAt: null };
        if (plan.kind === 'stopped') updates.push({ ...base, state: 'stopped' });
        else if (plan.kind === 'unrouted') {
          // The timeline says why from the columns (`none`, with or without a policy), as for a start decided at insert.
          updates.push({ ...base, state: 'none', policyId: plan.policyId });
          pagedNobody(alert, pagedNobodyAtStart(plan, 0));
        } else if (snoozed(alert)) {
          updates.push({ ...base, state: 'running', policyId: plan.policyId, level: 0, nextStepAt: alert.snoozed_until, overdueCheckAt: null });
        } else {
          const level1 = await fire(alert, policy!, 1, false);
          const check = plan.overdueCheckAt.toISOString();
          const overdueNow = overdueFallsWithStep({ overdue_check_at: check }, now);
          if (overdueNow) overdue.push(alert);
          updates.push({ ...base, state: 'running', policyId: plan.policyId, level: 1, nextStepAt: level1.nextAt?.toISOString() ?? null, overdueCheckAt: overdueNow ? null : check });
          events.push(level1.event);
          pages.push(...level1.pages);
          // Level 1 named nobody who can be paged: marked, and the escalation goes on (a later level may page someone).
          pagedNobody(alert, pagedNobodyAtStart(plan, level1.pages.length));
        }
      }
      // After level 1, so a subscriber it pages already is not paged twice.
      pages.push(...(await subscriberPages(trx, alerts.filter((a) => !snoozed(a)), pages)));
      await setEscalationEach(trx, updates);
      for (const [tenantId, list] of groupBy(overdue, (a) => a.tenant_id)) await setEscalationMany(trx, tenantId, list.map((a) => a.id), { overdue_at: at });
      await insertSystemEvents(trx, events);
      const marked = await markAll(trx, nobody, at);
      return { started: alerts.length, claimed: await insertPages(trx, pages, now, claim), alerts, marked, overdue };
    });
    delivery.adopt(claim, claimed, alerts);
    announce(marked);
    publishOverdue(overdue, at);
    return started;
  }

  const startPending = (now: Date, claim?: WorkerClaim) => isolating<PagedAlert>(START_BATCH, (limit, locked) => startBatch(now, claim, limit, locked), (alert, err) => giveUp(alert, null, err, now));

  /**
   * One sweep of the escalation work kept on the alerts (`column`): up to 500 due alerts are locked; one no longer
   * `live`, or whose policy is gone, has `column` cleared (a deleted policy stops the escalations it governed); every
   * other one goes to `act` with its policy as it is now. Alerts given the same values are written by one statement.
   */
  async function sweepBatch(now: Date, claim: WorkerClaim | undefined, { column, live, act }: DueSweep, limit: number, locked: (alerts: PagedAlert[]) => void) {
    const { found, claimed, acted, marked } = await db.transaction().execute(async (trx) => {
      const alerts = await (column === 'next_step_at' ? unsafeLockDueSteps : unsafeLockDueOverdueChecks)(trx, dialect, now.toISOString(), limit);
      locked(alerts);
      if (alerts.length === 0) return { found: 0, claimed: [], acted: [] as PagedAlert[], marked: [] };
      const { marks, add: pagedNobody } = nobodyCollector();
      const policies = await policiesByIds(trx, alerts.filter(live).map((a) => a.escalation_policy_id!));
      const fire = firer(trx, now);
      const sets = new Map<string, { tenantId: string; values: EscalationValues; ids: string[] }>();
      const set = (tenantId: string, values: EscalationValues, id: string) => {
        const key = `${tenantId}|${JSON.stringify(values)}`;
        (sets.get(key) ?? sets.set(key, { tenantId, values, ids: [] }).get(key)!).ids.push(id);
      };
      const events: SystemEvent[] = [];
      const pages: Page[] = [];
      const acted: PagedAlert[] = [];
      for (const alert of alerts) {
        const found = live(alert) ? policies.get(alert.escalation_policy_id!) : undefined;
        if (!found || found.tenantId !== alert.tenant_id) {
          set(alert.tenant_id, live(alert) ? { [column]: null, escalation_state: 'stopped' } : { [column]: null }, alert.id);
          continue;
        }
        const done = await act(alert, found.policy, fire);
        set(alert.tenant_id, done.values, alert.id);
        pagedNobody(alert, done.pagedNobody);
        if (done.before) events.push(done.before);
        events.push(done.fired.event);
        pages.push(...done.fired.pages);
        acted.push(alert);
      }
      for (const u of sets.values()) await setEscalationMany(trx, u.tenantId, u.ids, u.values);
      await insertSystemEvents(trx, events);
      const marked = await markAll(trx, marks, now.toISOString());
      return { found: alerts.length, claimed: await insertPages(trx, pages, now, claim), acted, marked };
    });
    delivery.adopt(claim, claimed, acted);
    announce(marked);
    return { found, acted };
  }

  /** Every due alert of a sweep, a batch at a time (one alert that fails alone is given up); returns those acted on. */
  async function sweepDue(now: Date, claim: WorkerClaim | undefined, sweep: DueSweep): Promise<{ found: number; acted: PagedAlert[] }> {
    // Every pass of every worker asks: one look-up when nothing is due, no transaction.
    if (!(await unsafeAnyDue(db, sweep.column, now.toISOString()))) return { found: 0, acted: [] };
    const acted: PagedAlert[] = [];
    const found = await isolating<PagedAlert>(
      START_BATCH,
      async (limit, locked) => {
        const batch = await sweepBatch(now, claim, sweep, limit, locked);
        acted.push(...batch.acted);
        return batch.found;
      },
      (alert, err) => giveUp(alert, sweep.column, err, now),
    );
    return { found, acted };
  }

  /**
   * Fires the next level of the escalations whose `next_step_at` is due. An overdue check due as well is done by it
   * (`overdueFallsWithStep`): the alert is marked overdue and the level just paged is not paged again at once.
   */
  async function checkSteps(now: Date, claim?: WorkerClaim): Promise<number> {
    const { found, acted } = await sweepDue(now, claim, {
      column: 'next_step_at',
      live: hasNextLevel,
      act: async (alert, policy, fire) => {
        const level = alert.escalation_level + 1;
        const fired = await fire(alert, policy, level, false);
        // Level 1 of a start decided at insert: naming nobody who can be paged is marked, as the start sweep does.
        const pagedNobody = level === 1 && fired.pages.length === 0 ? 'nobody_on_level' : null;
        const values: EscalationValues = { escalation_level: level, next_step_at: fired.nextAt?.toISOString() ?? null };
        if (overdueFallsWithStep(alert, now)) Object.assign(values, { overdue_at: now.toISOString(), overdue_check_at: null });
        if (!isEndOfHold(alert)) return { values, fired, pagedNobody };
        // The end of a hold (a maintenance window, a snooze): the timeline says so, and the overdue check starts now.
        values.overdue_check_at = overdueAfterHold(policy, alert.priority, now)?.toISOString() ?? null;
        const reason = alert.snoozed_until !== null ? 'snooze' : 'maintenance';
        return { values, fired, pagedNobody, before: { tenantId: alert.tenant_id, alertId: alert.id, at: now.toISOString(), kind: 'released', detail: { reason } } };
      },
    });
    publishOverdue(acted.filter((a) => overdueFallsWithStep(a, now)), now.toISOString());
    return found;
  }

  /** Open dashboards show the overdue mark: each alert marked is a change of its tenant's live stream. */
  const publishOverdue = (alerts: PagedAlert[], at: string) => {
    for (const a of alerts) deps.bus.publish(a.tenant_id, { kind: 'updated', id: a.id, status: 'new', priority: a.priority, dedupKey: null, updatedAt: at });
  };

  /**
   * An alert still unacknowledged past its priority's target is marked overdue (its `overdue_at`, which the timeline
   * shows) and the level paged last is paged once more.
   */
  async function checkOverdue(now: Date, claim?: WorkerClaim): Promise<number> {
    const at = now.toISOString();
    const { found, acted } = await sweepDue(now, claim, {
      column: 'overdue_check_at',
      live: isRunning,
      act: async (alert, policy, fire) => ({ values: { overdue_at: at, overdue_check_at: null }, fired: await fire(alert, policy, overdueLevel(alert), true) }),
    });
    publishOverdue(acted, at);
    return found;
  }

  return { startPending, checkSteps, checkOverdue, pagesHandler: delivery.handler };
}
