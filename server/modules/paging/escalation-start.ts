import type { DB } from '../../db/database.ts';
import type { AlertsTable } from '../../db/schema.ts';
import type { EscalationPolicy } from '../../../contract/escalation.ts';
import { policyForAlert, tenantPolicy } from '../escalation/escalation-policies.service.ts';
import { currentWindowSpecs } from '../maintenance/maintenance.service.ts';
import { MaintenanceCalendar } from '../maintenance/maintenance-windows.ts';
import { startAtInsert, type StartPlan } from './escalation-plan.ts';
import { tenantHasSubscriptions, type PagedAlert, type SystemEvent } from './paging.repository.ts';

/** The escalation columns a new alert is inserted with. */
export type StartColumns = Pick<AlertsTable, 'escalation_state' | 'escalation_policy_id' | 'escalation_level' | 'next_step_at' | 'overdue_check_at' | 'paged_nobody_at' | 'paged_nobody_reason'>;

/** What the decision reads of a row about to be inserted. */
type NewAlert = Pick<AlertsTable, 'tenant_id' | 'integration_id' | 'client_id' | 'priority' | 'created_at'> & Pick<AlertsTable, 'maintenance_window_id' | 'escalation_policy_id'>;

/**
 * Decides the escalation columns of rows about to be inserted, in place; a row it cannot decide stays `pending`. What
 * it must read it reads on `on`: the connection of the caller's transaction (SQLite has only the one).
 */
export type DecideStart = (rows: Array<NewAlert & Partial<StartColumns>>, on?: DB) => Promise<void>;

/** A tenant's cached routing: whether anyone subscribes, and the governing policy per (integration, client). */
interface TenantRouting {
  loadedAt: number;
  subscriptions: boolean | null;
  /** Its maintenance windows (issue 31), read once with the rest. */
  maintenance: MaintenanceCalendar | null;
  policies: Map<string, EscalationPolicy | null>;
}

/** How long a tenant's routing is trusted without hearing of a change (a safety net under the bus's invalidations). */
export const ROUTING_TTL_MS = 30_000;
const MAX_TENANTS = 10_000;
const MAX_KEYS_PER_TENANT = 5_000;

/**
 * Escalation routing decided at insert time (issue 26): which policy governs a new alert, cached per tenant and
 * (integration, client), so ingestion writes each alert once with its escalation state and level 1 due, and an alert
 * no policy applies to costs nothing but its insert. Every write that changes routing (a policy, the policy of an
 * integration or client, someone's subscriptions) invalidates the tenant on every instance through the bus; a
 * reconnected bus (which may have missed some) clears everything, and entries expire after ROUTING_TTL_MS anyway.
 *
 * Tenants where someone subscribes to alerts keep the start sweep (`pending`): it pages the subscribers with level 1.
 * A look-up that fails (the database away) leaves its rows `pending` too: the start sweep decides them later, so
 * nothing is lost and ingestion does not fail for it. Only answers are cached, never a look-up in flight: a caller
 * inside a transaction must not wait for a query queued behind its own connection (SQLite has one).
 */
export class EscalationRouting {
  private tenants = new Map<string, TenantRouting>();

