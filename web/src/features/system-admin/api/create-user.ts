import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, CreateUserBody } from '../../../../../contract/system.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const createUser = (body: CreateUserBody) => api<AdminUser>('/users', { method: 'POST', body });

export function useCreateUser() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createUser, onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.system }) });
}
