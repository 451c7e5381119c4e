// The privacy queries: everything held about one person, and the writes that erase it
// (docs/decisions/32-privacy-and-operations.md). Each takes a database or a transaction.
import type { ExpressionBuilder } from 'kysely';
import type { Database, DbOrTx, UserRow } from '@bookwell/db';

/** The name an erased person and their bookings show from then on (docs/decisions/12-operations-security-privacy.md). */
export const ERASED_NAME = 'Deleted customer';
/** Outbox rows addressed to an erased person keep this in place of the address. */
export const ERASED_ADDRESS = 'erased';

/** The email an erased account keeps: unique per account (the column is not null and unique per company), never deliverable (RFC 2606 `.invalid`). */
export function erasedEmail(id: number): string {
  return `erased-${id}@erased.invalid`;
}

export function isErased(user: Pick<UserRow, 'id' | 'email'>): boolean {
  return user.email === erasedEmail(user.id);
}

export async function findCompanyName(db: DbOrTx, companyId: number | null): Promise<string | null> {
  if (companyId === null) return null;
  const row = await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirst();
  return row?.name ?? null;
}

/** Appointments booked for them (their record, or before they had one, the email they typed) or performed by them. */
export async function appointmentsOf(db: DbOrTx, user: Pick<UserRow, 'id' | 'company_id' | 'email'>) {
  const rows = await db
    .selectFrom('appointments as a')
    .leftJoin('users as e', 'e.id', 'a.employee_id')
    .select([
      'a.id',
      'a.user_id',
      'a.employee_id',
      'a.start_time',
      'a.end_time',
      'a.status',
      'a.description',
      'a.customer_name',
      'a.customer_email',
      'a.customer_phone',
      'a.sms_consent',
      'a.created_at',
      'a.updated_at',
      'e.name as employee_name',
    ])
    .where((eb) =>
      eb.or([
        eb('a.user_id', '=', user.id),
        eb('a.employee_id', '=', user.id),
        ...(user.company_id === null
          ? []
          : [eb.and([eb('a.company_id', '=', user.company_id), eb('a.user_id', 'is', null), eb('a.customer_email', '=', user.email)])]),
      ]),
    )
    .orderBy('a.start_time')
    .orderBy('a.id')
    .execute();
  const ids = rows.map((r) => r.id);
  const services = ids.length
    ? await db
        .selectFrom('appointment_service_types as ast')
        .innerJoin('service_types as s', 's.id', 'ast.service_type_id')
        .select(['ast.appointment_id', 's.name'])
        .where('ast.appointment_id', 'in', ids)
        .orderBy('s.name')
        .execute()
    : [];
  return rows.map((r) => ({
    ...r,
    as: r.employee_id === user.id && r.user_id !== user.id ? ('employee' as const) : ('customer' as const),
    services: services.filter((s) => s.appointment_id === r.id).map((s) => s.name),
  }));
}

/** The addresses messages to them went to: their own, and what they typed on their bookings. */
export function addressesOf(
  user: Pick<UserRow, 'email' | 'phone'>,
  bookings: { customer_email: string | null; customer_phone: string | null }[],
) {
  const all = [user.email, user.phone, ...bookings.flatMap((b) => [b.customer_email, b.customer_phone])];
  return [...new Set(all.filter((a): a is string => !!a))];
}

/** Messages of their company (or of no company, for staff-less mail such as password resets) to these addresses. */
export async function messagesTo(db: DbOrTx, companyId: number | null, addresses: string[]) {
  if (!addresses.length) return [];
  return db
    .selectFrom('outbox_messages')
    .select(['id', 'channel', 'kind', 'to_address', 'subject', 'state', 'appointment_id', 'created_at', 'sent_at'])
    .where('to_address', 'in', addresses)
    .where((eb) => (companyId === null ? eb('company_id', 'is', null) : eb('company_id', '=', companyId)))
    .orderBy('id')
    .execute();
}

/**
 * Which messages are about them: those of their company to their addresses, and those about their
 * bookings (the staff's notices name them too).
 */
function aboutThem(companyId: number | null, addresses: string[], appointmentIds: number[]) {
  return (eb: ExpressionBuilder<Database, 'outbox_messages'>) =>
    eb.or([
      ...(addresses.length
        ? [
            eb.and([
              eb('to_address', 'in', addresses),
              companyId === null ? eb('company_id', 'is', null) : eb('company_id', '=', companyId),
            ]),
          ]
        : []),
      ...(appointmentIds.length ? [eb('appointment_id', 'in', appointmentIds)] : []),
    ]);
}

