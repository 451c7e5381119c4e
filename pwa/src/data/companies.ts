// Companies: one key per company (by id, by slug, the public list), so a change saved in Company
// settings shows at once on every screen that reads the company (calendar, dashboard, booking page).
import { useState } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { readLocalFirst } from './local-first.ts';

/** What anyone may read about a company (by id, slug or the public list); members get the full view. */
export type CompanyView = InferResponseType<(typeof client.companies)[':id']['$get'], 200>;
/** The member view: settings and subscription (what PUT /companies/{id} answers). */
export type Company = InferResponseType<(typeof client.companies)[':id']['$put'], 200>;
export type CompanyChanges = InferRequestType<(typeof client.companies)[':id']['$put']>['json'];

export type CompanyRef = { by: 'id'; id: number } | { by: 'slug'; slug: string };

export const companyKeys = {
  all: ['companies'] as const,
  list: () => [...companyKeys.all, 'list'] as const,
  detail: (id: number | null) => [...companyKeys.all, 'detail', id] as const,
  bySlug: (slug: string | null) => [...companyKeys.all, 'slug', slug] as const,
  byRef: (ref: CompanyRef | null) => (ref?.by === 'slug' ? companyKeys.bySlug(ref.slug) : companyKeys.detail(ref?.id ?? null)),
};

/** True when the answer is the member view (members of the company and global_admin get it). */
export function isMemberView(company: CompanyView): company is Company {
  return 'subscription_active' in company;
}

export function getCompany(id: number, signal?: AbortSignal): Promise<CompanyView> {
  return readLocalFirst('company', `company:${id}`, () =>
    rpc(client.companies[':id'].$get({ param: { id: String(id) } }, { init: { signal } })),
  );
}

export function getCompanyBySlug(slug: string, signal?: AbortSignal): Promise<CompanyView> {
  return rpc(client.companies.slug[':slug'].$get({ param: { slug } }, { init: { signal } }));
}

/** GET /companies: the businesses that chose to be listed and take online bookings. */
export function getPublicCompanies(signal?: AbortSignal): Promise<CompanyView[]> {
  return rpc(client.companies.$get({ query: {} }, { init: { signal } }));
}

export function updateCompany(id: number, changes: CompanyChanges): Promise<Company> {
  return rpc(client.companies[':id'].$put({ param: { id: String(id) }, json: changes }));
}

// Screens show their own failure text, hence errorBanner: false throughout.
export const companyQuery = (id: number | null) =>
  queryOptions({
    queryKey: companyKeys.detail(id),
    queryFn: ({ signal }) => getCompany(id!, signal),
    enabled: id !== null,
    meta: { errorBanner: false },
  });

export const companyByRefQuery = (ref: CompanyRef | null) =>
  queryOptions({
    queryKey: companyKeys.byRef(ref),
    queryFn: ({ signal }) => (ref!.by === 'id' ? getCompany(ref!.id, signal) : getCompanyBySlug(ref!.slug, signal)),
    enabled: ref !== null,
    meta: { errorBanner: false },
  });

export const publicCompaniesQuery = (enabled = true) =>
  queryOptions({
    queryKey: companyKeys.list(),
    queryFn: ({ signal }) => getPublicCompanies(signal),
    enabled,
    meta: { errorBanner: false },
  });

export function useCompany(id: number | null) {
  return useQuery(companyQuery(id));
}

/** The company as its members (and global_admin) see it: for screens only they reach. */
export function useMemberCompany(id: number | null) {
  return useQuery({ ...companyQuery(id), select: asMemberView });
}

function asMemberView(company: CompanyView): Company {
  if (!isMemberView(company)) throw new Error('Only members of the company see its settings.');
  return company;
}

export function useCompanyByRef(ref: CompanyRef | null) {
  return useQuery(companyByRefQuery(ref));
}

export function usePublicCompanies(enabled = true) {
  return useQuery(publicCompaniesQuery(enabled));
}

/** After a save: the detail gets the server's answer; slug and list views refetch. */
function storeSavedCompany(queryClient: ReturnType<typeof useQueryClient>, company: Company): void {
  queryClient.setQueryData(companyKeys.detail(company.id), company);
  void queryClient.invalidateQueries({ queryKey: companyKeys.bySlug(company.slug) });
  void queryClient.invalidateQueries({ queryKey: companyKeys.list() });
}

/** Profile form: saved on submit; the page shows the outcome. */
export function useUpdateCompany(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: CompanyChanges) => updateCompany(id, changes),
    meta: { errorBanner: false },
    onSuccess: (company) => storeSavedCompany(queryClient, company),
  });
}

/**
 * One setting applied at once on screen, put back as it was if the server refuses it
 * (docs/decisions/08-offline-pwa.md). `shown(company)` is the company with the changes not yet
 * settled: they show in the same render as the click, while the optimistic cache update lands a few
 * ticks later (the mutation cancels the company's queries first); a controlled box or select reading
 * the cache alone sprang back meanwhile, and a quick second click was lost.
 */
export function useOptimisticCompanySetting(id: number) {
  const queryClient = useQueryClient();
  const key = companyKeys.detail(id);
  const [pending, setPending] = useState<CompanyChanges | null>(null);
  const mutation = useMutation({
    mutationFn: (changes: CompanyChanges) => updateCompany(id, changes),
    meta: { errorBanner: false },
    onMutate: async (changes) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CompanyView>(key);
      if (previous) queryClient.setQueryData<CompanyView>(key, { ...previous, ...changes } as CompanyView);
      return { previous };
    },
    onError: (_err, _changes, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (company) => storeSavedCompany(queryClient, company),
  });
  return {
    shown: <T extends Company>(company: T): T => (pending ? { ...company, ...pending } : company),
    /** Saves `changes`; `onError` runs when the server refuses them (the cache is already put back). */
    apply: (changes: CompanyChanges, onError: (err: Error) => void) => {
      setPending((p) => ({ ...p, ...changes }));
      // Per-call callbacks run for the latest call only: the pending changes clear once the last one settles.
      mutation.mutate(changes, { onError, onSettled: () => setPending(null) });
    },
  };
}
