import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InvitationPreview } from '../../../../../contract/members.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const fetchInvitation = (token: string, signal?: AbortSignal) => api<InvitationPreview>(`/invitations/${encodeURIComponent(token)}`, { signal });

export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: queryKeys.invitation(token),
    queryFn: ({ signal }) => fetchInvitation(token, signal),
    staleTime: Infinity,
  });

export const useInvitation = (token: string) => useQuery(invitationQuery(token));
