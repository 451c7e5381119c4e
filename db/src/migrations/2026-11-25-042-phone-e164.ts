// Stored phone numbers in E.164 (docs/decisions/22-messaging.md): from now on the API stores every
// number it is given as E.164 (+14155552671), the form an SMS `To` needs, so the numbers typed before
// are rewritten the same way: read with their company's `country` (US for people without a company,
// the column's default), exactly as a newly typed number would be. A number that cannot be read as a
// possible phone number ("ask at desk", "123") is KEPT AS IT IS: it was someone's note, deleting it
// would lose it, and an SMS is simply never sent to it. Versions are not raised: the appointment
// did not change, only how its number is written.
//
// This file keeps its own copy of the rule instead of importing the API's lib/phone.ts (the db
// package imports no API code, and a migration must mean the same thing forever).
import type { Kysely } from 'kysely';
import { isPossiblePhoneNumber, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

const PAGE = 500;

/** E.164 for `phone` read in `country`, or null when it is not a possible number. */
export function e164Of(phone: string, country: string | null): string | null {
  const region: CountryCode = country && isSupportedCountry(country) ? country : 'US';
  const typed = phone.trim();
  if (!typed || !isPossiblePhoneNumber(typed, region)) return null;
  return parsePhoneNumberFromString(typed, region)?.number ?? null;
}

/** Rewrites one column page by page (by id, so memory stays flat on a large table). */
async function rewrite(db: Kysely<any>, table: 'users' | 'appointments', column: 'phone' | 'customer_phone'): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: { id: number; phone: string; country: string | null }[] = await db
      .selectFrom(`${table} as t`)
      .leftJoin('companies as c', 'c.id', 't.company_id')
      .select(['t.id as id', `t.${column} as phone`, 'c.country as country'])
      .where(`t.${column}`, 'is not', null)
      .where('t.id', '>', after)
      .orderBy('t.id')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const e164 = e164Of(row.phone, row.country);
      if (e164 && e164 !== row.phone) {
        await db
          .updateTable(table)
          .set({ [column]: e164 })
          .where('id', '=', row.id)
          .execute();
      }
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await rewrite(db, 'users', 'phone');
  await rewrite(db, 'appointments', 'customer_phone');
}

/** Nothing to undo: E.164 numbers are still valid phone numbers, and the typed spelling is not kept. */
export async function down(): Promise<void> {}
