import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MeResponse } from '../../../../../contract/auth.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys, removeTenantQueries } from '../../../lib/query-keys.ts';

/** Signs in with a one-time link (spending it) and puts the new session into the cache, replacing any other user's data. */
export function useSignInWithLink() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api<MeResponse>('/auth/sign-in-link/use', { body: { token } }),
    onSuccess: (me) => {
      removeTenantQueries(qc);
      qc.setQueryData(queryKeys.me, me);
    },
  });
}
