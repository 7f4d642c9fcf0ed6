import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { invalidateTenantViews } from './invalidate.ts';

export const deleteTenant = (id: string) => api<{ ok: true }>(`/tenants/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteTenant() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteTenant, onSuccess: () => invalidateTenantViews(qc) });
}
