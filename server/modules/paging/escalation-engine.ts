import { createHash, randomBytes } from 'node:crypto';
import type { DB, Dialect } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { JobsTable } from '../../db/schema.ts';
import type { AlertPriority } from '../../../contract/alerts.ts';
import type { EscalationChannel, EscalationPolicy, LaterLevel, Level1 } from '../../../contract/escalation.ts';
import { noTarget } from '../../../contract/escalation.ts';
import { PAGING_MSG } from '../../../contract/paging.ts';
import type { JobContext, JobHandler } from '../../jobs/job-worker.ts';
import { enqueueJobs, type NewJob } from '../../jobs/jobs.repository.ts';
import type { AlertBus } from '../alerts/alert-bus.ts';
import { findPolicy, toPolicy } from '../escalation/escalation-policies.repository.ts';
import { policyForAlert } from '../escalation/escalation-policies.service.ts';
import { findPreferences, listPushTargets, deletePushToken, toChannelPreferences } from '../profile/profile.repository.ts';
import { whoIsOnCall } from '../schedules/schedules.service.ts';
import { listActiveMemberAccounts } from '../members/members.repository.ts';
import {
  findPagedAlert,
  findSubscribers,
  finishAttempt,
  insertAckToken,
  insertSystemEvent,
  lockPendingAlerts,
  openAttempt,
  setEscalation,
  type PagedAlert,
} from './paging.repository.ts';
import { DeliveryError, type Transports } from './transports.ts';

export const JOB = { step: 'escalation.step', overdue: 'escalation.overdue', deliver: 'page.deliver' } as const;

/** How long an acknowledge link works. */
export const ACK_LINK_TTL_MS = 7 * 24 * 3600_000;

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

export interface EngineDeps {
  db: DB;
  dialect: Dialect;
  transports: Transports;
  /** Read when a link is made (the server may learn its address after start). */
  publicUrl: () => string;
  bus: AlertBus;
}

/**
 * The escalation engine (issue 11). An alert is inserted with escalation_state 'pending'; the sweep starts it:
 * the governing policy is found (integration → client → tenant default), level 1 is due now and the overdue check at
 * the priority's acknowledgement target. Each level's step, when it fires, reads the policy as it is then, pages its
 * people (users plus whoever is on call on its schedules) on each of the level's channels that the person can be
 * reached by, and schedules the next level. Acknowledge, resolve and close delete the alert's jobs in their own
 * transaction. Every page is a job and an attempt row unique per (alert, step, person, channel).
 */
