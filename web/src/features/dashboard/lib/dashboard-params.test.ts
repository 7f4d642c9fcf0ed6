import { describe, expect, it } from 'vitest';
import type { ActiveAlertsQuery } from '../../../../../contract/alerts.ts';
import { dashboardFilter } from './dashboard-params.ts';

/** What an address without list parameters selects: every open alert by priority, the first 100. */
const DEFAULT_LIST: ActiveAlertsQuery = { status: 'all', priority: 'all', sort: 'priority', page: 1, pageSize: 100 };

describe('the list the dashboard’s address selects', () => {
  it('is every open alert by priority, the first 100, when the address has no list parameters', () => {
    expect(dashboardFilter(new URLSearchParams())).toEqual(DEFAULT_LIST);
    expect(dashboardFilter(new URLSearchParams('alert=a1'))).toEqual(DEFAULT_LIST);
  });

  it.each([
    ['status=acknowledged&priority=high', { status: 'acknowledged', priority: 'high' }],
    ['sort=newest&page=3', { sort: 'newest', page: 3 }],
    ['hasTicket=false&q=disk', { hasTicket: false, q: 'disk' }],
    ['status=bogus&page=0&sort=sideways', {}],
  ])('reads %s', (query, over) => expect(dashboardFilter(new URLSearchParams(query))).toEqual({ ...DEFAULT_LIST, ...over }));
});
