// GET /company-duration-defaults/company/{id}: the length a new appointment starts with.
// A company without a default answers 404: that is "no default", not a failure.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-errors.ts';

export interface CompanyDurationDefault {
  id: number;
  company_id: number;
  /** Minutes. */
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

export const companyDurationDefaultQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: ['company-duration-defaults', 'company', companyId],
    queryFn: ({ signal }) => getCompanyDurationDefault(companyId!, signal),
    enabled: companyId !== null,
    meta: { errorBanner: false },
  });

export function useCompanyDurationDefault(companyId: number | null) {
  return useQuery(companyDurationDefaultQuery(companyId));
}
