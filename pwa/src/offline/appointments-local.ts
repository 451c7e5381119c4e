// The calendar's side of the local store: the appointments of a range as the screens read them
// (with `pending: true` on rows an outbox change is waiting for, and `needsAttention: true` as well
// when the server refused that change and it waits in "Needs attention"), the server's list kept on each
// online read, and the optimistic rows of changes queued while offline. Loaded lazily by
// pwa/src/data/appointments.ts for signed-in staff (docs/decisions/08-offline-pwa.md).
import { addDays, browserZone, isKnownZone, zonedTimeToUtc } from '../lib/zoned-time.ts';
import { appointmentsBetween, type LocalAppointment, type LocalDb, type ServerAppointment } from './local-db.ts';
import type { Change } from './outbox.ts';

export type ShownAppointment = ServerAppointment & { pending?: boolean; needsAttention?: boolean; deleting?: boolean };

/** A range of company-local days, as the calendar asks for it. */
export interface DayRange {
  start: string;
  end: string;
}

/** A row as the screens get it; `refused` holds the appointments with a refused change. */
export function shown(row: LocalAppointment, refused: ReadonlySet<number> = new Set()): ShownAppointment {
  const { pending, deleting, ...rest } = row;
  const marks = deleting ? { deleting: true } : {};
  if (refused.has(row.id)) return { ...rest, ...marks, pending: true, needsAttention: true };
  return pending ? { ...rest, ...marks, pending: true } : rest;
}

/** The appointments whose change the server refused (they wait in "Needs attention"). */
async function refusedIds(db: LocalDb): Promise<Set<number>> {
  return new Set((await db.outbox.where('state').equals('refused').toArray()).map((e) => e.appointmentId));
}

/** Every row kept in one cached table's answers (each answer is `{ key, data }`, data a list or one row). */
async function cachedRows(db: LocalDb, table: 'users' | 'services' | 'company'): Promise<Record<string, unknown>[]> {
  const answers = await db[table].toArray();
  return answers.flatMap((a) => {
    const data = a.data;
    if (Array.isArray(data)) return data as Record<string, unknown>[];
    return data && typeof data === 'object' ? [data as Record<string, unknown>] : [];
  });
}

/** The company's time zone from the kept company, else the browser's. */
export async function companyZone(db: LocalDb): Promise<string> {
  const zone = (await cachedRows(db, 'company')).map((c) => c.timezone).find((z) => typeof z === 'string');
  return isKnownZone(zone as string | undefined) ? (zone as string) : browserZone();
}

async function bounds(db: LocalDb, range: DayRange): Promise<[string, string]> {
  const zone = await companyZone(db);
  return [zonedTimeToUtc(range.start, '00:00', zone).toISOString(), zonedTimeToUtc(addDays(range.end, 1), '00:00', zone).toISOString()];
}

/** The last known calendar for a range (offline). */
export async function localAppointments(db: LocalDb, range: DayRange): Promise<ShownAppointment[]> {
  const [from, to] = await bounds(db, range);
  const [rows, refused] = await Promise.all([appointmentsBetween(db, from, to), refusedIds(db)]);
  return rows.map((r) => shown(r, refused));
}

/**
 * Keeps the server's list of a range and returns it with the queued changes on top: a row with a
 * waiting change shows the local version (marked pending), a queued delete its row marked deleting, and rows
 * created offline appear in their place. The outbox is read and the server's rows written in one
 * transaction: a change queued between the two (an edit saved while a refetch was answered) had
 * its optimistic row overwritten by the server's older one, and the calendar showed the old text
 * unmarked while the change still waited (seen in the offline end-to-end test under load).
 */
