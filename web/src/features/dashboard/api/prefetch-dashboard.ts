import type { QueryClient } from '@tanstack/react-query';
import type { ActiveAlertsQuery } from '../../../../../contract/alerts.ts';
import { meQuery } from '../../../lib/me-query.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { rememberedTenantId, tenantOf } from '../../../lib/remembered-tenant.ts';
import { askEarly } from './early-answers.ts';
import { fetchActiveAlerts } from './list-active-alerts.ts';
import { fetchAlertStats } from './alert-stats.ts';

/** The addresses that open the dashboard (`/app` goes there, without its query). */
const DASHBOARD_PATHS = new Set(['/app', '/app/', '/app/dashboard', '/app/dashboard/']);

/**
 * The list an address without list parameters selects (dashboard-params.ts's `dashboardFilter`, held to it by its
 * test): written out, so that the app's entry, where this runs, carries none of the contract's lists and schemas.
 */
export const DEFAULT_LIST: ActiveAlertsQuery = { status: 'all', priority: 'all', sort: 'priority', page: 1, pageSize: 100 };

/**
 * Issue 33: an app starting on the dashboard asks for its list and figures as soon as it knows who is signed in
 * (their answer preloaded by the page), not once the dashboard has rendered: they arrive while the page's code runs,
 * and its first render shows the alerts. The same requests as the page's own (the current tenant's, early-answers.ts:
 * the page's queries take them over), asked like any answer before the live stream's subscription: checked against its
 * `ready` (stream-ready.ts). The list only for an address that selects the default one (the usual first visit; an
 * open alert's `?alert=` leaves it so); a filtered list is asked by the page.
 */
export function prefetchDashboard(qc: QueryClient, location: { pathname: string; search: string }) {
  if (!DASHBOARD_PATHS.has(location.pathname)) return;
  const listParams = [...new URLSearchParams(location.search).keys()].some((k) => k !== 'alert');
  qc.fetchQuery(meQuery).then(
    (me) => {
      const tenant = me && tenantOf(me, rememberedTenantId());
      if (!tenant) return;
      if (!listParams) askEarly(qc, queryKeys.activeAlerts(tenant.id, DEFAULT_LIST), () => fetchActiveAlerts(tenant.id, DEFAULT_LIST));
      askEarly(qc, queryKeys.alertStats(tenant.id), () => fetchAlertStats(tenant.id));
    },
    () => {
      /* the guard shows it */
    },
  );
}
