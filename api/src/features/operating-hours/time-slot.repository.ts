// The seeded time slots: the 96 'HH:MM' values of a day at 15-minute steps, offered by hours pickers.
import type { Selectable } from 'kysely';
import type { DbOrTx, TimeSlotTable } from '@bookwell/db';

export type TimeSlotRow = Selectable<TimeSlotTable>;

export async function listTimeSlots(db: DbOrTx): Promise<TimeSlotRow[]> {
  return db.selectFrom('time_slots').selectAll().orderBy('display_value').execute();
}

export async function findTimeSlot(db: DbOrTx, id: number): Promise<TimeSlotRow | undefined> {
  return db.selectFrom('time_slots').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Two-way lookup between slot ids and their 'HH:MM' values (96 rows: read whole, once per request). */
export interface TimeSlotIndex {
  valueOf(id: number): string | undefined;
  idOf(value: string | null): number | null;
}

export async function timeSlotIndex(db: DbOrTx): Promise<TimeSlotIndex> {
  const rows = await listTimeSlots(db);
  const byId = new Map(rows.map((r) => [r.id, r.display_value]));
  const byValue = new Map(rows.map((r) => [r.display_value, r.id]));
  return {
    valueOf: (id) => byId.get(id),
    idOf: (value) => (value == null ? null : (byValue.get(value) ?? null)),
  };
}
