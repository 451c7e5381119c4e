// Calendar feeds (docs/decisions/24-calendar-feeds.md): the secret iCalendar address of the signed-in
// staff member's own appointments and of the whole company, and a way to replace either.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';

export type CalendarFeed = InferResponseType<(typeof client.me)['calendar-feed']['$get'], 200>;

export const calendarFeedKeys = {
  all: ['calendar-feeds'] as const,
  mine: () => [...calendarFeedKeys.all, 'me'] as const,
  company: (id: number) => [...calendarFeedKeys.all, 'company', id] as const,
};

export function getMyCalendarFeed(signal?: AbortSignal): Promise<CalendarFeed> {
  return rpc(client.me['calendar-feed'].$get(undefined, { init: { signal } }));
}

export function regenerateMyCalendarFeed(): Promise<CalendarFeed> {
  return rpc(client.me['calendar-feed'].$post());
}

export function getCompanyCalendarFeed(companyId: number, signal?: AbortSignal): Promise<CalendarFeed> {
  return rpc(client.companies[':id']['calendar-feed'].$get({ param: { id: String(companyId) } }, { init: { signal } }));
}

export function regenerateCompanyCalendarFeed(companyId: number): Promise<CalendarFeed> {
  return rpc(client.companies[':id']['calendar-feed'].$post({ param: { id: String(companyId) } }));
}

// The cards show their own failure text, hence errorBanner: false.
export const myCalendarFeedQuery = () =>
  queryOptions({ queryKey: calendarFeedKeys.mine(), queryFn: ({ signal }) => getMyCalendarFeed(signal), meta: { errorBanner: false } });

export const companyCalendarFeedQuery = (companyId: number) =>
  queryOptions({
    queryKey: calendarFeedKeys.company(companyId),
    queryFn: ({ signal }) => getCompanyCalendarFeed(companyId, signal),
    meta: { errorBanner: false },
  });

export function useMyCalendarFeed() {
  return useQuery(myCalendarFeedQuery());
}

export function useCompanyCalendarFeed(companyId: number) {
  return useQuery(companyCalendarFeedQuery(companyId));
}

/** A new address; the old one stops working at once, so the screen shows the new one straight away. */
export function useRegenerateMyCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateMyCalendarFeed,
    meta: { errorBanner: false },
    onSuccess: (feed) => queryClient.setQueryData(calendarFeedKeys.mine(), feed),
  });
}

export function useRegenerateCompanyCalendarFeed(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regenerateCompanyCalendarFeed(companyId),
    meta: { errorBanner: false },
    onSuccess: (feed) => queryClient.setQueryData(calendarFeedKeys.company(companyId), feed),
  });
}
