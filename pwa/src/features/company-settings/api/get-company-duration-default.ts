// GET /company-duration-defaults/company/{companyId}: the length preselected for new appointments
// (null when the company has none yet).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-errors.ts';

export interface CompanyDurationDefault {
  id: number;
  company_id: number;
  default_appointment_duration: number;
}

export async function getCompanyDurationDefault(companyId: number, signal?: AbortSignal): Promise<CompanyDurationDefault | null> {
  try {
    return await api.get<CompanyDurationDefault>(`/company-duration-defaults/company/${companyId}`, { signal });
  } catch (e) {
    if (isApiError(e) && e.status === 404) return null;
    throw e;
  }
}

export const companyDurationDefaultQuery = (companyId: number) =>
  queryOptions({
    queryKey: ['company-duration-default', companyId],
    // The card shows the failure itself.
    meta: { errorBanner: false },
    queryFn: ({ signal }) => getCompanyDurationDefault(companyId, signal),
  });

export function useCompanyDurationDefault(companyId: number) {
  return useQuery(companyDurationDefaultQuery(companyId));
}
