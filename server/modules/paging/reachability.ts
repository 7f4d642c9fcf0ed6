import type { DB } from '../../db/database.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import type { Reachability } from '../../../contract/paging.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { listActiveMemberAccounts } from '../members/members.service.ts';

/** By which channels each active member can be paged now, from their saved preferences and push subscriptions. */
export async function tenantReachability(db: DB, notifier: Notifier, ctx: TenantContext): Promise<Reachability> {
  authorize(ctx, 'manageEscalation');
  const members = await listActiveMemberAccounts(db, ctx.tenant.id);
  const reach = await notifier.reachability(members.map((m) => ({ userId: m.id, email: m.email })));
  const items = members.map((m) => ({ userId: m.id, displayName: m.display_name || m.email, ...reach.get(m.id)! }));
  return { smsEnabled: notifier.smsConfigured, items };
}
