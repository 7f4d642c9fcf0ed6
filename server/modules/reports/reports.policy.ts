import type { MemberRole } from '../../../contract/auth.ts';
import { REPORT_MSG } from '../../../contract/reports.ts';
import { forbidden } from '../../http/errors.ts';
import { isManager } from '../tenants/tenants.policy.ts';

/** Reports are for owners and admins (issue 31): what the MSP owes its clients is a manager's matter. */
export const canViewReports = (role: MemberRole) => isManager(role);

/** 403 unless the caller may see the tenant's reports (membership itself was checked: others got 404). */
export function authorizeReports(ctx: { role: MemberRole }) {
  if (!canViewReports(ctx.role)) throw forbidden(REPORT_MSG.forbidden);
}
