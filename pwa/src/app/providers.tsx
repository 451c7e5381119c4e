// App-wide providers: server-state cache (React Query) with the error-banner hook-up.
import { QueryCache, QueryClient, QueryClientProvider, MutationCache } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { isApiError } from '../lib/api-errors.ts';
import { showError } from '../lib/error-banner.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `errorBanner: false` when the page shows the failure itself. */
    queryMeta: { errorBanner?: boolean };
    mutationMeta: { errorBanner?: boolean };
  }
}

/** 401 signs out (the guard then shows /login): a banner would only repeat it. */
function reportToBanner(error: unknown, meta: { errorBanner?: boolean } | undefined): void {
  if (meta?.errorBanner === false) return;
  if (isApiError(error) && error.status === 401) return;
  showError(error);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => reportToBanner(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => reportToBanner(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Retrying a refusal (4xx) cannot help; a dropped connection may.
        retry: (count, error) => !(isApiError(error) && error.status !== null && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
        // Run the query even when the browser says it is offline: the data layer reads the local
        // store then (pwa/src/data/local-first.ts), so an edit made offline shows as pending and
        // another week opens (docs/decisions/08-offline-pwa.md). The default ('online') paused every
        // query from the browser's "offline" event on: the calendar kept showing what it had.
        // A query that needs the server fails once, then waits for the connection to retry.
        networkMode: 'offlineFirst',
      },
      // Sent at once even when the browser says it is offline, so a save that cannot reach the server
      // fails and its screen puts the previous value back with a notice (docs/decisions/08-offline-pwa.md).
      // The default ('online') paused it instead: a setting changed offline looked saved, was held in
      // memory only (lost with the tab), and went out whenever the connection returned. Appointment
      // changes made offline do not go through here: the outbox keeps them (pwa/src/offline/).
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
