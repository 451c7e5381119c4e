// Appointment lengths: the global catalogue (15, 30, 45, 60, 90, 120 ...), which of them a company
// offers, and the company's default for new appointments. Read by the calendar's modal and written
// from Company settings, under the same keys.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { readLocalFirst } from './local-first.ts';
import { isApiError } from '../lib/api-errors.ts';

export type DurationOption = InferResponseType<(typeof client)['appointment-duration-options']['$get'], 200>[number];
export type CompanyDurationOption = InferResponseType<(typeof client)['company-duration-options']['$get'], 200>[number];
export type CompanyDurationDefault = InferResponseType<(typeof client)['company-duration-defaults']['company'][':companyId']['$get'], 200>;

export const durationKeys = {
  all: ['durations'] as const,
  catalogue: () => [...durationKeys.all, 'catalogue'] as const,
  companyOptions: (companyId: number | null) => [...durationKeys.all, 'company-options', companyId] as const,
  companyDefault: (companyId: number | null) => [...durationKeys.all, 'company-default', companyId] as const,
};

export function getDurationOptions(signal?: AbortSignal): Promise<DurationOption[]> {
  return readLocalFirst('durations', 'options', () => rpc(client['appointment-duration-options'].$get({}, { init: { signal } })));
}

/** The lengths the company offers (only its own rows, whatever the server sends). */
export async function getCompanyDurationOptions(companyId: number, signal?: AbortSignal): Promise<CompanyDurationOption[]> {
  const fetch = () => rpc(client['company-duration-options'].$get({ query: { company_id: String(companyId) } }, { init: { signal } }));
  const rows = await readLocalFirst('durations', `company-options:${companyId}`, fetch);
  return rows.filter((r) => r.company_id === companyId);
}

/** A company without a default answers 404: that is "no default" (null), not a failure. */
export function getCompanyDurationDefault(companyId: number, signal?: AbortSignal): Promise<CompanyDurationDefault | null> {
  return readLocalFirst('durations', `company-default:${companyId}`, () => fetchCompanyDurationDefault(companyId, signal));
}

async function fetchCompanyDurationDefault(companyId: number, signal?: AbortSignal): Promise<CompanyDurationDefault | null> {
  try {
    const param = { companyId: String(companyId) };
    return await rpc(client['company-duration-defaults'].company[':companyId'].$get({ param }, { init: { signal } }));
  } catch (e) {
    if (isApiError(e) && e.status === 404) return null;
    throw e;
  }
}

export async function addCompanyDurationOption(companyId: number, optionId: number): Promise<CompanyDurationOption> {
  return rpc(client['company-duration-options'].$post({ json: { company_id: companyId, appointment_duration_option_id: optionId } }));
}

export async function removeCompanyDurationOption(rowId: number): Promise<void> {
  await rpc(client['company-duration-options'][':id'].$delete({ param: { id: String(rowId) } }));
}

/** PUT /company-duration-defaults/{id}, or POST when the company has none yet. */
export function saveCompanyDurationDefault(
  companyId: number,
  current: CompanyDurationDefault | null,
  minutes: number,
): Promise<CompanyDurationDefault> {
  if (current) {
    return rpc(
      client['company-duration-defaults'][':id'].$put({
        param: { id: String(current.id) },
        json: { default_appointment_duration: minutes },
      }),
    );
  }
  return rpc(client['company-duration-defaults'].$post({ json: { company_id: companyId, default_appointment_duration: minutes } }));
}

// Screens show their own failure text, hence errorBanner: false.
export const durationOptionsQuery = () =>
  queryOptions({
    queryKey: durationKeys.catalogue(),
    queryFn: ({ signal }) => getDurationOptions(signal),
    // The catalogue changes only when a global_admin edits it.
    staleTime: 10 * 60_000,
    meta: { errorBanner: false },
  });

export const companyDurationOptionsQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: durationKeys.companyOptions(companyId),
    queryFn: ({ signal }) => getCompanyDurationOptions(companyId!, signal),
    enabled: companyId !== null,
    meta: { errorBanner: false },
  });

export const companyDurationDefaultQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: durationKeys.companyDefault(companyId),
    queryFn: ({ signal }) => getCompanyDurationDefault(companyId!, signal),
    enabled: companyId !== null,
    meta: { errorBanner: false },
  });

export function useDurationOptions() {
  return useQuery(durationOptionsQuery());
}

export function useCompanyDurationOptions(companyId: number | null) {
  return useQuery(companyDurationOptionsQuery(companyId));
}

export function useCompanyDurationDefault(companyId: number | null) {
  return useQuery(companyDurationDefaultQuery(companyId));
}

/** Ticks or unticks a length at once; the list is put back if the server refuses. */
export function useToggleCompanyDurationOption(companyId: number) {
  const queryClient = useQueryClient();
  const key = durationKeys.companyOptions(companyId);
  return useMutation({
    mutationFn: (v: { optionId: number; offered: boolean; row?: CompanyDurationOption }) =>
      v.offered ? addCompanyDurationOption(companyId, v.optionId).then(() => undefined) : removeCompanyDurationOption(v.row!.id),
    meta: { errorBanner: false },
    onMutate: async (v) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CompanyDurationOption[]>(key);
      const minutes =
        queryClient.getQueryData<DurationOption[]>(durationKeys.catalogue())?.find((o) => o.id === v.optionId)?.duration_minutes ?? 0;
      queryClient.setQueryData<CompanyDurationOption[]>(key, (rows = []) =>
        v.offered
          ? [...rows, { id: -v.optionId, company_id: companyId, appointment_duration_option_id: v.optionId, duration_minutes: minutes }]
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

export function useSaveCompanyDurationDefault(companyId: number) {
  const queryClient = useQueryClient();
  const key = durationKeys.companyDefault(companyId);
  return useMutation({
    mutationFn: (v: { current: CompanyDurationDefault | null; minutes: number }) =>
      saveCompanyDurationDefault(companyId, v.current, v.minutes),
    meta: { errorBanner: false },
    onSuccess: (row) => queryClient.setQueryData(key, row),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
