import type { DB } from '../../../db/database.ts';
import { parseJson } from '../../../db/database.ts';
import { clientNamesOf } from '../../clients/clients.service.ts';

/** How long a tenant's names are trusted without hearing of a change (a safety net under the bus's invalidations). */
export const CLIENT_NAMES_TTL_MS = 30_000;
const MAX_TENANTS = 10_000;

interface TenantNames {
  loadedAt: number;
  /** Lowercased id, name or alias → client id (ids first, then names, then aliases; the oldest client first). */
  byRef: Map<string, string>;
  names: Map<string, string>;
}

/**
 * The client an event names (issue 28): its id, name or one of its aliases, ignoring case. A tenant's names are read
 * in one query and kept, so ingestion costs no query per alert; every write to a tenant's clients forgets them on
 * every instance (the bus's routing invalidation, which client writes send), a reconnected bus forgets all, and they
 * expire after CLIENT_NAMES_TTL_MS anyway. Never called inside a transaction, so concurrent callers share one load.
 */
export class ClientDirectory {
  private tenants = new Map<string, TenantNames>();
  private loading = new Map<string, Promise<TenantNames>>();
  /** Bumped by every invalidation: a load that started before one is used once but not kept. */
  private generation = 0;

  constructor(
    private readonly db: DB,
    private readonly clock: () => number = Date.now,
  ) {}

  invalidate(tenantIds: string[] | null) {
    this.generation++;
    if (tenantIds === null) this.tenants.clear();
    else for (const id of tenantIds) this.tenants.delete(id);
  }

  async resolve(tenantId: string, ref: string): Promise<string | null> {
    const names = await this.names(tenantId);
    return names.byRef.get(ref.trim().toLowerCase()) ?? null;
  }

  /** The client `ref` names, with its name (the rules preview shows it), or null. */
  async describe(tenantId: string, ref: string): Promise<{ id: string; name: string } | null> {
    const names = await this.names(tenantId);
    const id = names.byRef.get(ref.trim().toLowerCase());
    return id ? { id, name: names.names.get(id) ?? '' } : null;
  }

  private async names(tenantId: string): Promise<TenantNames> {
    const hit = this.tenants.get(tenantId);
    if (hit && this.clock() - hit.loadedAt < CLIENT_NAMES_TTL_MS) return hit;
    let pending = this.loading.get(tenantId);
    if (!pending) {
      const generation = this.generation;
      pending = this.load(tenantId).then(
        (names) => {
          this.loading.delete(tenantId);
          if (generation === this.generation) {
            if (this.tenants.size >= MAX_TENANTS) this.tenants.clear();
            this.tenants.set(tenantId, names);
          }
          return names;
        },
        (err: unknown) => {
          this.loading.delete(tenantId);
          throw err;
        },
      );
      this.loading.set(tenantId, pending);
    }
    return pending;
  }

  private async load(tenantId: string): Promise<TenantNames> {
    const loadedAt = this.clock();
    const clients = await clientNamesOf(this.db, tenantId);
    const byRef = new Map<string, string>();
    const names = new Map(clients.map((c) => [c.id, c.name]));
    const add = (ref: string, id: string) => {
      const key = ref.trim().toLowerCase();
      if (key && !byRef.has(key)) byRef.set(key, id);
    };
    for (const c of clients) add(c.id, c.id);
    for (const c of clients) add(c.name, c.id);
    for (const c of clients) for (const alias of parseJson<unknown[]>(c.aliases, [])) if (typeof alias === 'string') add(alias, c.id);
    return { loadedAt, byRef, names };
  }
}