  constructor(
    private readonly db: DB,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Forgets the routing of these tenants (null: of every tenant). */
  invalidate(tenantIds: string[] | null) {
    if (tenantIds === null) this.tenants.clear();
    else for (const id of tenantIds) this.tenants.delete(id);
  }

  private tenant(tenantId: string): TenantRouting {
    const at = this.clock();
    const hit = this.tenants.get(tenantId);
    if (hit && at - hit.loadedAt < ROUTING_TTL_MS) return hit;
    if (this.tenants.size >= MAX_TENANTS) this.tenants.clear();
    const fresh: TenantRouting = { loadedAt: at, subscriptions: null, maintenance: null, policies: new Map() };
    this.tenants.set(tenantId, fresh);
    return fresh;
  }

  readonly decide: DecideStart = async (rows, on = this.db) => {
    for (const row of rows) {
      // Always a value: the insert writes the column whatever happens below.
      row.maintenance_window_id = null;
      try {
        const routing = this.tenant(row.tenant_id);
        routing.maintenance ??= new MaintenanceCalendar(await currentWindowSpecs(on, row.tenant_id, new Date(this.clock()).toISOString()));
        const hold = routing.maintenance.holdFor(row, Date.parse(row.created_at));
        routing.subscriptions ??= await tenantHasSubscriptions(on, row.tenant_id);
        // Held by a window, it pages nobody, subscribers included: decided here rather than by the start sweep.
        if (routing.subscriptions && !hold) continue;
        // A routing rule's policy (issue 28) comes on the row; one that is gone is left to the start sweep, which falls
        // back to the usual order and says so in the timeline.
        const wanted = row.escalation_policy_id ?? null;
        const key = wanted ? `rule:${wanted}` : `${row.integration_id ?? ''}|${row.client_id ?? ''}`;
        let policy = routing.policies.get(key);
        if (policy === undefined) {
          policy = wanted ? await tenantPolicy(on, row.tenant_id, wanted) : await policyForAlert(on, row.tenant_id, { integrationId: row.integration_id, clientId: row.client_id });
          if (routing.policies.size >= MAX_KEYS_PER_TENANT) routing.policies.clear();
          routing.policies.set(key, policy);
        }
        if (wanted && !policy) continue;
        Object.assign(row, columnsFor(row, policy, hold ? new Date(hold.until).toISOString() : null));
        row.maintenance_window_id = hold?.windowId ?? null;
      } catch {
        // Left pending: the start sweep decides it once the database answers.
      }
    }
  };
}

/** The columns of a decided start (escalation-plan.ts's `startAtInsert`). */
export function columnsFor(row: NewAlert, policy: EscalationPolicy | null, heldUntil: string | null = null): StartColumns {
  const s = startAtInsert(row, policy, heldUntil);
  return {
    escalation_state: s.state,
    escalation_policy_id: s.policyId,
    escalation_level: 0,
    next_step_at: s.nextStepAt,
    overdue_check_at: s.overdueCheckAt,
    paged_nobody_at: s.pagedNobody ? row.created_at : null,
    paged_nobody_reason: s.pagedNobody,
  };
}

/** The timeline's word when a routing rule's policy is gone (deleted since the rule named it). */
export const RULE_POLICY_GONE = "The escalation policy named by the integration's routing rule no longer exists: the integration's, client's or default policy applies instead.";

type StartingAlert = Pick<PagedAlert, 'id' | 'tenant_id' | 'integration_id' | 'client_id' | 'escalation_policy_id'>;

/**
 * The start sweep's policy choice within one transaction, each look-up made once: a pending alert carrying a routing
 * rule's policy (issue 28: its `escalation_policy_id`, set by ingestion) is governed by it while it is the tenant's;
 * when it is gone, the usual order (integration → client → default) applies and `fellBack` says so.
 */
export function startPolicies(trx: DB) {
  const found = new Map<string, Promise<EscalationPolicy | null>>();
  const once = (key: string, load: () => Promise<EscalationPolicy | null>) => found.get(key) ?? found.set(key, load()).get(key)!;
  return async (alert: StartingAlert): Promise<{ policy: EscalationPolicy | null; fellBack: boolean }> => {
    const wanted = alert.escalation_policy_id;
    const ruled = wanted ? await once(`${alert.tenant_id}|rule:${wanted}`, () => tenantPolicy(trx, alert.tenant_id, wanted)) : null;
    if (ruled) return { policy: ruled, fellBack: false };
    const key = `${alert.tenant_id}|${alert.integration_id ?? ''}|${alert.client_id ?? ''}`;
    const policy = await once(key, () => policyForAlert(trx, alert.tenant_id, { integrationId: alert.integration_id, clientId: alert.client_id }));
    return { policy, fellBack: !!wanted };
  };
}

/** The timeline entry of a start that fell back from a rule's gone policy (with why nobody was paged, if so). */
export function rulePolicyGone(alert: StartingAlert, plan: StartPlan, at: string): SystemEvent {
  const reason = plan.kind === 'unrouted' ? `${RULE_POLICY_GONE} ${plan.reason}` : RULE_POLICY_GONE;
  return { tenantId: alert.tenant_id, alertId: alert.id, at, kind: 'unrouted', detail: { reason } };
}
