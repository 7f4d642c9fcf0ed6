import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminTenant, UpdateTenantBody } from '../../../../../contract/system.ts';
import { api } from '../../../lib/api.ts';
import { invalidateTenantViews } from './invalidate.ts';

export const updateTenant = ({ id, ...body }: UpdateTenantBody & { id: string }) =>
  api<AdminTenant>(`/tenants/${encodeURIComponent(id)}`, { method: 'PUT', body });

export function useUpdateTenant() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateTenant, onSuccess: () => invalidateTenantViews(qc) });
}