export function createEscalationEngine(deps: EngineDeps) {
  const { db, dialect, transports } = deps;

  /** Starts the escalation of up to 200 pending alerts; returns how many it took. */
  async function startPending(now: Date): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const alerts = await lockPendingAlerts(trx, dialect, 200);
      for (const alert of alerts) await start(trx, alert, now);
      return alerts.length;
    });
  }

  async function start(trx: DB, alert: PagedAlert, now: Date) {
    const at = now.toISOString();
    const jobs: NewJob[] = [];
    // Subscribers hear of every new alert that matches them, once, whatever the escalation does.
    const tags = parseJson<unknown>(alert.tags, []);
    const subscribers = await findSubscribers(trx, alert.tenant_id, {
      clientId: alert.client_id,
      priority: alert.priority,
      tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
    });
    for (const userId of subscribers)
      for (const channel of ['email', 'push', 'sms'] as const) jobs.push(deliverJob({ tenantId: alert.tenant_id, alertId: alert.id, userId, channel, step: 'subscription', level: null }, now));

    if (alert.status !== 'new') {
      await setEscalation(trx, alert.tenant_id, alert.id, { escalation_state: 'stopped' });
      await enqueueJobs(trx, jobs, now);
      return;
    }
    const policy = await policyForAlert(trx, alert.tenant_id, { integrationId: alert.integration_id, clientId: alert.client_id });
    const target = policy ? policy.escalationTimes[alert.priority as AlertPriority] : null;
    if (!policy || noTarget(target)) {
      await setEscalation(trx, alert.tenant_id, alert.id, { escalation_state: 'none', escalation_policy_id: policy?.id ?? null });
      await insertSystemEvent(trx, {
        tenantId: alert.tenant_id,
        alertId: alert.id,
        at,
        kind: 'unrouted',
        detail: policy ? { reason: PAGING_MSG.noTargetForPriority(alert.priority), policyName: policy.name } : { reason: PAGING_MSG.noPolicy },
      });
      await enqueueJobs(trx, jobs, now);
      return;
    }
    await setEscalation(trx, alert.tenant_id, alert.id, { escalation_state: 'running', escalation_policy_id: policy.id, escalation_level: 0 });
    const created = new Date(alert.created_at);
    jobs.push(stepJob(alert, 1, now));
    jobs.push({
      kind: JOB.overdue,
      uniqueKey: `overdue:${alert.id}`,
      tenantId: alert.tenant_id,
      alertId: alert.id,
      dueAt: new Date(Math.max(created.getTime() + (target as number) * MINUTE, now.getTime())),
      payload: { tenantId: alert.tenant_id, alertId: alert.id, minutes: target },
    });
    await enqueueJobs(trx, jobs, now);
  }

  const stepJob = (alert: Pick<PagedAlert, 'id' | 'tenant_id'>, level: number, dueAt: Date, repeat = false): NewJob => ({
    kind: JOB.step,
    uniqueKey: `step:${alert.id}:${repeat ? 'repeat' : `L${level}`}`,
    tenantId: alert.tenant_id,
    alertId: alert.id,
    dueAt,
    payload: { tenantId: alert.tenant_id, alertId: alert.id, level, repeat },
  });

  const deliverJob = (p: DeliverPayload, dueAt: Date): NewJob => ({
    kind: JOB.deliver,
    uniqueKey: `page:${p.alertId}:${p.step}:${p.userId}:${p.channel}`,
    tenantId: p.tenantId,
    alertId: p.alertId,
    dueAt,
    payload: { ...p },
  });

  /** The alert and its policy when the escalation should still go on; null (and the state stopped) otherwise. */
  async function live(tenantId: string, alertId: string): Promise<{ alert: PagedAlert; policy: EscalationPolicy } | null> {
    const alert = await findPagedAlert(db, tenantId, alertId);
    if (!alert || alert.status !== 'new' || alert.escalation_state !== 'running' || !alert.escalation_policy_id) return null;
    const row = await findPolicy(db, tenantId, alert.escalation_policy_id);
    const policy = row ? toPolicy(row) : null;
    if (!policy) {
      await setEscalation(db, tenantId, alertId, { escalation_state: 'stopped' });
      return null;
    }
    return { alert, policy };
  }

  /** A level's people at `now`: its users and whoever is on call (primary and secondary) on its schedules. */
  async function peopleOf(tenantId: string, level: Level1 | LaterLevel, now: Date) {
    const ids = new Set(level.userIds);
    for (const scheduleId of level.scheduleIds) {
      const on = await whoIsOnCall(db, tenantId, scheduleId, now);
      if (on?.primary) ids.add(on.primary);
      if (on?.secondary) ids.add(on.secondary);
    }
    return listActiveMemberAccounts(db, tenantId, [...ids]);
  }

  const step: JobHandler = async (_job, { now, payload }) => {
    const { tenantId, alertId, level, repeat } = payload as { tenantId: string; alertId: string; level: number; repeat: boolean };
    const state = await live(tenantId, alertId);
    if (!state) return;
    const { alert, policy } = state;
    const config = policy[LEVEL_KEYS[level - 1]];
    const people = await peopleOf(tenantId, config, now);
    const stepName = repeat ? 'overdue' : `L${level}`;
    const jobs: NewJob[] = [];
    for (const person of people)
      for (const channel of config.notificationChannels) jobs.push(deliverJob({ tenantId, alertId, userId: person.id, channel, step: stepName, level }, now));
    const next = !repeat && level < 3 ? (policy[LEVEL_KEYS[level]] as LaterLevel) : null;
    if (next) jobs.push(stepJob(alert, level + 1, new Date(now.getTime() + next.timeAfterPrevious * MINUTE)));
    await db.transaction().execute(async (trx) => {
      if (!repeat) await setEscalation(trx, tenantId, alertId, { escalation_level: level });
      await insertSystemEvent(trx, {
        tenantId,
        alertId,
        at: now.toISOString(),
        kind: 'escalated',
        detail: { level, repeat, policyName: policy.name, names: people.map((p) => p.display_name || p.email) },
      });
      await enqueueJobs(trx, jobs, now);
    });
  };

  const overdue: JobHandler = async (_job, { now, payload }) => {
    const { tenantId, alertId, minutes } = payload as { tenantId: string; alertId: string; minutes: number };
    const state = await live(tenantId, alertId);
    if (!state) return;
    const at = now.toISOString();
    await db.transaction().execute(async (trx) => {
      await setEscalation(trx, tenantId, alertId, { overdue_at: at });
      await insertSystemEvent(trx, { tenantId, alertId, at, kind: 'overdue', detail: { minutes } });
      // The level paged last is paged once more (level 1 if none was paged yet).
      await enqueueJobs(trx, [stepJob(state.alert, Math.max(1, state.alert.escalation_level), now, true)], now);
    });
    deps.bus.publish(tenantId, { kind: 'updated', id: alertId, status: 'new', priority: state.alert.priority, dedupKey: null, updatedAt: at });
  };

  /** A new single-use acknowledge link for this person and alert. */
  async function ackLink(p: DeliverPayload, now: Date) {
    const token = randomBytes(16).toString('base64url');
    await insertAckToken(db, {
      token_hash: createHash('sha256').update(token).digest('hex'),
      tenant_id: p.tenantId,
      alert_id: p.alertId,
      user_id: p.userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ACK_LINK_TTL_MS).toISOString(),
    });
    return { token, url: `${deps.publicUrl()}/ack/${token}` };
  }

  /**
   * How to reach a person on a channel (their phone number, their browsers' push subscriptions), read once per
   * delivery; `why` says why they cannot be reached there, null when they can.
   */
  async function reach(p: DeliverPayload, alert: PagedAlert) {
    const prefs = toChannelPreferences(await findPreferences(db, p.userId));
    const targets = p.channel === 'push' && prefs.push.enabled ? await listPushTargets(db, p.userId) : [];
    const out = (why: string | null) => ({ why, phoneNumber: prefs.phoneNumber, targets });
    if (p.channel === 'email') return out(prefs.email.enabled && prefs.email.alertNotifications ? null : PAGING_MSG.emailOff);
    if (p.channel === 'push') return out(!prefs.push.enabled ? PAGING_MSG.pushOff : targets.length ? null : PAGING_MSG.noPushSubscription);
    if (!transports.sms) return out(PAGING_MSG.smsNotConfigured);
    if (!prefs.sms.enabled) return out(PAGING_MSG.smsOff);
    if (!prefs.sms.alertTypes.includes(alert.priority as AlertPriority)) return out(PAGING_MSG.smsPriorityOff(alert.priority));
    return out(prefs.phoneNumber ? null : PAGING_MSG.noPhoneNumber);
  }

  const deliver: JobHandler = async (_job: JobsTable, ctx: JobContext) => {
    const p = ctx.payload as unknown as DeliverPayload;
    const { now } = ctx;
    const at = () => now.toISOString();
    const alert = await findPagedAlert(db, p.tenantId, p.alertId);
    if (!alert) return;
    // An escalation page waits for nobody once the alert is acknowledged (its jobs were deleted, this one was running).
    if (p.step !== 'subscription' && alert.status !== 'new') return;
    const [member] = await listActiveMemberAccounts(db, p.tenantId, [p.userId]);
    if (!member) return;
    const { row, finished } = await openAttempt(db, { tenant_id: p.tenantId, alert_id: p.alertId, step: p.step, level: p.level, user_id: p.userId, channel: p.channel }, at());
    if (finished) return;
    const tries = Number(row.tries) + 1;
    const record = async (outcome: 'sent' | 'failed' | 'skipped', reason: string | null, providerId: string | null = null) => {
      await db.transaction().execute(async (trx) => {
        await finishAttempt(trx, row.id, { outcome, reason, provider_id: providerId, tries }, at());
        await insertSystemEvent(trx, {
          tenantId: p.tenantId,
          alertId: p.alertId,
          at: at(),
          kind: 'paged',
          detail: { channel: p.channel, outcome, reason, level: p.level, step: p.step, userId: p.userId, userName: member.display_name || member.email },
        });
      });
    };
    const contact = await reach(p, alert);
    const { why } = contact;
    // Subscriptions notify by every channel the person has on; a channel they have off is no news for the timeline.
    if (why && p.step === 'subscription') {
      await finishAttempt(db, row.id, { outcome: 'skipped', reason: why, tries }, at());
      return;
    }
    if (why) return record('skipped', why);
    try {
      const providerId = await send(p, alert, member, contact, now);
      await record('sent', null, providerId);
    } catch (err) {
      const e = err instanceof DeliveryError ? err : new DeliveryError((err as Error).message, false);
      if (!e.permanent && !ctx.finalAttempt) {
        await finishAttempt(db, row.id, { outcome: 'pending', reason: e.message, tries }, at());
        throw e;
      }
      await record('failed', e.message);
    }
  };

  async function send(
    p: DeliverPayload,
    alert: PagedAlert,
    member: { email: string; display_name: string },
    contact: Awaited<ReturnType<typeof reach>>,
    now: Date,
  ): Promise<string | null> {
    const link = await ackLink(p, now);
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
      for (const target of contact.targets) {
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
    return (await transports.sms!(contact.phoneNumber!, smsText(priority, alert.title, link.url))).providerId;
  }

  return { startPending, handlers: { [JOB.step]: step, [JOB.overdue]: overdue, [JOB.deliver]: deliver } as Record<string, JobHandler> };
}

/** At most 160 characters: priority, as much of the title as fits, the acknowledge link. */
export function smsText(priority: string, title: string, url: string) {
  const tail = ` Ack: ${url}`;
  const head = `[${priority}] `;
  const room = 160 - head.length - tail.length;
  const t = title.length > room ? `${title.slice(0, Math.max(0, room - 1))}…` : title;
  return `${head}${t}${tail}`.slice(0, 160);
}
