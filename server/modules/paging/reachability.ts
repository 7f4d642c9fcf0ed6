import type { DB } from '../../db/database.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import type { Reachability } from '../../../contract/paging.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { findPreferences, listPushTokens, toChannelPreferences } from '../profile/profile.repository.ts';
import { listActiveMemberAccounts } from '../members/members.repository.ts';

/** By which channels each active member can be paged now, from their saved preferences and push subscriptions. */
export async function tenantReachability(db: DB, ctx: TenantContext, smsEnabled: boolean): Promise<Reachability> {
  authorize(ctx, 'manageEscalation');
  const members = await listActiveMemberAccounts(db, ctx.tenant.id);
  const items = await Promise.all(
    members.map(async (m) => {
      const prefs = toChannelPreferences(await findPreferences(db, m.id));
      const pushTargets = prefs.push.enabled ? (await listPushTokens(db, m.id)).length : 0;
      return {
        userId: m.id,
        displayName: m.display_name || m.email,
        email: prefs.email.enabled && prefs.email.alertNotifications,
        push: pushTargets > 0,
        sms: smsEnabled && prefs.sms.enabled && prefs.sms.alertTypes.length > 0 && !!prefs.phoneNumber,
      };
    }),
  );
  return { smsEnabled, items };
}
