// A customer's own appointment through the personal link in their emails (docs/decisions/23-self-service.md):
// read it, cancel it, move it. No account: the token in the link is the credential (the server
// ignores any session the browser also has).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { isApiError } from '../lib/api-errors.ts';
import { client, rpc } from '../lib/rpc.ts';
import { availabilityKeys } from './availability.ts';

export type ManagedAppointment = InferResponseType<(typeof client.manage)[':token']['$get'], 200>;

export const manageKeys = {
  all: ['manage'] as const,
  one: (token: string) => [...manageKeys.all, token] as const,
};

export function getManagedAppointment(token: string, signal?: AbortSignal): Promise<ManagedAppointment> {
  return rpc(client.manage[':token'].$get({ param: { token } }, { init: { signal } }));
}

export function cancelManagedAppointment(token: string): Promise<ManagedAppointment> {
  return rpc(client.manage[':token'].cancel.$post({ param: { token } }));
}

export function rescheduleManagedAppointment(token: string, startTime: string): Promise<ManagedAppointment> {
  return rpc(client.manage[':token'].reschedule.$post({ param: { token }, json: { start_time: startTime } }));
}

// The page shows its own states (unknown link, failures), hence errorBanner: false; a 404 is an
// answer, not a hiccup, so it is not retried.
export const managedAppointmentQuery = (token: string) =>
  queryOptions({
    queryKey: manageKeys.one(token),
    queryFn: ({ signal }) => getManagedAppointment(token, signal),
    retry: (count, err) => count < 2 && !(isApiError(err) && err.status !== null),
    meta: { errorBanner: false },
  });

export function useManagedAppointment(token: string) {
  return useQuery(managedAppointmentQuery(token));
}

/** The answer is the appointment as it is now: the page shows it at once; free times changed too. */
function useManageWrite<A>(token: string, write: (arg: A) => Promise<ManagedAppointment>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    // Sent at once even offline, so the tap fails with its message (the page says it is offline)
    // instead of waiting paused and cancelling or moving the appointment whenever the connection
    // returns, perhaps long after the customer gave up.
    networkMode: 'always',
    meta: { errorBanner: false },
    onSuccess: (appointment) => queryClient.setQueryData(manageKeys.one(token), appointment),
    // A refusal (too late now, cancelled meanwhile) means the page showed an outdated appointment:
    // read it again, so it shows what can still be done instead of buttons refused again.
    onError: (err) => {
      if (isApiError(err) && err.status !== null) void queryClient.invalidateQueries({ queryKey: manageKeys.one(token) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: availabilityKeys.all }),
  });
}

export function useCancelManagedAppointment(token: string) {
  return useManageWrite<void>(token, () => cancelManagedAppointment(token));
}

export function useRescheduleManagedAppointment(token: string) {
  return useManageWrite<string>(token, (startTime) => rescheduleManagedAppointment(token, startTime));
}
