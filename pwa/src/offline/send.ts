// How one outbox entry reaches the server: the typed client with the entry's Idempotency-Key and
// If-Match. An HTTP answer becomes a SendResult; no answer at all (offline, timeout) rejects, so
// the runner retries later (docs/decisions/08-offline-pwa.md).
import { client } from '../lib/rpc.ts';
import type { OutboxEntry, ServerAppointment } from './local-db.ts';
import type { SendResult } from './outbox.ts';

type Fetcher = (entry: OutboxEntry) => Promise<Response>;

/** The request for one entry (exported for tests, which pass their own). */
export const requestFor: Fetcher = (entry) => {
  const key = { 'idempotency-key': entry.idempotencyKey };
  const header = entry.ifMatch === null ? key : { ...key, 'if-match': `"${entry.ifMatch}"` };
  const param = { id: String(entry.appointmentId) };
  if (entry.kind === 'create') {
    return client.appointments.$post({ json: entry.payload as never, header: key }) as unknown as Promise<Response>;
  }
  if (entry.kind === 'update') {
    return client.appointments[':id'].$put({ param, json: entry.payload as never, header }) as unknown as Promise<Response>;
  }
  return client.appointments[':id'].$delete({ param, header }) as unknown as Promise<Response>;
};

/** Turns the server's answer into what the outbox runner needs. */
export async function toSendResult(res: Response): Promise<SendResult> {
  let body: unknown;
  try {
    body = res.status === 204 ? undefined : await res.json();
  } catch {
    body = undefined;
  }
  if (res.ok) {
    const appointment = body && typeof body === 'object' && 'id' in body ? (body as ServerAppointment) : undefined;
    return { ok: true, appointment };
  }
  const b = (body && typeof body === 'object' ? body : {}) as { error?: string; code?: string; current?: ServerAppointment };
  return { ok: false, status: res.status, code: b.code, message: b.error, current: b.current };
}

export function createSend(fetcher: Fetcher = requestFor) {
  return async (entry: OutboxEntry): Promise<SendResult> => toSendResult(await fetcher(entry));
}

/** The outbox's send: apiFetch rejects with a network/timeout ApiError when nothing answered. */
export const sendEntry = createSend();
