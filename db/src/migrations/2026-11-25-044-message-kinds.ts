// Outbox rows name their kind as docs/decisions/10-reminders-and-sms.md lists them (confirmation, reminder, reschedule,
// cancellation, staff_notice, invitation, password_reset): the company's message list filters on
// these names, so rows queued before are renamed (docs/decisions/22-messaging.md). An index serves
// that list (a company's messages, newest first).
import type { Kysely } from 'kysely';

export const KIND_RENAMES: Record<string, string> = {
  appointment_confirmation: 'confirmation',
  appointment_reschedule: 'reschedule',
  appointment_cancellation: 'cancellation',
  appointment_reminder: 'reminder',
  password_invite: 'invitation',
  customer_added: 'invitation',
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const [from, to] of Object.entries(KIND_RENAMES)) {
    await db.updateTable('outbox_messages').set({ kind: to }).where('kind', '=', from).execute();
  }
  await db.schema.createIndex('outbox_messages_company_idx').on('outbox_messages').columns(['company_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_messages_company_idx').execute();
  // customer_added and password_invite both became 'invitation': the way back picks the set-password one.
  const back: Record<string, string> = {
    confirmation: 'appointment_confirmation',
    reschedule: 'appointment_reschedule',
    cancellation: 'appointment_cancellation',
    reminder: 'appointment_reminder',
    invitation: 'password_invite',
  };
  for (const [from, to] of Object.entries(back)) {
    await db.updateTable('outbox_messages').set({ kind: to }).where('kind', '=', from).execute();
  }
}
