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

/** Ticks or unticks at once; the list is put back if the server refuses. */
export function useToggleCompanyDurationOption(companyId: number) {
  const queryClient = useQueryClient();
  const key = ['company-duration-options', companyId];
  return useMutation({
    mutationFn: (v: { optionId: number; offered: boolean; row?: CompanyDurationOption }) =>
      v.offered ? addCompanyDurationOption(companyId, v.optionId).then(() => undefined) : removeCompanyDurationOption(v.row!.id),
    meta: { errorBanner: false },
    onMutate: async (v) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CompanyDurationOption[]>(key);
      queryClient.setQueryData<CompanyDurationOption[]>(key, (rows = []) =>
        v.offered
          ? [...rows, { id: -v.optionId, company_id: companyId, appointment_duration_option_id: v.optionId }]
          : rows.filter((r) => r.appointment_duration_option_id !== v.optionId),
      );
      return { previous };
    },
    onError: (_e, _v, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
