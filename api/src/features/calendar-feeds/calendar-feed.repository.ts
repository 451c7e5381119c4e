// The queries of calendar feeds (docs/decisions/24-calendar-feeds.md): the feed rows, who a feed
// belongs to, and the appointments a feed shows, every range bounded at both ends.
import type { DbOrTx } from '@bookwell/db';

export interface FeedRow {
  id: number;
  company_id: number;
  user_id: number | null;
  nonce: string;
  token_hash: string;
}

const FEED_COLUMNS = ['id', 'company_id', 'user_id', 'nonce', 'token_hash'] as const;

/** The company's feed (userId null) or the staff member's. */
export async function findFeedOf(db: DbOrTx, companyId: number, userId: number | null): Promise<FeedRow | undefined> {
  let q = db.selectFrom('calendar_feeds').select(FEED_COLUMNS).where('company_id', '=', companyId);
  q = userId == null ? q.where('user_id', 'is', null) : q.where('user_id', '=', userId);
  return q.executeTakeFirst();
}

export async function findFeedByHash(db: DbOrTx, tokenHash: string): Promise<FeedRow | undefined> {
  return db.selectFrom('calendar_feeds').select(FEED_COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function insertFeed(
  db: DbOrTx,
  feed: { company_id: number; user_id: number | null; nonce: string; token_hash: string },
  now: Date,
): Promise<FeedRow> {
  return db
    .insertInto('calendar_feeds')
    .values({ ...feed, created_at: now.toISOString() })
    .returning(FEED_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updateFeedSecret(db: DbOrTx, id: number, secret: { nonce: string; token_hash: string }): Promise<void> {
  await db.updateTable('calendar_feeds').set(secret).where('id', '=', id).execute();
}

/** A person as a feed owner: a staff feed works only while they are current staff of its company. */
export async function findFeedOwner(db: DbOrTx, userId: number) {
  return db.selectFrom('users').select(['id', 'name', 'company_id', 'role', 'archived_at']).where('id', '=', userId).executeTakeFirst();
}

export async function findFeedCompany(db: DbOrTx, companyId: number) {
  return db
    .selectFrom('companies')
    .select(['id', 'name', 'timezone', 'hide_customer_names_in_feeds', 'updated_at'])
    .where('id', '=', companyId)
    .executeTakeFirst();
}

export interface FeedAppointmentRow {
  id: number;
  start_time: string;
  end_time: string;
  status: 'booked' | 'cancelled';
  version: number;
  description: string | null;
  updated_at: string;
  customer_name: string | null;
  customer_user_name: string | null;
  employee_name: string | null;
}

/**
 * Appointments of the company (or of one employee) overlapping [from, to), cancelled ones included
 * (their updated_at still moves the feed's Last-Modified; the service leaves them out of the feed).
 * A company's longest appointment is far below the window's margin, so start_time bounds both ends.
 */
export async function listFeedAppointments(
  db: DbOrTx,
  companyId: number,
  employeeId: number | null,
  from: Date,
  to: Date,
): Promise<FeedAppointmentRow[]> {
  let q = db
    .selectFrom('appointments as a')
    .leftJoin('users as c', 'c.id', 'a.user_id')
    .leftJoin('users as e', 'e.id', 'a.employee_id')
    .select([
      'a.id',
      'a.start_time',
      'a.end_time',
      'a.status',
      'a.version',
      'a.description',
      'a.updated_at',
      'a.customer_name',
      'c.name as customer_user_name',
      'e.name as employee_name',
    ])
    .where('a.company_id', '=', companyId)
    .where('a.start_time', '>=', from.toISOString())
    .where('a.start_time', '<', to.toISOString());
  if (employeeId != null) q = q.where('a.employee_id', '=', employeeId);
  return q.orderBy('a.start_time').orderBy('a.id').execute();
}

/** Service names per appointment, in a stable order. */
export async function serviceNamesOf(db: DbOrTx, appointmentIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (let i = 0; i < appointmentIds.length; i += 500) {
    const rows = await db
      .selectFrom('appointment_service_types as ast')
      .innerJoin('service_types as s', 's.id', 'ast.service_type_id')
      .select(['ast.appointment_id', 's.name'])
      .where('ast.appointment_id', 'in', appointmentIds.slice(i, i + 500))
      .orderBy('ast.appointment_id')
      .orderBy('s.id')
      .execute();
    for (const r of rows) {
      const list = out.get(r.appointment_id) ?? [];
      list.push(r.name);
      out.set(r.appointment_id, list);
    }
  }
  return out;
}
