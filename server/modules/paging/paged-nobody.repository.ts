import type { AlertPriority, AlertStatus, PagedNobodyReason } from '../../../contract/alerts.ts';
import { chunks, tenantBesideIds } from '../../db/bulk-insert.ts';
import type { DB } from '../../db/database.ts';

/** An alert just marked, with what its live update says. */
export interface MarkedAlert {
  id: string;
  status: AlertStatus;
  priority: AlertPriority;
  dedup_key: string | null;
  updated_at: string;
}

/**
 * Marks alerts of one tenant as having paged nobody (issue 25): when (`at`, ISO-8601 UTC) and why. The first mark
 * stands: an alert already marked keeps its time and reason. Run it in the transaction that decided it (the engine's
 * start, or the page delivery that found every page of level 1 skipped); returns the alerts it marked, whose viewers
 * should hear of the change once it is committed. One statement per 500 alerts.
 */
export async function markPagedNobody(db: DB, tenantId: string, alertIds: string[], at: string, reason: PagedNobodyReason = 'unreachable'): Promise<MarkedAlert[]> {
  const marked: MarkedAlert[] = [];
  for (const part of chunks([...new Set(alertIds)])) {
    const rows = await db
      .updateTable('alerts')
      .set({ paged_nobody_at: at, paged_nobody_reason: reason })
      .where(tenantBesideIds(db, 'tenant_id'), '=', tenantId)
      .where('id', 'in', part)
      .where('paged_nobody_at', 'is', null)
      .returning(['id', 'status', 'priority', 'dedup_key', 'updated_at'])
      .execute();
    marked.push(...rows);
  }
  return marked;
}
