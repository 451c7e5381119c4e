// The one place an operating hours row becomes what the API shows: times, their slot ids, and `hours_id`.
import type { OperatingHoursRow } from '@bookwell/db';
import type { OperatingHoursDto } from './operating-hours.schema.ts';
import { slotValueOf } from './operating-hours.rules.ts';
import type { TimeSlotIndex } from './time-slot.repository.ts';

export function toHoursDto(row: OperatingHoursRow, slots: TimeSlotIndex): OperatingHoursDto {
  return {
    id: row.id,
    hours_id: row.id,
    company_id: row.company_id,
    user_id: row.user_id,
    day_of_week: row.day_of_week,
    open_time: row.open_time,
    close_time: row.close_time,
    open_time_slot_id: slots.idOf(slotValueOf(row.open_time)),
    close_time_slot_id: slots.idOf(slotValueOf(row.close_time)),
    is_closed: row.is_closed === 1,
  };
}
