// Date override rows (docs/decisions/27-scheduling-rules.md): a company's closures and special hours
// (user_id null) and a person's time off, one row per owner and date, intervals as JSON text.
import { PostgresAdapter, type Transaction } from 'kysely';
import type { Database, DateOverrideTable, DbOrTx } from '@bookwell/db';
import type { Selectable } from 'kysely';
import type { OpenInterval } from '../operating-hours/operating-hours.repository.ts';
import { parseIntervals, type IntervalInput } from './date-override.rules.ts';

export type DateOverrideRow = Selectable<DateOverrideTable>;

/** Reads of one company stay bounded (docs/decisions/16-compiled-queries-and-bounded-reads.md). */
export const MAX_OVERRIDES_READ = 2000;

export async function listOverrides(
  db: DbOrTx,
  filter: { companyId: number; userId?: number; from?: string; to?: string },
): Promise<DateOverrideRow[]> {
  let q = db.selectFrom('date_overrides').selectAll().where('company_id', '=', filter.companyId);
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  if (filter.from !== undefined) q = q.where('date', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('date', '<=', filter.to);
  return q.orderBy('date').orderBy('id').limit(MAX_OVERRIDES_READ).execute();
}

export async function findOverride(db: DbOrTx, id: number): Promise<DateOverrideRow | undefined> {
  return db.selectFrom('date_overrides').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOverrideOn(
  db: DbOrTx,
  companyId: number,
  userId: number | null,
  date: string,
): Promise<DateOverrideRow | undefined> {
  return db
    .selectFrom('date_overrides')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('user_id', userId === null ? 'is' : '=', userId)
    .where('date', '=', date)
    .executeTakeFirst();
}

/** Writers of one company take turns on its row (PostgreSQL; SQLite's BEGIN IMMEDIATE already does), so "one override per owner and date" holds. */
export async function lockCompanyOverrides(trx: Transaction<Database>, companyId: number): Promise<boolean> {
  const q = trx.selectFrom('companies').select('id').where('id', '=', companyId);
  return (await (trx.getExecutor().adapter instanceof PostgresAdapter ? q.forNoKeyUpdate() : q).executeTakeFirst()) !== undefined;
}

export async function insertOverride(
  db: DbOrTx,
  values: { companyId: number; userId: number | null; date: string; isClosed: boolean; intervals: IntervalInput[]; note: string | null },
): Promise<DateOverrideRow> {
  return db
    .insertInto('date_overrides')
    .values({
      company_id: values.companyId,
      user_id: values.userId,
      date: values.date,
      is_closed: values.isClosed ? 1 : 0,
      intervals: values.isClosed ? null : JSON.stringify(values.intervals),
      note: values.note,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteOverride(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('date_overrides').where('id', '=', id).execute();
}

/** One date's replacement hours, as the availability engine reads them. */
export interface DateOverrideForEngine {
  id: number;
  /** Null: the company's own date (replaces company hours); else that person's (replaces their hours). */
  user_id: number | null;
  /** 'YYYY-MM-DD', company-local. */
  date: string;
  is_closed: boolean;
  /** Sorted by opening; a midnight close is '24:00:00' (as OpenInterval elsewhere); [] when closed. */
  intervals: OpenInterval[];
}

/**
 * Every override of the company (its own dates and every person's) from fromDate to toDate, both
 * included ('YYYY-MM-DD'), ordered by date: what available-slots, available-dates and the booking
 * transaction read (docs/decisions/27-scheduling-rules.md).
 */
export async function overridesInRange(db: DbOrTx, companyId: number, fromDate: string, toDate: string): Promise<DateOverrideForEngine[]> {
  const rows = await db
    .selectFrom('date_overrides')
    .select(['id', 'user_id', 'date', 'is_closed', 'intervals'])
    .where('company_id', '=', companyId)
    .where('date', '>=', fromDate)
    .where('date', '<=', toDate)
    .orderBy('date')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    user_id: r.user_id,
    date: r.date,
    is_closed: r.is_closed === 1,
    intervals:
      r.is_closed === 1
        ? []
        : parseIntervals(r.intervals).map((i) => ({ open: i.open_time, close: i.close_time === '00:00:00' ? '24:00:00' : i.close_time })),
  }));
}
