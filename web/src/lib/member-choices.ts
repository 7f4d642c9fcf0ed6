import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Assignee } from '../../../contract/alerts.ts';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

/**
 * The tenant's active members, which every member may read (`GET /tenants/:id/assignees`): whom an alert is assigned
 * to, whom an escalation or approval level names, whom an approval is delegated to.
 */
export const fetchMemberChoices = (tenantId: string, signal?: AbortSignal) =>
  api<{ items: Assignee[] }>(`/tenants/${encodeURIComponent(tenantId)}/assignees`, { signal }).then((r) => r.items);

export const memberChoicesQuery = (tenantId: string) =>
  // Asked again whenever a picker opens (cached answers show meanwhile): someone who joined since another page loaded
  // the list (the dashboard's assignee filter) can be chosen at once.
  queryOptions({ queryKey: queryKeys.assignees(tenantId), queryFn: ({ signal }) => fetchMemberChoices(tenantId, signal), staleTime: 0 });

export const useMemberChoices = (tenantId: string, options: { enabled?: boolean } = {}) => useQuery({ ...memberChoicesQuery(tenantId), ...options });

/** How a member is named in a picker: their name, else their email. */
export const memberLabel = (m: Assignee) => m.displayName || m.email;
