import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { PRIORITIES, type AlertSubscription } from '../../../contract/profile.ts';

/** The user's alert subscriptions in one tenant; client subscriptions carry the client's name. */
export async function listSubscriptions(db: DB, tenantId: string, userId: string): Promise<AlertSubscription[]> {
  const rows = await db
    .selectFrom('alert_subscriptions as s')
    .leftJoin('clients as c', (j) => j.onRef('c.id', '=', 's.client_id').on('c.tenant_id', '=', tenantId))
    .select(['s.type', 's.client_id', 's.value', 'c.name as client_name'])
    .where('s.tenant_id', '=', tenantId)
    .where('s.user_id', '=', userId)
    .execute();
  // A stable order whatever order they were saved in: clients by name, priorities by severity, tags alphabetically.
  const clients: AlertSubscription[] = rows
    .filter((r) => r.type === 'client' && r.client_id)
    .sort((a, b) => (a.client_name ?? '').localeCompare(b.client_name ?? ''))
    .map((r) => ({ type: 'client', id: r.client_id!, name: r.client_name ?? undefined }));
  const priorities: AlertSubscription[] = PRIORITIES.filter((p) => rows.some((r) => r.type === 'priority' && r.value === p)).map((p) => ({ type: 'priority', value: p }));
  const tags: AlertSubscription[] = rows
    .flatMap((r) => (r.type === 'tag' && r.value ? [r.value] : []))
    .sort()
    .map((value) => ({ type: 'tag', value }));
  return [...clients, ...priorities, ...tags];
}

/** Replaces every alert subscription of the user in this tenant. */
export async function replaceSubscriptions(trx: DB, tenantId: string, userId: string, subs: AlertSubscription[], at: string) {
  await trx.deleteFrom('alert_subscriptions').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
  if (subs.length === 0) return;
  await trx
    .insertInto('alert_subscriptions')
    .values(
      subs.map((s) => ({
        id: randomUUID(),
        tenant_id: tenantId,
        user_id: userId,
        type: s.type,
        client_id: s.type === 'client' ? s.id : null,
        value: s.type === 'client' ? null : s.value,
        created_at: at,
      })),
    )
    .execute();
}
