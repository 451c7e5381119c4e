// PUT /admin/companies/{id}/subscription: a global_admin sets the expiry (null: unlimited).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { AdminCompany } from './get-admin-companies.ts';

export function updateSubscription(companyId: number, expiresAt: string | null): Promise<AdminCompany> {
  return api.put<AdminCompany>(`/admin/companies/${companyId}/subscription`, { subscription_expires_at: expiresAt });
}

export function useUpdateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { companyId: number; expiresAt: string | null }) => updateSubscription(v.companyId, v.expiresAt),
    meta: { errorBanner: false },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
