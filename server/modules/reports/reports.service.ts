import { IANAZone } from 'luxon';
import type { AlertPriority } from '../../../contract/alerts.ts';
import { REPORT_LIMITS, REPORT_MSG, reportBound, type ReportSummary, type ReportSummaryQuery } from '../../../contract/reports.ts';
import type { DB, Dialect } from '../../db/database.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { listPolicies } from '../escalation/escalation-policies.service.ts';
import { maintenanceDone } from '../maintenance/maintenance.service.ts';
import { FALLBACK_TIME_ZONE } from '../users/users.service.ts';
import { byClient, byPriority, combine, hourOfWeek, nearestRankOffset, targetPairs, type TargetPair } from './report-figures.ts';
import { tallyFacts, type Tally } from './report-tally.ts';
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
  // A client's alerts are read once and summed here; the whole tenant's are summed by the database.
  const { groups, p90Tta, p90Ttr, quarterHours, sources, issues, responders, maintenance } = await reportTally(deps, scope, pairs, now, scope.clientId === null ? 'sql' : 'facts');
  const overall = combine(groups);
  const [names, byResponder, done] = await Promise.all([
    repo.clientNames(deps.db, tenantId, [...new Set(groups.map((g) => g.clientId).filter((id): id is string => id !== null))]),
    presentResponders(deps.db, responders),
    maintenanceDone(deps.db, ctx.tenant.id, scope.clientId, scope.from, scope.to, now),
  ]);
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
    p90TtaSeconds: p90Tta === null ? null : Math.round(p90Tta),
    p90TtrSeconds: p90Ttr === null ? null : Math.round(p90Ttr),
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
 * The sums behind a summary, two ways to the same figures: `sql`, one aggregate per figure (the database sums; the
 * whole tenant's many alerts never leave it), or `facts`, the scope's alerts read once and summed by report-tally.ts
 * (a client's few: one look-up per alert rather than one per alert and figure). Exported for the test that holds the
 * two to each other.
 */
export async function reportTally(deps: ReportDeps, scope: repo.ReportScope, pairs: readonly TargetPair[], now: Date, how: 'sql' | 'facts'): Promise<Tally> {
  const limits = { sources: REPORT_LIMITS.topSources, issues: REPORT_LIMITS.topIssues };
  if (how === 'facts') return tallyFacts(await repo.scopeFacts(deps.db, scope), pairs, now, limits, (n) => nearestRankOffset(n, 0.9));
  const groups = await repo.groupFigures(deps.db, deps.dialect, scope, pairs, now);
  const overall = combine(groups);
  const ttaRank = nearestRankOffset(overall.acknowledged, 0.9);
  const ttrRank = nearestRankOffset(overall.resolved, 0.9);
  const [p90Tta, p90Ttr, quarterHours, sources, issues, responders, maintenance] = await Promise.all([
    ttaRank === null ? null : repo.durationAtRank(deps.db, deps.dialect, scope, 'tta', ttaRank),
    ttrRank === null ? null : repo.durationAtRank(deps.db, deps.dialect, scope, 'ttr', ttrRank),
    overall.opened ? repo.openedPerQuarterHour(deps.db, scope) : [],
    overall.opened ? repo.topSources(deps.db, scope, limits.sources) : [],
    overall.opened ? repo.topTitles(deps.db, scope, limits.issues) : [],
    overall.opened ? repo.responderCounts(deps.db, scope) : { acks: [], resolutions: [] },
    overall.opened ? repo.maintenanceCount(deps.db, scope) : 0,
  ]);
  return { groups, p90Tta, p90Ttr, quarterHours, sources, issues, responders, maintenance };
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
  const [groups, pagedNobody] = await Promise.all([repo.groupFigures(deps.db, deps.dialect, scope, [], now), repo.pagedNobodyCount(deps.db, scope)]);
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