export async function keepServerList(db: LocalDb, range: DayRange | null, rows: ServerAppointment[]): Promise<ShownAppointment[]> {
  // The kept company is in the transaction too: the range's bounds are read only when a row was created offline.
  return db.transaction('rw', db.appointments, db.outbox, db.company, async () => {
    const entries = await db.outbox.toArray();
    const queued = new Set(entries.map((e) => e.appointmentId));
    const refused = new Set(entries.filter((e) => e.state === 'refused').map((e) => e.appointmentId));
    await db.appointments.bulkPut(rows.filter((r) => !queued.has(r.id)).map((r) => ({ ...r, pending: 0 as const })));
    if (queued.size === 0) return rows;
    const local = new Map((await db.appointments.bulkGet([...queued])).flatMap((r) => (r ? [[r.id, r] as const] : [])));
    const list: ShownAppointment[] = rows.flatMap((r) => {
      if (!queued.has(r.id)) return [r];
      const mine = local.get(r.id);
      return mine ? [shown(mine, refused)] : [];
    });
    const created = [...local.values()].filter((row) => row.id < 0);
    if (range && created.length > 0) {
      const [from, to] = await bounds(db, range);
      for (const row of created) if (row.start_time >= from && row.start_time < to) list.push(shown(row, refused));
    }
    return list.sort((a, b) => a.start_time.localeCompare(b.start_time));
  });
}

function nameOf(rows: Record<string, unknown>[], id: number | null | undefined): string | null {
  if (id === null || id === undefined) return null;
  const row = rows.find((r) => r.id === id);
  return typeof row?.name === 'string' ? row.name : null;
}

type Body = Record<string, unknown>;

/** The fields of a request body the calendar shows, with names from the kept directory and services. */
async function rowFields(db: LocalDb, body: Body): Promise<Partial<ServerAppointment>> {
  const [users, services] = await Promise.all([cachedRows(db, 'users'), cachedRows(db, 'services')]);
  const row: Partial<ServerAppointment> = {};
  for (const key of ['start_time', 'end_time', 'description', 'status', 'appointment_duration_option_id', 'sms_consent'] as const) {
    if (body[key] !== undefined) (row as Body)[key] = body[key];
  }
  if (body.user_id !== undefined) {
    row.user_id = body.user_id as number | null;
    row.customer_name = nameOf(users, row.user_id);
  }
  const customer = body.customer as { name?: string } | undefined;
  if (customer?.name) row.customer_name = customer.name;
  if (body.employee_id !== undefined) {
    row.employee_id = body.employee_id as number | null;
    row.employee_name = nameOf(users, row.employee_id);
  }
  const serviceIds =
    (body.service_type_ids as number[] | undefined) ?? (body.service_types as { id: number }[] | undefined)?.map((s) => s.id);
  if (serviceIds) row.service_types = serviceIds.map((id) => ({ id, name: nameOf(services, id) ?? '' }));
  return row;
}

/** The outbox change for a create made offline, with the row the calendar shows at once. */
export async function createChange(db: LocalDb, body: Body, companyId: number | null, idempotencyKey?: string): Promise<Change> {
  const fields = await rowFields(db, body);
  if (!fields.end_time) delete fields.end_time;
  const start = String(body.start_time);
  const now = new Date().toISOString();
  const row: Omit<ServerAppointment, 'id' | 'version'> = {
    company_id: (body.company_id as number | undefined) ?? companyId ?? 0,
    user_id: null,
    employee_id: null,
    end_time: new Date(new Date(start).getTime() + 60 * 60_000).toISOString(),
    description: null,
    appointment_duration_option_id: null,
    status: 'booked',
    service_types: [],
    customer_name: null,
    employee_name: null,
    sms_consent: false,
    created_at: now,
    updated_at: now,
    ...fields,
    start_time: start,
  };
  return { kind: 'create', payload: body, row, idempotencyKey };
}

/** The outbox change for an update made offline. */
export async function updateChange(db: LocalDb, id: number, body: Body, idempotencyKey?: string): Promise<Change> {
  return {
    idempotencyKey,
    kind: 'update',
    appointmentId: id,
    payload: body,
    row: { ...(await rowFields(db, body)), updated_at: new Date().toISOString() },
  };
}

/** The row the calendar now shows for an appointment (after a queued change). */
export async function shownRow(db: LocalDb, id: number): Promise<ShownAppointment | undefined> {
  const [row, refused] = await Promise.all([db.appointments.get(id), refusedIds(db)]);
  return row && shown(row, refused);
}
