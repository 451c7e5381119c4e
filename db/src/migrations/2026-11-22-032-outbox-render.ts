// An outbox message may be queued as what to render instead of its rendered body: a booking's
// transaction then stores a small JSON snapshot of the appointment, and the dispatcher renders the
// email (text, HTML, iCalendar) when it sends it, filling the body columns in for the record.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_messages').addColumn('render', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_messages').dropColumn('render').execute();
}
