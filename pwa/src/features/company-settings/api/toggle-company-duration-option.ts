// POST /company-duration-options (offer a length) and DELETE /company-duration-options/{id} (stop offering it).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { CompanyDurationOption } from './get-company-duration-options.ts';

export function addCompanyDurationOption(companyId: number, optionId: number): Promise<CompanyDurationOption> {
  return api.post<CompanyDurationOption>('/company-duration-options', {
    company_id: companyId,
    appointment_duration_option_id: optionId,
  });
}

export function removeCompanyDurationOption(rowId: number): Promise<void> {
  return api.delete(`/company-duration-options/${rowId}`);
}

export function useToggleCompanyDurationOption(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { optionId: number; offered: boolean; row?: CompanyDurationOption }) =>
      v.offered ? addCompanyDurationOption(companyId, v.optionId).then(() => undefined) : removeCompanyDurationOption(v.row!.id),
    meta: { errorBanner: false },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['company-duration-options', companyId] }),
  });
}
