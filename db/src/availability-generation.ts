// A company's availability generation (docs/decisions/28-availability-generation.md): the database
// moves it, by triggers, in the same transaction as every write that can change what the company's
// booking page offers. Equal generations mean none of those writes committed in between, whichever
// process made them, so an answer computed at one generation may be served while it still holds.
import { arg, prepared } from './prepared.ts';
import type { DbOrTx } from './schema.ts';

const generationRow = prepared<[companyId: number], { g: number }>((db) =>
  db.selectFrom('availability_generations').select('generation as g').where('company_id', '=', arg(0)),
);

/** The company's generation now; undefined when there is no such company. One primary-key read. */
export async function availabilityGeneration(db: DbOrTx, companyId: number): Promise<number | undefined> {
  return (await generationRow(db, [companyId]))[0]?.g;
}
