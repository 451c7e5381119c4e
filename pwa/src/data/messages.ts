// The company's outbox (docs/decisions/22-messaging.md): the emails and texts it sent, is sending or
// could not send (with the reason), for its admins and managers; a failed one can be sent again.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';

type ListCall = (typeof client.companies)[':id']['messages']['$get'];
export type OutboxMessage = InferResponseType<ListCall, 200>[number];
export type MessageState = OutboxMessage['state'];

export const MESSAGE_STATES: MessageState[] = ['pending', 'sending', 'sent', 'failed', 'dead', 'cancelled'];
/** Only these can be sent again (the server answers 409 for the others). */
export const RETRYABLE: MessageState[] = ['failed', 'dead'];

export const messageKeys = {
  all: ['messages'] as const,
  company: (companyId: number, state: MessageState | null) => [...messageKeys.all, companyId, state ?? 'all'] as const,
};

export function getCompanyMessages(companyId: number, state: MessageState | null, signal?: AbortSignal): Promise<OutboxMessage[]> {
  const query = state ? { state, limit: '50' } : { limit: '50' };
  return rpc(client.companies[':id'].messages.$get({ param: { id: String(companyId) }, query }, { init: { signal } }));
}

export function retryCompanyMessage(companyId: number, messageId: number): Promise<OutboxMessage> {
  return rpc(
    client.companies[':id'].messages[':message_id'].retry.$post({ param: { id: String(companyId), message_id: String(messageId) } }),
  );
}

// The card shows its own failure text, hence errorBanner: false.
export const companyMessagesQuery = (companyId: number, state: MessageState | null) =>
  queryOptions({
    queryKey: messageKeys.company(companyId, state),
    queryFn: ({ signal }) => getCompanyMessages(companyId, state, signal),
    meta: { errorBanner: false },
    // While a message due now is waiting or being sent, look again soon: its outcome comes in seconds.
    refetchInterval: (q) =>
      q.state.data?.some((m) => (m.state === 'pending' || m.state === 'sending') && Date.parse(m.due_at) <= Date.now()) ? 2000 : false,
  });

export function useCompanyMessages(companyId: number, state: MessageState | null) {
  return useQuery(companyMessagesQuery(companyId, state));
}

/** Sends a failed or dead message again; the lists are read again so its new state shows. */
export function useRetryMessage(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (messageId: number) => retryCompanyMessage(companyId, messageId),
    meta: { errorBanner: false },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...messageKeys.all, companyId] }),
  });
}

/**
 * GET /reminder-channels: whether this server sends SMS reminders at all. The booking form offers
 * its SMS box, and the Reminders card speaks of texts, only then. Read once a session: it changes
 * only with the server's configuration.
 */
export function useReminderChannels() {
  return useQuery({
    queryKey: ['reminder-channels'],
    queryFn: ({ signal }) => rpc(client['reminder-channels'].$get(undefined, { init: { signal } })),
    staleTime: Infinity,
    meta: { errorBanner: false },
  });
}
