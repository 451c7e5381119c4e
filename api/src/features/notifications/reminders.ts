// Reminders and staff notices (docs/decisions/22-messaging.md, "Reminders and staff notices").
//
// A reminder is an outbox row queued in the transaction that books, moves, cancels or deletes the
// appointment, due `reminder_hours_before` hours before its start. Its dedupe key names the
// appointment and its start (`reminder:<channel>:<id>:<start ISO>`), so:
// - at most one reminder per channel is ever queued for one start, across processes and retries
//   (the unique key), and the dispatcher's claim sends it once;
// - a move cancels the old start's row (state 'cancelled') and queues one for the new start; moving
//   back revives the cancelled row rather than colliding with it (never one that was sent);
// - only the current start's reminder can be pending, so every lookup is by dedupe key (its unique
//   index) and no scan of the outbox runs inside a booking.
// The reminder renders at send time from a snapshot of the appointment as it was when queued;
// every write of the appointment refreshes it (syncReminders).
import { deferredWrite, type DbOrTx } from '@bookwell/db';
import { appointmentRenderSnapshot, appointmentEmailSubject, formatForPeople, type AppointmentEmailInput } from './appointment-emails.ts';
import { queueEmail, queueOrRefreshReminder, queueSms, smsOptedOut } from './outbox.repository.ts';

export type ReminderChannel = 'email' | 'sms';

/** The kind of every reminder row (docs/decisions/10-reminders-and-sms.md: message kinds). */
export const REMINDER_KIND = 'reminder';
export const STAFF_NOTICE_KIND = 'staff_notice';

export function reminderKey(channel: ReminderChannel, appointmentId: number, start: string): string {
  return `reminder:${channel}:${appointmentId}:${new Date(start).toISOString()}`;
}

/** When the reminder of an appointment starting at `start` is due. */
export function reminderDueAt(start: string, hoursBefore: number): Date {
  return new Date(Date.parse(start) - hoursBefore * 3600_000);
}

/** The skip rule: a reminder whose due time has already passed is not queued (the booking came too late for it). */
export function reminderTooLate(due: Date, now: Date): boolean {
  return due.getTime() < now.getTime();
}

/** The SMS reminder text (under 160 GSM characters for usual names). */
export function reminderSmsText(input: Pick<AppointmentEmailInput, 'company' | 'serviceNames' | 'appointment'>): string {
  const services = input.serviceNames.length ? input.serviceNames.join(', ') : 'Appointment';
  const when = formatForPeople(input.appointment.start_time, input.company.timezone).replace(/ \([^)]*\)$/, '');
  return `Reminder: ${services} at ${input.company.name} on ${when}. Reply STOP to opt out.`;
}

export interface ReminderTarget {
  appointmentId: number;
  companyId: number;
  /** The start as this transaction wrote it. */
  start: string;
  /** The start before this write (a move), or null for a new appointment. */
  previousStart: string | null;
  /** False when the appointment is cancelled or deleted: its reminders are dropped. */
  active: boolean;
  hoursBefore: number;
  /** What the reminders say: the appointment as the customer's emails describe it. */
  details: AppointmentEmailInput;
  /** The customer's email address; null when there is none (no email reminder). */
  emailTo: string | null;
  /**
   * The SMS reminder's recipient when SMS is configured, the customer consented and gave a phone
   * (E.164); null otherwise. `userId` is the customer record checked for an opt-out.
   */
  sms: { to: string; userId: number | null } | null;
}

const LIVE = ['pending', 'failed'] as const;

/** Drops the live reminders with these keys; nothing is read back, so a deferred write (sent with the next statement on PostgreSQL). */
async function cancelByKeys(db: DbOrTx, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await deferredWrite(
    db,
    db
      .updateTable('outbox_messages')
      .set({ state: 'cancelled', locked_until: null })
      .where('dedupe_key', 'in', keys)
      .where('state', 'in', LIVE),
  );
}

/**
 * Queues, moves or drops the appointment's reminders to match it as the caller's transaction wrote it.
 * Call it after every write of an appointment (book, change, cancel, delete), inside that transaction.
 */
