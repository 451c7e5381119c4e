// PUT /companies/{id} (partial): the profile form, and the optimistic single settings (employee
// booking, time increment) that roll back with a notice when the server refuses
// (DECISIONS.md section 8).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { Company } from './get-company.ts';

export type CompanyChanges = Partial<
  Pick<Company, 'name' | 'email' | 'logo_url' | 'timezone' | 'listed_publicly' | 'enable_employee_booking' | 'time_increment_minutes'>
>;

export function updateCompany(id: number, changes: CompanyChanges): Promise<Company> {
  return api.put<Company>(`/companies/${id}`, changes);
}

/** Profile form: saved on submit; the page shows the outcome. */
export function useUpdateCompany(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: CompanyChanges) => updateCompany(id, changes),
    meta: { errorBanner: false },
    onSuccess: (company) => {
      queryClient.setQueryData(['company', id], company);
      queryClient.invalidateQueries({ queryKey: ['public-company'] });
    },
  });
}

/** One setting applied at once on screen, put back as it was if the server refuses it. */
export function useOptimisticCompanySetting(id: number) {
  const queryClient = useQueryClient();
  const key = ['company', id];
  return useMutation({
    mutationFn: (changes: CompanyChanges) => updateCompany(id, changes),
    meta: { errorBanner: false },
    onMutate: async (changes) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Company>(key);
      if (previous) queryClient.setQueryData<Company>(key, { ...previous, ...changes });
      return { previous };
    },
    onError: (_err, _changes, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (company) => queryClient.setQueryData(key, company),
  });
}
