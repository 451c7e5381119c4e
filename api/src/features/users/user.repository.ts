// People rows: the inserts, lookups, lists, the trial's staff count, and removal (archive when history refers to them).
import { sql, type Kysely } from 'kysely';
import { STAFF_ROLES, arg, prepared, type Database, type DbOrTx, type Role, type UserRow } from '@bookwell/db';
import { anyContains } from '../../lib/text-search.ts';
import { retireUserTokens } from '../password-tokens/password-token.repository.ts';

export interface UserFields {
  /** null for global_admin only. */
  company_id: number | null;
  name: string;
  /** Lower-case already (the Email schema folds it). */
  email: string;
  phone?: string | null;
  role: Role;
  /** null: a password-less record (invited, or a customer known from a booking). */
  password_hash?: string | null;
}

type UserArgs = [
  companyId: number | null,
  name: string,
  email: string,
  phone: string | null,
  role: Role,
  passwordHash: string | null,
  at: string,
];
// Compiled once, in two shapes: every new user row, and a booking's new customer (unless the company
// already has the email).
const userInsert = (db: Kysely<Database>) =>
  db.insertInto('users').values({
    company_id: arg(0),
    name: arg(1),
    email: arg(2),
    phone: arg(3),
    role: arg(4),
    password_hash: arg(5),
    token_version: 0,
    archived_at: null,
    created_at: arg(6),
    updated_at: arg(6),
  });
const insertRow = prepared<UserArgs, UserRow>((db) => userInsert(db).returningAll());
const insertUnlessEmailTaken = prepared<UserArgs, UserRow>((db) =>
  userInsert(db)
    .onConflict((oc) => oc.columns(['company_id', 'email']).doNothing())
    .returningAll(),
);

const LOOKED_UP = ['id', 'name', 'email', 'phone', 'role'] as const;
export type LookedUp = Pick<UserRow, (typeof LOOKED_UP)[number]> & { created: boolean };

/**
 * PostgreSQL: the company's row for this email, or a new password-less customer row when it has none,
 * in one statement: a booking for a new customer saves the round trip of a lookup that finds nothing
 * (docs/decisions/38-booking-statements.md). The insert sees the lookup's snapshot, so it runs only
 * when the lookup found no row; a row another request committed meanwhile is left alone by ON
 * CONFLICT, and then neither part answers (the caller reads it again). `created` says which part did.
 */
const foundOrInserted = prepared<[companyId: number, email: string, name: string, phone: string | null, at: string], LookedUp>((db) =>
  db
    .with('found', (q) => q.selectFrom('users').select(LOOKED_UP).where('company_id', '=', arg(0)).where('email', '=', arg(1)))
    .with('inserted', (q) =>
      q
        .insertInto('users')
        .columns([
          'company_id',
          'name',
          'email',
          'phone',
          'role',
          'password_hash',
          'token_version',
          'archived_at',
          'created_at',
          'updated_at',
        ])
        .expression(
          q
            .selectNoFrom((eb) => [
              eb.cast<number>(eb.val(arg(0)), 'integer').as('company_id'),
              eb.cast<string>(eb.val(arg(2)), 'text').as('name'),
              eb.cast<string>(eb.val(arg(1)), 'text').as('email'),
              eb.cast<string | null>(eb.val(arg(3)), 'text').as('phone'),
              sql.lit('customer').as('role'),
              sql.lit(null).as('password_hash'),
              sql.lit(0).as('token_version'),
              sql.lit(null).as('archived_at'),
              eb.cast<string>(eb.val(arg(4)), 'timestamptz').as('created_at'),
              eb.cast<string>(eb.val(arg(4)), 'timestamptz').as('updated_at'),
            ])
            .where((eb) => eb.not(eb.exists(eb.selectFrom('found').select('id')))),
        )
        .onConflict((oc) => oc.columns(['company_id', 'email']).doNothing())
        .returning(LOOKED_UP),
    )
    .selectFrom('found')
    .select([...LOOKED_UP, sql<boolean>`false`.as('created')])
    .unionAll((eb) => eb.selectFrom('inserted').select([...LOOKED_UP, sql<boolean>`true`.as('created')])),
);

