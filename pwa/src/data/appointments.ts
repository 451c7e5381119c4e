// Appointments: the list the calendar, the dashboard and a customer's own list read (company-local
// days, docs/decisions/02-api-conventions.md), and the staff writes. Every write invalidates appointmentKeys.all,
// so each screen showing appointments refreshes. Updates and deletes carry If-Match with the
// version the user saw; the server answers 412 with the current appointment when someone changed it
// meanwhile, and 409 when the new time is taken (docs/decisions/05-scheduling-rules.md).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { offlineSession, type OfflineSession } from '../offline/session.ts';
import { isUnreachable, sessionForFallback } from './local-first.ts';

/**
 * `pending` is true while a change made offline waits to be sent, `needsAttention` when the server
 * refused it and it waits in "Needs attention" (staff; docs/decisions/08-offline-pwa.md).
 */
export type Appointment = InferResponseType<typeof client.appointments.$get, 200>[number] & {
  pending?: boolean;
  needsAttention?: boolean;
  /** The pending change is a delete: shown, marked, until the server has it. */
  deleting?: boolean;
};
export type AppointmentStatus = Appointment['status'];
export type AppointmentInput = InferRequestType<typeof client.appointments.$post>['json'];
export type AppointmentChanges = InferRequestType<(typeof client.appointments)[':id']['$put']>['json'];

export interface AppointmentRange {
  /** First day, 'YYYY-MM-DD', company-local. */
  start: string;
  /** Last day (inclusive), 'YYYY-MM-DD'. */
  end: string;
}

export const appointmentKeys = {
  all: ['appointments'] as const,
  list: (range: AppointmentRange | null) => [...appointmentKeys.all, 'list', range?.start ?? null, range?.end ?? null] as const,
};

/** If-Match value for an appointment version (the API sends ETag: "<version>"). */
export const ifMatch = (version: number) => `"${version}"`;

const offlineStore = () => import('../offline/appointments-local.ts');

/**
 * GET /appointments?start_date&end_date; the API already limits a customer to their own. For staff
 * the answer is kept locally and returned with their queued changes on top; without any answer the
 * last known calendar of the range is returned.
 */
export async function getAppointments(range: AppointmentRange | null, signal?: AbortSignal): Promise<Appointment[]> {
  const query = range ? { start_date: range.start, end_date: range.end } : {};
  let rows: Appointment[];
  try {
    rows = await rpc(client.appointments.$get({ query }, { init: { signal } }));
  } catch (e) {
    const session = range && isUnreachable(e) ? await sessionForFallback() : null;
    if (!session || !range) throw e;
    return (await offlineStore()).localAppointments(session.db, range);
  }
  const session = offlineSession.get();
  if (!session) return rows;
  try {
    return await (await offlineStore()).keepServerList(session.db, range, rows);
  } catch {
    return rows; // the local store failed: the server's answer is still right
  }
}

/** Whether a write goes to the outbox instead: staff, and no connection (known before or found by trying). */
async function queueFor(e: unknown | null): Promise<OfflineSession | null> {
  if (e !== null && !isUnreachable(e)) return null;
  return sessionForFallback();
}

const looksOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * Runs an online write; for staff offline (or when no answer comes) queues the change instead and
 * resolves with the local row. A row created offline (negative id) exists only locally until its
 * create is sent, so its changes always queue. The server's answer to an online write is kept locally.
 */
async function writeOrQueue<T>(
  localOnly: boolean,
  send: () => Promise<T>,
  /** `attempted`: the online attempt was made and got no answer, so the server may have applied it. */
  queue: (session: OfflineSession, attempted: boolean) => Promise<T>,
  keep: (session: OfflineSession, answer: T) => Promise<void>,
): Promise<T> {
  if (localOnly || looksOffline()) {
    const session = await queueFor(null);
    if (session) {
      try {
        return await queue(session, false);
      } catch (e) {
        if (localOnly) throw e;
        // Not in the local copy: try the server after all.
      }
    }
  }
  let answer: T;
  try {
    answer = await send();
  } catch (e) {
    const session = await queueFor(e);
    if (!session) throw e;
    try {
      return await queue(session, true);
    } catch {
      throw e; // not in the local copy (or the store failed): show the connection problem
    }
  }
  const session = offlineSession.get();
  if (session) await keep(session, answer).catch(() => undefined);
  return answer;
}

async function keepAnswer(session: OfflineSession, answer: Appointment): Promise<void> {
  const { putServerAppointment } = await import('../offline/local-db.ts');
  const { pending: _pending, ...row } = answer;
  await putServerAppointment(session.db, row);
}

/**
 * POST /appointments, from the staff modal and the public booking form alike (docs/decisions/04-customers-and-anonymous-booking.md
 * and 5). The Idempotency-Key makes a retried submission (after a dropped connection) book only once.
 */
export function createAppointment(input: AppointmentInput, idempotencyKey: string): Promise<Appointment> {
  return writeOrQueue<Appointment>(
    false,
    () => rpc(client.appointments.$post({ json: input, header: { 'idempotency-key': idempotencyKey } })),
    async (session, attempted) => {
      const store = await offlineStore();
      // The same key as the attempt above: if it reached the server, the retry must not book again.
      const change = await store.createChange(session.db, input, input.company_id ?? null, idempotencyKey);
      const id = await session.outbox.enqueue({ ...change, maybeSent: attempted });
      return (await store.shownRow(session.db, id))!;
    },
    keepAnswer,
  );
}

/** PUT /appointments/{id}: a checked, partial update. */
export function updateAppointment(id: number, version: number, changes: AppointmentChanges, idempotencyKey?: string): Promise<Appointment> {
  const header = { 'if-match': ifMatch(version), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) };
  return writeOrQueue<Appointment>(
    id < 0,
    () => rpc(client.appointments[':id'].$put({ param: { id: String(id) }, json: changes, header })),
    async (session) => {
      const store = await offlineStore();
      await session.outbox.enqueue(await store.updateChange(session.db, id, changes, idempotencyKey));
      return (await store.shownRow(session.db, id))!;
    },
    keepAnswer,
  );
}

/**
 * DELETE /appointments/{id} (staff only), checked with If-Match like an update. Answers whether it
 * was queued on this device (no connection) rather than done.
 */
export async function deleteAppointment(id: number, version: number, idempotencyKey?: string): Promise<{ queued: boolean }> {
  const header = { 'if-match': ifMatch(version), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) };
  return writeOrQueue<{ queued: boolean }>(
    id < 0,
    async () => {
      await rpc(client.appointments[':id'].$delete({ param: { id: String(id) }, header }));
      return { queued: false };
    },
    async (session) => {
      await session.outbox.enqueue({ kind: 'delete', appointmentId: id, idempotencyKey });
      return { queued: true };
    },
    async (session) => {
      await session.db.appointments.delete(id);
    },
  );
}

export const appointmentsQuery = (range: AppointmentRange | null, enabled = true) =>
  queryOptions({
    queryKey: appointmentKeys.list(range),
    queryFn: ({ signal }) => getAppointments(range, signal),
    enabled,
    // Screens show their own failure text.
    meta: { errorBanner: false },
  });

/** The calendar's list: the previous range stays on screen while the next one loads. */
export function useAppointments(range: AppointmentRange | null, enabled = true) {
  return useQuery({ ...appointmentsQuery(range, enabled), placeholderData: keepPreviousData });
}

/** A list kept current while it is on screen (the dashboard): refetched every minute. */
export function useLiveAppointments(range: AppointmentRange | null) {
  return useQuery({ ...appointmentsQuery(range, range !== null), refetchInterval: 60_000 });
}
