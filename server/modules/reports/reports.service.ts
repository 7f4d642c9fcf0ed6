import { IANAZone } from 'luxon';
import type { AlertPriority } from '../../../contract/alerts.ts';
import { REPORT_LIMITS, REPORT_MSG, reportBound, type ReportSummary, type ReportSummaryQuery } from '../../../contract/reports.ts';
import type { DB, Dialect } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { listPolicies } from '../escalation/escalation-policies.service.ts';
import { maintenanceDone } from '../maintenance/maintenance.service.ts';
import { FALLBACK_TIME_ZONE } from '../users/users.service.ts';
import { byClient, byPriority, combine, hourOfWeek, targetPairs, type GroupRow, type TargetPair } from './report-figures.ts';
import { withPeriodSum } from './report-rollups.ts';
import { tallyFacts, tallyOf, type Tally } from './report-tally.ts';
import * as repo from './reports.repository.ts';
import { authorizeReports } from './reports.policy.ts';

export interface ReportDeps {
  db: DB;
  dialect: Dialect;
}

/**
 * The zone of the hour-of-week figures: the one asked for, else the requester's profile zone, else UTC. A zone asked
 * for that this runtime does not know is refused (400 naming `timeZone`); a stored one that became unknown falls back.
 */
function reportZone(ctx: TenantContext, asked: string | undefined) {
  if (asked !== undefined) {
    if (!IANAZone.isValidZone(asked)) throw badRequest(REPORT_MSG.badTimeZone, { timeZone: REPORT_MSG.badTimeZone });
    return asked;
  }
  const own = ctx.user.time_zone;
  return own && IANAZone.isValidZone(own) ? own : FALLBACK_TIME_ZONE;
}

/**
 * The summary of the alerts the tenant (or one of its clients) opened in [from, to). Acknowledgement time runs from
 * opening to the first acknowledgement: an alert's `acknowledged_at` is written only by the move out of `new` (a
 * person, an acknowledge link or the monitoring tool; a second acknowledgement finds the alert no longer new and
 * changes nothing) and nothing moves an alert back to `new` (a trigger after resolution opens a new alert), so it is
 * the first one. Alerts never acknowledged are counted apart, not as zero.
 */
export async function reportSummary(deps: ReportDeps, ctx: TenantContext, q: ReportSummaryQuery, now = new Date()): Promise<ReportSummary> {
  authorizeReports(ctx);
  const tenantId = ctx.tenant.id;
  const zone = reportZone(ctx, q.timeZone);
  const [client, policies] = await Promise.all([q.clientId === undefined ? null : repo.findClientName(deps.db, tenantId, q.clientId), listPolicies(deps.db, ctx)]);
  if (q.clientId !== undefined && !client) throw notFound(REPORT_MSG.clientNotFound);
  const clientName = client?.name ?? null;
  const scope: repo.ReportScope = { tenantId, from: reportBound(q.from)!, to: reportBound(q.to)!, clientId: q.clientId ?? null };
  const pairs = targetPairs(policies.items);
  // A client's alerts are read once; the whole tenant's period is its stored rollups plus its unsettled alerts.
  const tally = await reportTally(deps, scope, pairs, now, scope.clientId === null ? 'rollups' : 'facts');
  const [names, byResponder, done] = await Promise.all([
    repo.clientNames(deps.db, tenantId, [...new Set(tally.groups.map((g) => g.clientId).filter((id): id is string => id !== null))]),
    presentResponders(deps.db, tally.responders),
    maintenanceDone(deps.db, ctx.tenant.id, scope.clientId, scope.from, scope.to, now),
  ]);
  // Rollups summed before a client was deleted still name it: its alerts are of no client now.
  const groups = withoutDeletedClients(tally.groups, names);
  const { p90Tta, p90Ttr, quarterHours, sources, issues, maintenance } = tally;
  const overall = combine(groups);
  return {
    from: scope.from,
    to: scope.to,
    clientId: scope.clientId,
    clientName,
    timeZone: zone,
    generatedAt: now.toISOString(),
    tenantName: ctx.tenant.name,
    tenantLogoUrl: ctx.tenant.logo_url,
    ...overall,
    p90TtaSeconds: p90Tta,
    p90TtrSeconds: p90Ttr,
    byPriority: byPriority(groups),
    byClient: byClient(groups, names),
    byHourOfWeek: hourOfWeek(quarterHours, zone),
    topSources: sources,
    topIssues: issues,
    byResponder,
    // Alerts opened inside a maintenance window of their scope: stored and counted, paged nobody while it lasted.
    maintenanceSuppressed: maintenance,
    maintenanceDone: done,
  };
}

