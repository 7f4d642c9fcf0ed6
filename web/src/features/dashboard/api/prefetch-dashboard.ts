import type { LoaderFunctionArgs } from 'react-router';
import type { ActiveAlertsQuery } from '../../../../../contract/alerts.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { meQuery } from '../../../lib/me-query.ts';
import { rememberedTenantId, tenantOf } from '../../../lib/remembered-tenant.ts';
import { activeAlertsQueryOptions } from './list-active-alerts.ts';
import { alertStatsQueryOptions } from './alert-stats.ts';

/** How long the page's first render waits for its list and figures already asked for. */
const RENDER_WAIT_MS = 300;

/** The list an address without list parameters selects (dashboard-params.ts's `dashboardFilter`, held to it by a test). */
export const DEFAULT_LIST: ActiveAlertsQuery = { status: 'all', priority: 'all', sort: 'priority', page: 1, pageSize: 100 };

/**
 * The dashboard route's loader (issue 33): asks for the list and the stat cards as soon as the page's code and who is
 * signed in are there, instead of when the page has rendered; the page's own queries find the answers cached or on
 * their way, and like every answer asked before the live stream subscribes they are checked against its `ready`
 * (stream-ready.ts). The list only for an address without list parameters (the usual first visit); others the page asks.
 */
export async function prefetchDashboard({ request }: LoaderFunctionArgs) {
  const listParams = [...new URL(request.url).searchParams.keys()].some((k) => k !== 'alert');
  const asked = queryClient.ensureQueryData(meQuery).then(
    (me) => {
      const tenant = me && tenantOf(me, rememberedTenantId());
      if (!tenant) return;
      return Promise.all([
        listParams ? null : queryClient.prefetchQuery(activeAlertsQueryOptions(tenant.id, DEFAULT_LIST)),
        queryClient.prefetchQuery(alertStatsQueryOptions(tenant.id)),
      ]);
    },
    () => {},
  );
  // The page renders once with its alerts rather than twice (empty, then filled: a second render of the whole page
  // costs as much as the wait), unless they take longer than this: then it renders without them.
  await Promise.race([asked, new Promise((r) => setTimeout(r, RENDER_WAIT_MS))]);
  return null;
}
