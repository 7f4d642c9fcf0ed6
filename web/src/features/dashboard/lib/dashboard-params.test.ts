import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST } from '../api/prefetch-dashboard.ts';
import { dashboardFilter } from './dashboard-params.ts';

describe('the list the dashboard’s address selects', () => {
  // The route's prefetch (issue 33) asks for DEFAULT_LIST: the page must ask for the same list, or it would ask twice.
  it('is the prefetched list when the address has no list parameters', () => {
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