/** The statement above bound, not run: a booking sends it in its company lock's message (docs/decisions/40-appointment-id-with-the-lock.md). */
export function companyPersonByEmailOrNewCustomerQuery(
  db: DbOrTx,
  companyId: number,
  contact: { name: string; email: string; phone: string | null },
  now: Date,
) {
  return foundOrInserted.bound(db, [companyId, contact.email, contact.name, contact.phone, now.toISOString()]);
}

/** PostgreSQL only (the statement above); undefined when another request's row for the email won. */
export async function companyPersonByEmailOrNewCustomer(
  db: DbOrTx,
  companyId: number,
  contact: { name: string; email: string; phone: string | null },
  now: Date,
): Promise<LookedUp | undefined> {
  return (await foundOrInserted(db, [companyId, contact.email, contact.name, contact.phone, now.toISOString()]))[0];
}

/**
 * The way a user row is born: sign-up, adding a person, anonymous booking on SQLite, the global
 * admin, the demo (a booking's new customer on PostgreSQL is born in the statement above).
 * With `unlessCompanyHasEmail`, a row the company already has for that email (another request
 * inserting it at the same moment) is left alone and undefined answered, without failing the
 * surrounding transaction.
 */
export async function insertUser(db: DbOrTx, user: UserFields, now: Date): Promise<UserRow>;
export async function insertUser(
  db: DbOrTx,
  user: UserFields,
  now: Date,
  opts: { unlessCompanyHasEmail: true },
): Promise<UserRow | undefined>;
export async function insertUser(
  db: DbOrTx,
  user: UserFields,
  now: Date,
  opts?: { unlessCompanyHasEmail: true },
): Promise<UserRow | undefined> {
  const args: UserArgs = [
    user.company_id,
    user.name,
    user.email,
    user.phone ?? null,
    user.role,
    user.password_hash ?? null,
    now.toISOString(),
  ];
  if (opts?.unlessCompanyHasEmail) return (await insertUnlessEmailTaken(db, args))[0];
  const [row] = await insertRow(db, args);
  if (!row) throw new Error(`user ${user.email} was not inserted`);
  return row;
}

