// People rows: lookups, lists, the trial's staff count, and removal (archive when history refers to them).
import type { Kysely, Transaction } from 'kysely';
import type { Database, Role, UserRow } from '@bookwell/db';
import { anyContains } from '../../lib/text-search.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A person who has not been removed (archived people only live on in appointment history). */
export async function findPerson(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('archived_at', 'is', null).executeTakeFirst();
}

export interface PeopleFilter {
  /** undefined: every company (global_admin only). */
  companyId?: number;
  role?: Role;
  search?: string;
}

export async function listPeople(db: Db, f: PeopleFilter): Promise<UserRow[]> {
  let q = db.selectFrom('users').selectAll().where('archived_at', 'is', null);
  if (f.companyId !== undefined) q = q.where('company_id', '=', f.companyId);
  if (f.role) q = q.where('role', '=', f.role);
  if (f.search) q = q.where(anyContains(['name', 'email'], f.search));
  return q.orderBy('name').orderBy('id').execute();
}

/** The company's record for an email, archived or not (one record per person per company). */
export async function findByCompanyEmail(db: Db, companyId: number, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('company_id', '=', companyId).where('email', '=', email).executeTakeFirst();
}

/** Whether someone other than `exceptUserId` signs in with this email (login emails are unique among password accounts). */
export async function loginEmailTaken(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('email', '=', email).where('password_hash', 'is not', null);
  if (exceptUserId !== undefined) q = q.where('id', '!=', exceptUserId);
  return !!(await q.executeTakeFirst());
}

/** Staff as the Free Trial counts them: every non-customer who has not been removed, the owner included. */
export async function countStaff(db: Db, companyId: number): Promise<number> {
  const r = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId).where('role', '!=', 'customer').where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Every staff member of a company, whatever their staff role: the public booking page's picker. */
export async function listPublicStaff(db: Db, companyId: number) {
  return db.selectFrom('users').select(['id', 'name'])
    .where('company_id', '=', companyId).where('role', 'in', ['admin', 'manager', 'employee', 'user'])
    .where('archived_at', 'is', null)
    .orderBy('name').orderBy('id').execute();
}

export async function hasAppointmentHistory(db: Db, userId: number): Promise<boolean> {
  const row = await db.selectFrom('appointments').select('id')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('employee_id', '=', userId)]))
    .limit(1).executeTakeFirst();
  return !!row;
}

/**
 * Removes a person from the product while appointments keep showing their name: they leave lists,
 * cannot sign in (password cleared, tokens and links dead), and their calendar feed stops.
 * Clearing the password also frees the email for a login elsewhere.
 */
export async function archivePerson(db: Db, id: number, now: Date): Promise<void> {
  const iso = now.toISOString();
  await db.updateTable('users')
    .set((eb) => ({ archived_at: iso, password_hash: null, token_version: eb('token_version', '+', 1), updated_at: iso }))
    .where('id', '=', id).execute();
  await db.updateTable('password_tokens').set({ used_at: iso }).where('user_id', '=', id).where('used_at', 'is', null).execute();
  await db.deleteFrom('calendar_feeds').where('user_id', '=', id).execute();
}

export async function deletePerson(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}
