// The fixed 15-minute grid of a day that hours pickers offer (seeded by a migration, read-only).
import type { DbOrTx } from '@bookwell/db';
import { notFound } from '../../lib/errors.ts';
import { findTimeSlot, listTimeSlots, type TimeSlotRow } from './time-slot.repository.ts';

export const timeSlots = (db: DbOrTx): Promise<TimeSlotRow[]> => listTimeSlots(db);

export async function timeSlot(db: DbOrTx, id: number): Promise<TimeSlotRow> {
  const slot = await findTimeSlot(db, id);
  if (!slot) throw notFound('Time slot not found');
  return slot;
}
