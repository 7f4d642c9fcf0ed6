import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AckLinkInfo, AckResult } from '../../../../../contract/paging.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const path = (token: string) => `/ack/${encodeURIComponent(token)}`;

export const ackLinkQuery = (token: string) =>
  queryOptions({
    queryKey: queryKeys.ackLink(token),
    queryFn: ({ signal }) => api<AckLinkInfo>(path(token), { signal }),
    staleTime: Infinity,
  });

/** What the link of a page is about (a GET never acknowledges). */
export const useAckLink = (token: string) => useQuery(ackLinkQuery(token));

/** Acknowledges the alert as the person the link was sent to. */
export function useAcknowledgeFromLink(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<AckResult>(path(token), { method: 'POST', body: {} }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.ackLink(token) }),
  });
}
