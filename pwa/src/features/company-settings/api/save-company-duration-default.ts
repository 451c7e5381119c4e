// PUT /company-duration-defaults/{id}, or POST /company-duration-defaults when the company has none.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { CompanyDurationDefault } from './get-company-duration-default.ts';

export function saveCompanyDurationDefault(
  companyId: number,
  current: CompanyDurationDefault | null,
  minutes: number,
): Promise<CompanyDurationDefault> {
  if (current) return api.put<CompanyDurationDefault>(`/company-duration-defaults/${current.id}`, { default_appointment_duration: minutes });
  return api.post<CompanyDurationDefault>('/company-duration-defaults', { company_id: companyId, default_appointment_duration: minutes });
}

export function useSaveCompanyDurationDefault(companyId: number) {
  const queryClient = useQueryClient();
  const key = ['company-duration-default', companyId];
  return useMutation({
    mutationFn: (v: { current: CompanyDurationDefault | null; minutes: number }) =>
      saveCompanyDurationDefault(companyId, v.current, v.minutes),
    meta: { errorBanner: false },
    onSuccess: (row) => queryClient.setQueryData(key, row),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