export async function syncReminders(db: DbOrTx, t: ReminderTarget, now: Date): Promise<void> {
  const keys = (start: string) => [reminderKey('email', t.appointmentId, start), reminderKey('sms', t.appointmentId, start)];
  const moved = t.previousStart !== null && Date.parse(t.previousStart) !== Date.parse(t.start);
  if (moved) await cancelByKeys(db, keys(t.previousStart!));
  if (!t.active) {
    await cancelByKeys(db, keys(t.start));
    return;
  }
  const due = reminderDueAt(t.start, t.hoursBefore);
  // The skip rule. With the start unchanged, a reminder already due stays (it is being sent).
  if (reminderTooLate(due, now)) return;
  // A new appointment has no reminder rows yet: insert only (this runs inside every booking).
  const fresh = t.previousStart === null;

  const emailKey = reminderKey('email', t.appointmentId, t.start);
  if (t.emailTo) {
    const input: AppointmentEmailInput = { ...t.details, kind: 'reminder', customer: { ...t.details.customer, email: t.emailTo } };
    const subject = appointmentEmailSubject(input);
    const render = appointmentRenderSnapshot(input, now);
    const message = {
      to: input.customer.email,
      kind: REMINDER_KIND,
      companyId: t.companyId,
      appointmentId: t.appointmentId,
      subject,
      text: '',
      render,
      dueAt: due,
      dedupeKey: emailKey,
    };
    // A new appointment has none yet; otherwise the row with this key is refreshed or revived, or kept when already sent.
    if (fresh) await queueEmail(db, message, now);
    else await queueOrRefreshReminder(db, 'email', message, now);
  } else if (!fresh) {
    await cancelByKeys(db, [emailKey]);
  }

  const smsKey = reminderKey('sms', t.appointmentId, t.start);
  if (t.sms && !(await smsOptedOut(db, t.companyId, t.sms.to, t.sms.userId))) {
    const message = {
      to: t.sms.to,
      text: reminderSmsText(t.details),
      kind: REMINDER_KIND,
      companyId: t.companyId,
      appointmentId: t.appointmentId,
      dueAt: due,
      dedupeKey: smsKey,
    };
    if (fresh) await queueSms(db, message, now);
    else await queueOrRefreshReminder(db, 'sms', message, now);
  } else if (!fresh) {
    await cancelByKeys(db, [smsKey]);
  }
}

/**
 * The company's reminder_hours_before changed: its pending reminders not yet due are re-timed to the
 * new setting, in the transaction that changed it; one whose new due time has passed is dropped (the
 * skip rule). Reminders skipped under the old setting stay skipped.
 */
export async function retimeCompanyReminders(db: DbOrTx, companyId: number, hoursBefore: number, now: Date): Promise<number> {
  const nowIso = now.toISOString();
  const rows = await db
    .selectFrom('outbox_messages as o')
    .innerJoin('appointments as a', 'a.id', 'o.appointment_id')
    .select(['o.id', 'o.due_at', 'a.start_time'])
    .where('o.company_id', '=', companyId)
    .where('o.kind', '=', REMINDER_KIND)
    .where('o.state', '=', 'pending')
    .where('o.due_at', '>', nowIso)
    .execute();
  let changed = 0;
  for (const r of rows) {
    const due = reminderDueAt(r.start_time, hoursBefore);
    if (due.getTime() === Date.parse(r.due_at)) continue;
    const set = reminderTooLate(due, now) ? { state: 'cancelled' as const } : { due_at: due.toISOString() };
    const res = await db
      .updateTable('outbox_messages')
      .set(set)
      .where('id', '=', r.id)
      .where('state', '=', 'pending')
      .where('due_at', '>', nowIso)
      .executeTakeFirst();
    changed += Number(res.numUpdatedRows);
  }
  return changed;
}

export type StaffNoticeChange = 'booked' | 'rescheduled' | 'cancelled';

export interface StaffNotice {
  change: StaffNoticeChange;
  /** The appointment's assigned employee (no notice without one). */
  employeeId: number | null;
  /** The appointment as the customer's emails describe it (its version names the notice). */
  details: AppointmentEmailInput;
  /** The start before a move. */
  previousStart?: string | null;
  customerPhone?: string | null;
  /**
   * The employee's row when this transaction already read it under the company lock ("any employee"
   * reads the performers: docs/decisions/40-appointment-id-with-the-lock.md): not read again.
   */
  employee?: StaffRecipient;
}

/** What a staff notice needs of its recipient. */
export interface StaffRecipient {
  id: number;
  name: string;
  email: string | null;
  booking_notices: number;
  archived_at: string | null;
  role: string;
}

/**
 * Tells the assigned employee that a customer booked, moved or cancelled (issue 12, point 7). Call it
 * only for changes customers make (the booking page, a customer's own cancel, the self-service link),
 * inside their transaction. Nothing is queued when the employee turned booking notices off
 * (users.booking_notices = 0), has no email, or was removed. Calling it twice for the same change
 * queues one email: the dedupe key names the appointment, its version and the employee.
 */
export async function queueStaffNotice(db: DbOrTx, n: StaffNotice, now: Date): Promise<void> {
  if (n.employeeId === null) return;
  const employee: StaffRecipient | undefined =
    n.employee?.id === n.employeeId
      ? n.employee
      : await db
          .selectFrom('users')
          .select(['id', 'name', 'email', 'booking_notices', 'archived_at', 'role'])
          .where('id', '=', n.employeeId)
          .executeTakeFirst();
  if (!employee || !employee.email || employee.booking_notices === 0 || employee.archived_at !== null || employee.role === 'customer')
    return;
  const input: AppointmentEmailInput = {
    ...n.details,
    kind: 'staff_notice',
    previousStart: n.previousStart ?? null,
    staffNotice: { change: n.change, recipientName: employee.name, customerPhone: n.customerPhone ?? null },
  };
  await queueEmail(
    db,
    {
      to: employee.email,
      kind: STAFF_NOTICE_KIND,
      companyId: input.company.id,
      appointmentId: input.appointment.id,
      subject: appointmentEmailSubject(input),
      text: '',
      render: appointmentRenderSnapshot(input, now),
      dedupeKey: `staff_notice:${input.appointment.id}:${input.appointment.version}:${employee.id}`,
    },
    now,
  );
}
