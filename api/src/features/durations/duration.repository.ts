// Duration rows: the global catalogue, each company's offered options and its default, and the rules tying them.
import { PostgresAdapter, type Transaction } from 'kysely';
import type { Database, DbOrTx } from '@bookwell/db';

export interface DurationOption {
  id: number;
  duration_minutes: number;
}

export interface CompanyDurationOption {
  id: number;
  company_id: number;
  appointment_duration_option_id: number;
  duration_minutes: number;
}

export interface CompanyDurationDefault {
  id: number;
  company_id: number;
  default_appointment_duration: number;
}

// --- the global catalogue

export async function listDurationOptions(db: DbOrTx): Promise<DurationOption[]> {
  return db.selectFrom('appointment_duration_options').selectAll().orderBy('duration_minutes').execute();
}

export async function findDurationOption(db: DbOrTx, id: number): Promise<DurationOption | undefined> {
  return db.selectFrom('appointment_duration_options').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findDurationOptionByMinutes(db: DbOrTx, minutes: number): Promise<DurationOption | undefined> {
  return db.selectFrom('appointment_duration_options').selectAll().where('duration_minutes', '=', minutes).executeTakeFirst();
}

export async function insertDurationOption(db: DbOrTx, minutes: number): Promise<DurationOption> {
  return db.insertInto('appointment_duration_options').values({ duration_minutes: minutes }).returningAll().executeTakeFirstOrThrow();
}

/**
 * Changes a catalogue entry's minutes. Companies offering it whose default was the old value keep a
 * default they offer: it moves along.
 */
export async function changeDurationOption(trx: Transaction<Database>, option: DurationOption, minutes: number): Promise<DurationOption> {
  const updated = await trx
    .updateTable('appointment_duration_options')
    .set({ duration_minutes: minutes })
    .where('id', '=', option.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('company_duration_defaults')
    .set({ default_appointment_duration: minutes })
    .where('default_appointment_duration', '=', option.duration_minutes)
    .where('company_id', 'in', (eb) =>
      eb.selectFrom('company_duration_options').select('company_id').where('appointment_duration_option_id', '=', option.id),
    )
    .execute();
  return updated;
}

/** How many companies offer this catalogue entry as their default duration. */
export async function companiesDefaultingTo(db: DbOrTx, option: DurationOption): Promise<number> {
  const row = await db
    .selectFrom('company_duration_defaults as d')
    .innerJoin('company_duration_options as o', 'o.company_id', 'd.company_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('o.appointment_duration_option_id', '=', option.id)
    .where('d.default_appointment_duration', '=', option.duration_minutes)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deleting a catalogue entry removes it from every company's offer (foreign keys cascade). */
export async function deleteDurationOption(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('appointment_duration_options').where('id', '=', id).execute();
}

// --- what a company offers

function companyOptions(db: DbOrTx) {
  return db
    .selectFrom('company_duration_options as c')
    .innerJoin('appointment_duration_options as o', 'o.id', 'c.appointment_duration_option_id')
    .select(['c.id', 'c.company_id', 'c.appointment_duration_option_id', 'o.duration_minutes']);
}

export async function listCompanyDurationOptions(db: DbOrTx, companyId: number): Promise<CompanyDurationOption[]> {
  return companyOptions(db).where('c.company_id', '=', companyId).orderBy('o.duration_minutes').execute();
}

export async function findCompanyDurationOption(db: DbOrTx, id: number): Promise<CompanyDurationOption | undefined> {
  return companyOptions(db).where('c.id', '=', id).executeTakeFirst();
}

export async function insertCompanyDurationOption(db: DbOrTx, companyId: number, optionId: number): Promise<number> {
  const row = await db
    .insertInto('company_duration_options')
    .values({ company_id: companyId, appointment_duration_option_id: optionId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function changeCompanyDurationOption(db: DbOrTx, id: number, optionId: number): Promise<void> {
  await db.updateTable('company_duration_options').set({ appointment_duration_option_id: optionId }).where('id', '=', id).execute();
}

export async function deleteCompanyDurationOption(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('company_duration_options').where('id', '=', id).execute();
}

/** Whether the company offers an option of exactly these minutes. */
export async function companyOffersDuration(db: DbOrTx, companyId: number, minutes: number): Promise<boolean> {
  const row = await companyOptions(db).where('c.company_id', '=', companyId).where('o.duration_minutes', '=', minutes).executeTakeFirst();
  return row !== undefined;
}

// --- a company's default

export async function listCompanyDurationDefaults(db: DbOrTx, companyId: number): Promise<CompanyDurationDefault[]> {
  return db.selectFrom('company_duration_defaults').selectAll().where('company_id', '=', companyId).execute();
}

export async function findCompanyDurationDefault(db: DbOrTx, id: number): Promise<CompanyDurationDefault | undefined> {
  return db.selectFrom('company_duration_defaults').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findDefaultOfCompany(db: DbOrTx, companyId: number): Promise<CompanyDurationDefault | undefined> {
  return db.selectFrom('company_duration_defaults').selectAll().where('company_id', '=', companyId).executeTakeFirst();
}

/** One default per company: sets it, creating the row when the company has none. */
export async function setCompanyDefault(
  trx: Transaction<Database>,
  companyId: number,
  minutes: number,
): Promise<{ row: CompanyDurationDefault; created: boolean }> {
  const existing = await findDefaultOfCompany(trx, companyId);
  if (existing) {
    const row = await trx
      .updateTable('company_duration_defaults')
      .set({ default_appointment_duration: minutes })
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, created: false };
  }
  const row = await trx
    .insertInto('company_duration_defaults')
    .values({ company_id: companyId, default_appointment_duration: minutes })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ default_appointment_duration: minutes }))
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, created: true };
}

export async function deleteCompanyDurationDefault(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('company_duration_defaults').where('id', '=', id).execute();
}

/**
 * Serialises changes to one company's durations, so a default is never set to an option that a
 * concurrent request is removing: on PostgreSQL by locking the company row; SQLite's BEGIN IMMEDIATE
 * already serialises writers.
 */
export async function lockCompanyDurations(trx: Transaction<Database>, companyId: number): Promise<boolean> {
  const query = trx.selectFrom('companies').select('id').where('id', '=', companyId);
  const isPostgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  return (await (isPostgres ? query.forUpdate() : query).executeTakeFirst()) !== undefined;
}
