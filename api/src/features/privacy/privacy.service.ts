// A person's data: exported as JSON, or erased while the company's calendar stays whole
// (docs/decisions/32-privacy-and-operations.md).
import type { UserRow } from '@bookwell/db';
import type { Actor, AppDeps } from '../../lib/context.ts';
import type { AuditContext } from '../../lib/audit-context.ts';
import { recordAudit, replaceAuditValues } from '../audit/audit.repository.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { USER_NOT_FOUND, assertCanSeePerson } from '../users/user.policy.ts';
import { findUser } from '../users/user.repository.ts';
import { lockCompanyForBooking } from '../appointments/booking-transaction.service.ts';
import { recordSyncChange } from '../appointments/appointment.repository.ts';
import {
  addressesOf,
  anonymiseBookings,
  appointmentsOf,
  cancelPendingMessages,
  eraseUserRow,
  findCompanyName,
  isErased,
  messagesTo,
  scrubMessages,
  scrubStoredAnswers,
} from './privacy.repository.ts';
import type { ErasureDto, PersonExport } from './privacy.schema.ts';

export type PrivacyDeps = Pick<AppDeps, 'db' | 'database' | 'now'>;

/**
 * The person themselves, or an admin of their company; global_admin too when erasing. Someone the
 * caller may not see at all answers 404 (as every people call does), someone they see but may not
 * act for 403.
 */
function assertMayActFor(actor: Actor, target: UserRow, opts: { globalAdmin: boolean }): void {
  if (actor.id === target.id) return;
  assertCanSeePerson(actor, target);
  if (actor.role === 'admin' && actor.company_id !== null && actor.company_id === target.company_id) return;
  if (opts.globalAdmin && actor.role === 'global_admin') return;
  throw forbidden(
    opts.globalAdmin
      ? 'Only the person, an admin of their company or a global admin can erase their data'
      : 'Only the person or an admin of their company can export their data',
  );
}

async function loadTarget(db: PrivacyDeps['db'], id: number): Promise<UserRow> {
  const target = await findUser(db, id);
  if (!target) throw notFound(USER_NOT_FOUND);
  return target;
}

export async function exportPerson(deps: PrivacyDeps, actor: Actor, who: AuditContext, id: number): Promise<PersonExport> {
  const user = await loadTarget(deps.db, id);
  assertMayActFor(actor, user, { globalAdmin: false });
  // Handing a person's data out is recorded too (who took it, when), without the data.
  await recordAudit(deps.db, who, { company_id: user.company_id, action: 'export', entity: 'user', entity_id: user.id });
  const appointments = await appointmentsOf(deps.db, user);
  const messages = await messagesTo(
    deps.db,
    user.company_id,
    addressesOf(
      user,
      appointments.filter((a) => a.as === 'customer'),
    ),
  );
  return {
    exported_at: deps.now().toISOString(),
    profile: {
      id: user.id,
      company_id: user.company_id,
      company_name: await findCompanyName(deps.db, user.company_id),
      name: user.name,
      email: user.email,
      phone: user.phone,
      role: user.role,
      booking_notices: user.booking_notices === 1,
      sms_opted_out_at: user.sms_opted_out_at,
      archived_at: user.archived_at,
      created_at: user.created_at,
      updated_at: user.updated_at,
    },
    appointments: appointments.map((a) => ({
      id: a.id,
      as: a.as,
      start_time: a.start_time,
      end_time: a.end_time,
      status: a.status,
      services: a.services,
      employee_name: a.employee_name,
      description: a.description,
      customer_name: a.customer_name,
      customer_email: a.customer_email,
      customer_phone: a.customer_phone,
      sms_consent: a.sms_consent === 1,
      created_at: a.created_at,
      updated_at: a.updated_at,
    })),
    messages,
  };
}

/**
 * Erases a customer: their row keeps only its id, role and company (so their bookings still count
 * and erasing again finds it: 200, nothing left to do); their bookings are kept as "Deleted
 * customer" without any contact; messages still waiting to go to them are cancelled and the
 * stored ones lose address and content. Staff are removed with DELETE /users/{id} instead: their
 * name on the calendar is the company's record of who did the work.
 */
export async function erasePerson(deps: PrivacyDeps, actor: Actor, who: AuditContext, id: number): Promise<ErasureDto> {
  return deps.db.transaction().execute(async (trx) => {
    const user = await loadTarget(trx, id);
    assertMayActFor(actor, user, { globalAdmin: true });
    if (user.role !== 'customer') throw forbidden('Only customer accounts can be erased; staff are removed from the Directory');
    if (user.company_id === null) throw notFound(USER_NOT_FOUND);
    const now = deps.now();
    // Under the company's booking lock: the sync feed's ids must commit in order (see lockCompanyForBooking).
    await lockCompanyForBooking(trx, deps.database.dialect, user.company_id);
    const bookings = (await appointmentsOf(trx, user)).filter((a) => a.as === 'customer');
    const addresses = isErased(user) ? [] : addressesOf(user, bookings);
    const ids = bookings.map((b) => b.id);
    const cancelled = await cancelPendingMessages(trx, user.company_id, addresses, ids);
    await scrubMessages(trx, user.company_id, addresses, ids);
    await anonymiseBookings(trx, ids, now);
    await scrubStoredAnswers(trx, ids);
    for (const b of bookings) await recordSyncChange(trx, user.company_id, b.id, 'upsert', now);
    await eraseUserRow(trx, user.id, now);
    // The audit log keeps who did what, but not their details: earlier entries lose every value
    // that was theirs, and the erasure itself is recorded without any (docs/decisions/12-operations-security-privacy.md).
    if (!isErased(user)) {
      const typed = bookings.flatMap((b) => [b.customer_name, b.customer_email, b.customer_phone]);
      await replaceAuditValues(trx, {
        companyId: user.company_id,
        userId: user.id,
        appointmentIds: ids,
        values: [user.name, user.email, user.phone, ...typed].filter((v): v is string => !!v),
        email: user.email,
      });
    }
    await recordAudit(trx, who, { company_id: user.company_id, action: 'erase', entity: 'user', entity_id: user.id });
    return { id: user.id, erased: true as const, appointments_kept: bookings.length, messages_cancelled: cancelled };
  });
}
