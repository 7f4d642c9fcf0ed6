import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DigestOffInfo } from '../../../../../contract/digest.ts';
import { api } from '../../../lib/api.ts';

const path = (token: string) => `/digest/off/${encodeURIComponent(token)}`;
const key = (token: string) => ['digestOff', token] as const;

export const digestOffQuery = (token: string) => queryOptions({ queryKey: key(token), queryFn: ({ signal }) => api<DigestOffInfo>(path(token), { signal }), staleTime: Infinity });

/** Whose digest a mail's "turn off" link is for (a GET never turns anything off: mail scanners follow links). */
export const useDigestOff = (token: string) => useQuery(digestOffQuery(token));

/** Turns the weekly digest off for the link's person. */
export function useTurnOffDigest(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<DigestOffInfo>(path(token), { method: 'POST', body: {} }),
    onSuccess: (data) => qc.setQueryData(key(token), data),
  });
}