/**
 * The sums behind a summary, two ways to the same figures (report-tally.ts): `facts`, the scope's alerts read once
 * (a client's few), or `rollups`, the whole tenant's stored sums of settled alerts plus its unsettled ones read live
 * (report-rollups.ts). Exported for the test that holds the two to each other.
 */
export async function reportTally(deps: ReportDeps, scope: repo.ReportScope, pairs: readonly TargetPair[], now: Date, how: 'rollups' | 'facts'): Promise<Tally> {
  const limits = { sources: REPORT_LIMITS.topSources, issues: REPORT_LIMITS.topIssues };
  if (how === 'facts' || scope.clientId !== null) return tallyFacts(await repo.scopeFacts(deps.db, scope), pairs, now, limits);
  return withPeriodSum(deps, scope.tenantId, scope.from, scope.to, pairs, now, (sum, targets) => tallyOf(sum, targets, now.getTime(), limits));
}

/** Groups of clients that no longer exist (not in `names`) become groups of no client. */
function withoutDeletedClients(groups: readonly GroupRow[], names: ReadonlyMap<string, string>): GroupRow[] {
  if (groups.every((g) => g.clientId === null || names.has(g.clientId))) return [...groups];
  const out = new Map<string, GroupRow>();
  for (const g of groups) {
    const clientId = g.clientId !== null && names.has(g.clientId) ? g.clientId : null;
    const key = `${clientId ?? ''}\u0000${g.priority}`;
    const had = out.get(key);
    if (!had) {
      out.set(key, { ...g, clientId });
      continue;
    }
    const min = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
    const max = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
    out.set(key, {
      clientId,
      priority: g.priority,
      opened: had.opened + g.opened,
      acknowledged: had.acknowledged + g.acknowledged,
      ttaSum: had.ttaSum + g.ttaSum,
      resolved: had.resolved + g.resolved,
      ttrSum: had.ttrSum + g.ttrSum,
      eligible: had.eligible + g.eligible,
      within: had.within + g.within,
      targetMin: min(had.targetMin, g.targetMin),
      targetMax: max(had.targetMax, g.targetMax),
    });
  }
  return [...out.values()];
}

/** Acknowledgements and resolutions per person, most first; the monitoring tools' together under one line. */
async function presentResponders(db: DB, counts: Tally['responders']) {
  const per = new Map<string | null, { acknowledged: number; resolved: number }>();
  const entry = (id: string | null) => {
    let e = per.get(id);
    if (!e) per.set(id, (e = { acknowledged: 0, resolved: 0 }));
    return e;
  };
  for (const a of counts.acks) entry(a.userId).acknowledged += a.n;
  for (const r of counts.resolutions) entry(r.userId).resolved += r.n;
  const names = await repo.responderNames(db, [...per.keys()].filter((id): id is string => id !== null));
  return [...per]
    .map(([userId, c]) => ({ userId, name: userId === null ? REPORT_MSG.integrationResponder : (names.get(userId) ?? REPORT_MSG.formerMember), ...c }))
    .sort((a, b) => b.acknowledged + b.resolved - (a.acknowledged + a.resolved) || a.name.localeCompare(b.name));
}

/** What the weekly digest says of one tenant's period: the mail goes to its members, who may see the dashboard's figures. */
export interface DigestFigures {
  opened: number;
  byPriority: Array<{ priority: AlertPriority; opened: number }>;
  mttaSeconds: number | null;
  mttrSeconds: number | null;
  neverAcknowledged: number;
  topClients: Array<{ name: string; opened: number }>;
  pagedNobody: number;
}

/** The digest's figures of the alerts a tenant opened in [from, to): counts, response times, its busiest clients. */
export async function digestFigures(deps: ReportDeps, tenantId: string, from: string, to: string, now: Date, topClients = 5): Promise<DigestFigures> {
  const scope: repo.ReportScope = { tenantId, from, to, clientId: null };
  // A week's alerts read once and summed like a report's (no targets: the digest shows none).
  const [facts, pagedNobody] = await Promise.all([repo.scopeFacts(deps.db, scope), repo.pagedNobodyCount(deps.db, scope)]);
  const { groups } = tallyFacts(facts, [], now, { sources: 0, issues: 0 });
  const overall = combine(groups);
  const clients = byClient(groups, new Map()).filter((c) => c.clientId !== null).slice(0, topClients);
  const names = await repo.clientNames(deps.db, tenantId, clients.map((c) => c.clientId!));
  return {
    opened: overall.opened,
    byPriority: byPriority(groups).map((p) => ({ priority: p.priority, opened: p.opened })),
    mttaSeconds: overall.mttaSeconds,
    mttrSeconds: overall.mttrSeconds,
    neverAcknowledged: overall.neverAcknowledged,
    topClients: clients.map((c) => ({ name: names.get(c.clientId!) ?? REPORT_MSG.deletedClient, opened: c.opened })),
    pagedNobody,
  };
}
