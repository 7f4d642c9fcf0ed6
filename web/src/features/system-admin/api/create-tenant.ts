import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminTenant, CreateTenantBody } from '../../../../../contract/system.ts';
import { api } from '../../../lib/api.ts';
import { invalidateTenantViews } from './invalidate.ts';

export const createTenant = (body: CreateTenantBody) => api<AdminTenant>('/tenants', { method: 'POST', body });

export function useCreateTenant() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createTenant, onSuccess: () => invalidateTenantViews(qc) });
}
