// A company's availability generation (docs/decisions/28-availability-generation.md): the database
// moves it, by triggers, in the same transaction as every write that can change what the company's
// booking page offers. Equal generations mean none of those writes committed in between, whichever
// process made them, so an answer computed at one generation may be served while it still holds.
// Beside it the settings generation moves with the company's set-up alone (services, hours,
// overrides, staff, settings; migration 054), never with a booking.
import { arg, prepared } from './prepared.ts';
import type { DbOrTx } from './schema.ts';

const generationRow = prepared<[companyId: number], { g: number; s: number }>((db) =>
  db.selectFrom('availability_generations').select(['generation as g', 'settings_generation as s']).where('company_id', '=', arg(0)),
);

export interface Generations {
  /** Moves with every write that can change an availability answer. */
  availability: number;
  /** Moves with the company's settings only (never with a booking). */
  settings: number;
}

/** The company's generations now; undefined when there is no such company. One primary-key read. */
export async function availabilityGenerations(db: DbOrTx, companyId: number): Promise<Generations | undefined> {
  const row = (await generationRow(db, [companyId]))[0];
  return row && { availability: Number(row.g), settings: Number(row.s) };
}

/** The company's availability generation now; undefined when there is no such company. */
export async function availabilityGeneration(db: DbOrTx, companyId: number): Promise<number | undefined> {
  return (await availabilityGenerations(db, companyId))?.availability;
}
