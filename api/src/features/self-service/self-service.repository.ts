// The rows behind a self-service link (docs/decisions/23-self-service.md): the appointment a token's
// hash names, with the company facts the page and its rules need; and the lazy nonce of appointments
// made before links existed.
import type { DbOrTx } from '@bookwell/db';

export interface ManagedAppointmentRef {
  id: number;
  company_id: number;
  start_time: string;
  end_time: string;
  company_slug: string;
  /** Where the customer reaches the business when it is too late to change online. */
  company_email: string | null;
  cancellation_notice_hours: number;
}

/** The appointment whose link token hashes to `tokenHash`, if any. */
export async function findByManageTokenHash(db: DbOrTx, tokenHash: string): Promise<ManagedAppointmentRef | undefined> {
  return db
    .selectFrom('appointments as a')
    .innerJoin('companies as c', 'c.id', 'a.company_id')
    .select([
      'a.id',
      'a.company_id',
      'a.start_time',
      'a.end_time',
      'c.slug as company_slug',
      'c.email as company_email',
      'c.cancellation_notice_hours',
    ])
    .where('a.manage_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Gives the appointment the issued nonce and token hash unless it already has one (one link per
 * appointment, for its whole life), and answers the nonce it has now.
 */
export async function assignManageNonce(
  db: DbOrTx,
  appointmentId: number,
  issued: { manage_nonce: string; manage_token_hash: string },
): Promise<string | null> {
  await db.updateTable('appointments').set(issued).where('id', '=', appointmentId).where('manage_nonce', 'is', null).execute();
  const row = await db.selectFrom('appointments').select('manage_nonce').where('id', '=', appointmentId).executeTakeFirst();
  return row?.manage_nonce ?? null;
}
