import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST } from '../api/prefetch-dashboard.ts';
import { activeAlertsPath } from '../api/list-active-alerts.ts';
import { alertsPath } from '../api/alerts-path.ts';
import { dashboardFilter } from './dashboard-params.ts';

describe('the list the dashboard’s address selects', () => {
  // The app asks for DEFAULT_LIST as it starts (issue 33): the page must ask for the same list, or it would ask twice.
  it('is every open alert by priority, the first 100 (the list asked as the app starts), when the address has no list parameters', () => {
    expect(DEFAULT_LIST).toEqual({ status: 'all', priority: 'all', sort: 'priority', page: 1, pageSize: 100 });
    expect(dashboardFilter(new URLSearchParams())).toEqual(DEFAULT_LIST);
    expect(dashboardFilter(new URLSearchParams('alert=a1'))).toEqual(DEFAULT_LIST);
    // …at the address the app's early request uses: the bare list path.
    expect(activeAlertsPath('t1', dashboardFilter(new URLSearchParams()))).toBe(alertsPath('t1'));
    expect(activeAlertsPath('t1', dashboardFilter(new URLSearchParams('sort=newest')))).not.toBe(alertsPath('t1'));
  });

  it.each([
    ['status=acknowledged&priority=high', { status: 'acknowledged', priority: 'high' }],
    ['sort=newest&page=3', { sort: 'newest', page: 3 }],
    ['hasTicket=false&q=disk', { hasTicket: false, q: 'disk' }],
    ['status=bogus&page=0&sort=sideways', {}],
  ])('reads %s', (query, over) => expect(dashboardFilter(new URLSearchParams(query))).toEqual({ ...DEFAULT_LIST, ...over }));
});