/** A user row whatever its state (archived included): for the signed-in caller's own record. */
export async function findUser(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A person who has not been removed (archived people only live on in appointment history). */
export async function findPerson(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('archived_at', 'is', null).executeTakeFirst();
}

/** Any user row with this email, in any company. */
export async function findAnyByEmail(db: DbOrTx, email: string): Promise<Pick<UserRow, 'id'> | undefined> {
  return db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
}

/** The account that signs in with this email: has a password and has not been removed. */
export async function findLoginByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .where('password_hash', 'is not', null)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

/**
 * A record with this email and no password, with its company's name: a customer a booking left, or
 * someone staff added who has not set a password yet. The most recently changed one when there are
 * several (one email, one password, since login emails are unique among password accounts).
 */
export async function findLatestPasswordless(db: DbOrTx, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .selectAll('users')
    .select('companies.name as company_name')
    .where('users.email', '=', email)
    .where('users.role', '!=', 'global_admin')
    .where('users.password_hash', 'is', null)
    .where('users.archived_at', 'is', null)
    .orderBy('users.updated_at', 'desc')
    .orderBy('users.id', 'desc')
    .executeTakeFirst();
}

export interface PeopleFilter {
  /** undefined: every company (global_admin only). */
  companyId?: number;
  role?: Role;
  search?: string;
}

export async function listPeople(db: DbOrTx, f: PeopleFilter): Promise<UserRow[]> {
  let q = db.selectFrom('users').selectAll().where('archived_at', 'is', null);
  if (f.companyId !== undefined) q = q.where('company_id', '=', f.companyId);
  if (f.role) q = q.where('role', '=', f.role);
  if (f.search) q = q.where(anyContains(['name', 'email'], f.search));
  return q.orderBy('name').orderBy('id').execute();
}

/** The company's record for an email, archived or not (one record per person per company). */
export async function findByCompanyEmail(db: DbOrTx, companyId: number, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('company_id', '=', companyId).where('email', '=', email).executeTakeFirst();
}

/** Whether someone other than `exceptUserId` signs in with this email (login emails are unique among password accounts). */
export async function loginEmailTaken(db: DbOrTx, email: string, exceptUserId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('email', '=', email).where('password_hash', 'is not', null);
  if (exceptUserId !== undefined) q = q.where('id', '!=', exceptUserId);
  return !!(await q.executeTakeFirst());
}

/** Staff as the Free Trial counts them: every non-customer who has not been removed, the owner included. */
export async function countStaff(db: DbOrTx, companyId: number): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('role', '!=', 'customer')
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Every staff member of a company, whatever their staff role: the public booking page's picker. */
export async function listPublicStaff(db: DbOrTx, companyId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .where('role', 'in', STAFF_ROLES)
    .where('archived_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Brings a removed person back as the same record (history stays theirs), password-less, with older tokens dead. */
export async function revivePerson(db: DbOrTx, id: number, person: Pick<UserRow, 'name' | 'phone' | 'role'>, now: Date): Promise<UserRow> {
  const iso = now.toISOString();
  return db
    .updateTable('users')
    .set((eb) => ({
      name: person.name,
      phone: person.phone,
      role: person.role,
      archived_at: null,
      password_hash: null,
      token_version: eb('token_version', '+', 1),
      updated_at: iso,
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Edits a person; fields left undefined stay as they are. */
export async function updatePerson(
  db: DbOrTx,
  id: number,
  change: { name?: string; phone?: string | null; email?: string; role?: Role; booking_notices?: boolean },
  now: Date,
): Promise<UserRow> {
  return db
    .updateTable('users')
    .set((eb) => ({
      booking_notices: change.booking_notices === undefined ? undefined : change.booking_notices ? 1 : 0,
      name: change.name,
      phone: change.phone,
      email: change.email,
      role: change.role,
      // A new role must not ride on tokens issued for the old one.
      token_version: change.role !== undefined ? eb('token_version', '+', 1) : undefined,
      updated_at: now.toISOString(),
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Sets a new password and makes every older session token useless. With `ifTokenVersion`, only
 * while the row still has that token version (undefined when it changed meanwhile).
 */
export async function setPassword(
  db: DbOrTx,
  id: number,
  passwordHash: string,
  now: Date,
  ifTokenVersion?: number,
): Promise<UserRow | undefined> {
  let q = db
    .updateTable('users')
    .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1), updated_at: now.toISOString() }))
    .where('id', '=', id);
  if (ifTokenVersion !== undefined) q = q.where('token_version', '=', ifTokenVersion);
  return q.returningAll().executeTakeFirst();
}

export async function hasAppointmentHistory(db: DbOrTx, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('appointments')
    .select('id')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('employee_id', '=', userId)]))
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/**
 * Removes a person from the product while appointments keep showing their name: they leave lists,
 * cannot sign in (password cleared, tokens and links dead), and their calendar feed stops.
 * Clearing the password also frees the email for a login elsewhere.
 */
export async function archivePerson(db: DbOrTx, id: number, now: Date): Promise<void> {
  const iso = now.toISOString();
  await db
    .updateTable('users')
    .set((eb) => ({ archived_at: iso, password_hash: null, token_version: eb('token_version', '+', 1), updated_at: iso }))
    .where('id', '=', id)
    .execute();
  await retireUserTokens(db, id, now);
  await db.deleteFrom('calendar_feeds').where('user_id', '=', id).execute();
}

export async function deletePerson(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}
