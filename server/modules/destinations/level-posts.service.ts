import { DESTINATION_MSG } from '../../../contract/destinations.ts';
import { LEVELS, type EscalationPolicy, type EscalationPolicyInput } from '../../../contract/escalation.ts';
import type { DB } from '../../db/database.ts';
import type { DestinationDeliveriesTable, DestinationsTable } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { getAlertDetail } from '../alerts/alerts.service.ts';
import { alertPayload, ESCALATED_EVENT, matches, messageIdOf, newDelivery, queueDeliveries } from './destination-delivery.ts';
import * as repo from './destinations.repository.ts';

/** A level the escalation engine fires for an alert (issue 29: "post to #noc-globex at level 1"). */
export interface LevelFiring {
  tenantId: string;
  alertId: string;
  level: number;
  /** An overdue re-page of a level already fired: no post, no event. */
  repeat: boolean;
  /** The policy as the engine read it: the level's `destinationIds` not (or no longer) enabled destinations of the alert's tenant are skipped. */
  policy: EscalationPolicy;
}

/**
 * The posts of the levels fired in one escalation transaction (`trx`): each destination the level names, and from
 * level 2 on each one subscribed to `alert.escalated` whose filter matches, gets one `alert.escalated` delivery with
 * the level, written in the transaction with its first attempt's job (the worker sends it after the commit, through
 * the one delivery path: retries, log, address guard). A tenant's destinations are read once per transaction. The
 * engine fires no level while an alert is held (maintenance, snooze) or once acknowledged; a post whose turn comes
 * after that is not sent (destination-delivery.ts).
 */
export function levelPoster(trx: DB, now: Date, publicUrl: () => string) {
  const byTenant = new Map<string, Promise<DestinationsTable[]>>();
  const at = now.toISOString();
  return async (f: LevelFiring): Promise<number> => {
    if (f.repeat) return 0;
    const named = new Set(f.policy[LEVELS[f.level - 1]!]?.destinationIds ?? []);
    if (named.size === 0 && f.level < 2) return 0;
    if (!byTenant.has(f.tenantId)) byTenant.set(f.tenantId, repo.listEnabledDestinations(trx, f.tenantId));
    const candidates = (await byTenant.get(f.tenantId)!).filter((d) => named.has(d.id) || (f.level >= 2 && (JSON.parse(d.events) as string[]).includes(ESCALATED_EVENT)));
    if (candidates.length === 0) return 0;
    const { alert } = await getAlertDetail(trx, f.tenantId, f.alertId);
    const base = alertPayload(ESCALATED_EVENT, alert, at, publicUrl());
    const payload = { ...base, data: { ...base.data, escalation: { level: f.level, policyId: f.policy.id, policyName: f.policy.name } } };
    // One message per alert, level and firing: a destination both named and subscribed gets it once.
    const messageId = messageIdOf(`${f.tenantId}:${f.alertId}:${ESCALATED_EVENT}:${f.level}:${at}`);
    const rows: DestinationDeliveriesTable[] = candidates
      .filter((d) => named.has(d.id) || matches(d, ESCALATED_EVENT, alert))
      .map((d) => newDelivery(f.tenantId, d.id, ESCALATED_EVENT, messageId, payload, at));
    return queueDeliveries(trx, rows, now);
  };
}

/**
 * 400 naming `level_N.destinationIds` unless every destination a policy's levels name is one of the tenant's (a
 * deleted one, or another tenant's, is refused like an unknown one).
 */
export async function checkLevelDestinations(db: DB, tenantId: string, input: Pick<EscalationPolicyInput, (typeof LEVELS)[number]>) {
  const wanted = [...new Set(LEVELS.flatMap((l) => input[l]?.destinationIds ?? []))];
  if (wanted.length === 0) return;
  const known = new Set((await repo.listDestinations(db, tenantId)).map((d) => d.id));
  const fields: Record<string, string> = {};
  for (const level of LEVELS) if ((input[level]?.destinationIds ?? []).some((id) => !known.has(id))) fields[`${level}.destinationIds`] = DESTINATION_MSG.levelDestinationsUnknown;
  if (Object.keys(fields).length) throw badRequest(DESTINATION_MSG.levelDestinationsUnknown, fields);
}