/** Cancels the messages about them still waiting to go; the number cancelled. */
export async function cancelPendingMessages(
  db: DbOrTx,
  companyId: number | null,
  addresses: string[],
  appointmentIds: number[],
): Promise<number> {
  if (!addresses.length && !appointmentIds.length) return 0;
  const res = await db
    .updateTable('outbox_messages')
    .set({ state: 'cancelled', locked_until: null })
    .where(aboutThem(companyId, addresses, appointmentIds))
    .where('state', 'in', ['pending', 'failed'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * Empties the content of every message about them and replaces their address where it was the
 * recipient (a message being handed to the provider right now is left to finish).
 */
export async function scrubMessages(db: DbOrTx, companyId: number | null, addresses: string[], appointmentIds: number[]): Promise<void> {
  if (!addresses.length && !appointmentIds.length) return;
  await db
    .updateTable('outbox_messages')
    .set((eb) => ({
      to_address: addresses.length
        ? eb.case().when('to_address', 'in', addresses).then(ERASED_ADDRESS).else(eb.ref('to_address')).end()
        : eb.ref('to_address'),
      subject: null,
      body_text: '',
      body_html: null,
      attachments: null,
      render: null,
      last_error: null,
    }))
    .where(aboutThem(companyId, addresses, appointmentIds))
    .where('state', '!=', 'sending')
    .execute();
}

/**
 * Their bookings keep their time, services and employee, so the calendar stays whole, but lose the
 * link to the person and every contact typed on them; the version moves so offline copies refresh.
 */
export async function anonymiseBookings(db: DbOrTx, ids: number[], now: Date): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable('appointments')
    .set((eb) => ({
      user_id: null,
      customer_name: ERASED_NAME,
      customer_email: null,
      customer_phone: null,
      sms_consent: 0,
      manage_nonce: null,
      manage_token_hash: null,
      version: eb('version', '+', 1),
      updated_at: now.toISOString(),
    }))
    .where('id', 'in', ids)
    .execute();
}

/**
 * Stored idempotent answers about their bookings (a staff member's or an anonymous booker's keyed
 * write, kept for 30 days) show the booking as it is now: no person, "Deleted customer", no contact.
 * They are rewritten, not deleted: a replay of the key must still answer instead of booking again.
 * An appointment answer starts with its id (appointment.mapper.ts), which is how they are found.
 */
export async function scrubStoredAnswers(db: DbOrTx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const rows = await db
    .selectFrom('idempotency_keys')
    .select(['id', 'response_body'])
    .where('state', '=', 'done')
    .where((eb) => eb.or(ids.map((id) => eb('response_body', 'like', `{"id":${id},%`))))
    .execute();
  for (const row of rows) {
    const body = JSON.parse(row.response_body!) as Record<string, unknown>;
    if (!ids.includes(body.id as number)) continue;
    body.user_id = null;
    body.customer_name = ERASED_NAME;
    if ('customer_email' in body) body.customer_email = null;
    if ('customer_phone' in body) body.customer_phone = null;
    if ('booking_contact' in body) body.booking_contact = null;
    if ('sms_consent' in body) body.sms_consent = false;
    await db
      .updateTable('idempotency_keys')
      .set({ response_body: JSON.stringify(body) })
      .where('id', '=', row.id)
      .execute();
  }
}

/** The person's row loses name, email, phone and password; sessions and links die with the token version. */
export async function eraseUserRow(db: DbOrTx, id: number, now: Date): Promise<void> {
  const iso = now.toISOString();
  await db
    .updateTable('users')
    .set((eb) => ({
      name: ERASED_NAME,
      email: erasedEmail(id),
      phone: null,
      password_hash: null,
      sms_opted_out_at: null,
      booking_notices: 0,
      token_version: eb('token_version', '+', 1),
      archived_at: eb.fn.coalesce('archived_at', eb.val(iso)),
      updated_at: iso,
    }))
    .where('id', '=', id)
    .execute();
  await db.deleteFrom('password_tokens').where('user_id', '=', id).execute();
  await db.deleteFrom('calendar_feeds').where('user_id', '=', id).execute();
  // Stored answers of their own requests may repeat their details.
  await db.deleteFrom('idempotency_keys').where('scope', '=', `user:${id}`).execute();
}
