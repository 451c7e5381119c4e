// What the local store holds from the start of a staff session (issue 11; docs/decisions/08-offline-pwa.md):
// the company, its people, services, appointment lengths and hours, read through the same query
// options the screens use. Their fetchers keep each answer in the local store
// (pwa/src/data/local-first.ts), so the appointment form opens offline on a tablet that only ever
// showed the calendar online. Run at session start and after each catch-up, so they stay current.
import type { QueryClient } from '@tanstack/react-query';
import { companyQuery } from '../../data/companies.ts';
import { companyDurationDefaultQuery, companyDurationOptionsQuery, durationOptionsQuery } from '../../data/durations.ts';
import { companyHoursQuery } from '../../data/operating-hours.ts';
import { serviceTypesQuery } from '../../data/service-types.ts';
import { customersQuery, usersQuery } from '../../data/users.ts';

/**
 * A catch-up runs every minute: answers younger than this are not asked for again (the screens
 * still refetch what they show as they always do).
 */
export const PREFILL_STALE_MS = 5 * 60_000;

/** The query options the appointment form and the settings screens read for one company. */
export function offlineQueries(companyId: number) {
  return [
    companyQuery(companyId),
    usersQuery(companyId),
    customersQuery(companyId),
    serviceTypesQuery(companyId),
    companyDurationOptionsQuery(companyId),
    durationOptionsQuery(),
    companyDurationDefaultQuery(companyId),
    companyHoursQuery(companyId),
  ];
}

/**
 * Fetches each of the company's reads, so their answers are kept locally. The first run of a
 * session fetches them all: the screens may have read them before the local store was open, and
 * those answers were not kept. Later runs skip answers younger than PREFILL_STALE_MS. A read that
 * fails (offline, or not allowed for this role) is left for the screens to report.
 */
export function offlinePrefill(queryClient: QueryClient, companyOf: () => number | null): () => Promise<void> {
  let first = true;
  return async () => {
    const companyId = companyOf();
    if (companyId === null) return;
    const staleTime = first ? 0 : PREFILL_STALE_MS;
    first = false;
    await Promise.all(
      offlineQueries(companyId).map((options) =>
        queryClient.prefetchQuery({ ...(options as Parameters<QueryClient['prefetchQuery']>[0]), staleTime }),
      ),
    );
  };
}
