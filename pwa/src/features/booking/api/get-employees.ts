// GET /employees?company_id=: the staff a customer may choose (id and name).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, rpc } from '../../../lib/rpc.ts';
import type { Employee } from '../../../lib/api-types.ts';

export function getEmployees(companyId: number, signal?: AbortSignal): Promise<Employee[]> {
  return rpc(client.employees.$get({ query: { company_id: String(companyId) } }, { init: { signal } }));
}

export const employeesQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: ['public-employees', companyId],
    queryFn: ({ signal }) => getEmployees(companyId!, signal),
    enabled: companyId !== null,
    meta: { errorBanner: false },
  });

export function useEmployees(companyId: number | null) {
  return useQuery(employeesQuery(companyId));
}
