// Date overrides (docs/decisions/11-scheduling-rules-beyond-spec.md): a company's closures and special
// hours on a date, and a person's time off (whole or part of a day). Read with GET
// /date-overrides over a date range, added with POST and removed with DELETE; every write
// invalidates availability too, as an override changes which days and times can be booked.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { availabilityKeys } from './availability.ts';

export type DateOverride = InferResponseType<(typeof client)['date-overrides']['$get'], 200>[number];
export type DateOverrideInput = InferRequestType<(typeof client)['date-overrides']['$post']>['json'];

/** Whose overrides: the company's own (user null) or one person's. */
export interface OverrideScope {
  companyId: number;
  userId: number | null;
}

export const dateOverrideKeys = {
  all: ['date-overrides'] as const,
  list: (scope: OverrideScope | null, from: string, to: string) => [...dateOverrideKeys.all, scope, from, to] as const,
};

export function getDateOverrides(scope: OverrideScope, from: string, to: string, signal?: AbortSignal): Promise<DateOverride[]> {
  const query = {
    company_id: String(scope.companyId),
    ...(scope.userId !== null ? { user_id: String(scope.userId) } : {}),
    from,
    to,
  };
  return rpc(client['date-overrides'].$get({ query }, { init: { signal } }));
}

export function createDateOverride(input: DateOverrideInput): Promise<DateOverride> {
  return rpc(client['date-overrides'].$post({ json: input }));
}

export async function deleteDateOverride(id: number): Promise<void> {
  await rpc(client['date-overrides'][':id'].$delete({ param: { id: String(id) } }));
}

/** The scope's overrides from `from` to `to` ('YYYY-MM-DD', both included); a company list keeps only company rows. */
export const dateOverridesQuery = (scope: OverrideScope | null, from: string, to: string) =>
  queryOptions({
    queryKey: dateOverrideKeys.list(scope, from, to),
    queryFn: ({ signal }) => getDateOverrides(scope!, from, to, signal),
    enabled: scope !== null,
    select: (rows: DateOverride[]) =>
      rows
        .filter((r) => (scope?.userId == null ? r.user_id == null : r.user_id === scope.userId))
        .sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id),
    // Screens show their own failure text.
    meta: { errorBanner: false },
  });

export function useDateOverrides(scope: OverrideScope | null, from: string, to: string) {
  return useQuery(dateOverridesQuery(scope, from, to));
}

export function useWriteDateOverride() {
  const queryClient = useQueryClient();
  const settle = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: dateOverrideKeys.all }),
      queryClient.invalidateQueries({ queryKey: availabilityKeys.all }),
    ]);
  return {
    add: useMutation({ mutationFn: createDateOverride, meta: { errorBanner: false }, onSettled: settle }),
    remove: useMutation({ mutationFn: deleteDateOverride, meta: { errorBanner: false }, onSettled: settle }),
  };
}
