import type { FastifyInstance } from 'fastify';
import type { DB } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import { loadOnCallRows, overlapping, type OnCallOverride, type OnCallSchedule } from './schedules.repository.ts';

/**
 * What who-is-on-call reads (issue 27's speed goal: p95 ≤ 2 ms on PostgreSQL, where a round trip alone took most of
 * it), kept per tenant in memory: each schedule asked about (its computation columns, layers parsed), its overrides
 * from a day ago to 40 days ahead, and the tenant's active members. Forgotten on every instance (the bus's routing
 * invalidation, PostgreSQL NOTIFY) after any successful write to a tenant's schedules, overrides, "take the pager" or
 * approval requests (a shift swap's final approval writes its override), when someone loses access (a member removed,
 * a user or tenant deleted), and when the bus may have missed notices; anyway after TTL_MS. Reads inside a
 * transaction (the escalation engine's) go to the database.
 */

const TTL_MS = 30_000;
const MAX_TENANTS = 1_000;
const MAX_SCHEDULES_PER_TENANT = 500;
const DAY_MS = 86_400_000;
/** The overrides window, around the moment a schedule is loaded: asked about outside it, the database answers. */
const WINDOW_BEFORE_MS = DAY_MS;
const WINDOW_AFTER_MS = 40 * DAY_MS;

/** Successful writes under these resources forget the tenant's cached on-call inputs everywhere. */
const ONCALL_RESOURCES = /^\/api\/tenants\/:tenantId\/(onCallSchedules|approvalRequests|shiftSwaps)(\/|$)/;

interface Loaded {
  schedule: OnCallSchedule | null;
  overrides: OnCallOverride[];
  /** The overrides held are exactly those overlapping [from, to) (ISO text, compared as the database does). */
  from: string;
  to: string;
}

interface TenantEntry {
  loadedAt: number;
  members: Set<string> | null;
  schedules: Map<string, Promise<Loaded>>;
}

/** One schedule's inputs for [from, to): the schedule (null: the tenant has none such), overrides, active members. */
export interface OnCallInputs {
  schedule: OnCallSchedule | null;
  overrides: OnCallOverride[];
  members: Set<string>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class OnCallCache {
  private readonly tenants = new Map<string, TenantEntry>();

  constructor(
    private readonly db: DB,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The inputs of one schedule of the tenant for the overrides overlapping `range`, from memory or loaded in one
   * round trip; undefined when the range lies outside what is held (the caller reads the database).
   */
  async read(tenantId: string, scheduleId: string, range: { from: string; to: string }): Promise<OnCallInputs | undefined> {
    const entry = this.entry(tenantId);
    let pending = entry.schedules.get(scheduleId);
    if (!pending) {
      if (entry.schedules.size >= MAX_SCHEDULES_PER_TENANT) return undefined;
      const now = this.clock();
      const window = { from: iso(now - WINDOW_BEFORE_MS), to: iso(now + WINDOW_AFTER_MS) };
      if (range.from < window.from || range.to > window.to) return undefined;
      pending = this.load(entry, tenantId, scheduleId, window);
      entry.schedules.set(scheduleId, pending);
    }
    const loaded = await pending;
    if (range.from < loaded.from || range.to > loaded.to || !entry.members) return undefined;
    return { schedule: loaded.schedule, overrides: overlapping(loaded.overrides, range), members: entry.members };
  }

  private async load(entry: TenantEntry, tenantId: string, scheduleId: string, window: { from: string; to: string }): Promise<Loaded> {
    try {
      const rows = await loadOnCallRows(this.db, tenantId, scheduleId, window, !entry.members);
      // Written into the entry this load began with: forgotten meanwhile, it is no longer the tenant's.
      if (rows.members) entry.members = rows.members;
      return { schedule: rows.schedule, overrides: rows.overrides, ...window };
    } catch (err) {
      entry.schedules.delete(scheduleId);
      throw err;
    }
  }

  /** The tenant's entry, fresh (a new one past its time), most recently used last. */
  private entry(tenantId: string): TenantEntry {
    let entry = this.tenants.get(tenantId);
    if (entry) this.tenants.delete(tenantId);
    if (!entry || this.clock() - entry.loadedAt > TTL_MS) entry = { loadedAt: this.clock(), members: null, schedules: new Map() };
    this.tenants.set(tenantId, entry);
    if (this.tenants.size > MAX_TENANTS) this.tenants.delete(this.tenants.keys().next().value!);
    return entry;
  }

  /** Forgets these tenants' inputs, or every tenant's (null). */
  forget(tenantIds: readonly string[] | null) {
    if (!tenantIds) this.tenants.clear();
    else for (const id of tenantIds) this.tenants.delete(id);
  }

  /** Forgets the inputs of every tenant the user was held as an active member of. */
  forgetMember(userId: string) {
    for (const [id, entry] of this.tenants) if (entry.members?.has(userId)) this.tenants.delete(id);
  }
}

const caches = new WeakMap<DB, OnCallCache>();

/** The cache of the app that owns this database handle; none inside a transaction (it reads what it locks). */
export const onCallCacheOf = (db: DB): OnCallCache | undefined => (db.isTransaction ? undefined : caches.get(db));

/** Gives the app's database handle its on-call cache, forgotten through the bus; see the comment at the top. */
export function useOnCallCache(app: FastifyInstance, deps: Deps) {
  const cache = new OnCallCache(deps.db);
  caches.set(deps.db, cache);
  deps.bus.onInvalidateRouting((tenantIds) => cache.forget(tenantIds));
  deps.bus.onRevokeAccess((notice) => {
    if (notice.tenantId) cache.forget([notice.tenantId]);
    else if (notice.userId) cache.forgetMember(notice.userId);
  });
  // The write has committed by now: every instance forgets the tenant's inputs before the answer leaves.
  app.addHook('onSend', async (req, reply) => {
    if (req.method === 'GET' || req.method === 'HEAD' || reply.statusCode >= 400) return;
    const url = req.routeOptions.url;
    if (!url || !ONCALL_RESOURCES.test(url)) return;
    const tenantId = (req.params as { tenantId?: unknown }).tenantId;
    if (typeof tenantId === 'string') deps.bus.invalidateRouting([tenantId]);
  });
  app.addHook('onClose', async () => {
    caches.delete(deps.db);
  });
}
