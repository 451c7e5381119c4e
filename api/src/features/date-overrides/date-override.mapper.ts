// The one place a date override row becomes what the API shows; notes only for those who may read them.
import { toIso } from '@bookwell/db';
import type { DateOverrideDto } from './date-override.schema.ts';
import type { DateOverrideRow } from './date-override.repository.ts';
import { parseIntervals } from './date-override.rules.ts';

/** `showNote` false: the note is left out altogether (public readers see no notes, docs/decisions/11-scheduling-rules-beyond-spec.md). */
export function toDateOverrideDto(row: DateOverrideRow, showNote: boolean): DateOverrideDto {
  const dto: DateOverrideDto = {
    id: row.id,
    company_id: row.company_id,
    user_id: row.user_id,
    date: row.date,
    is_closed: row.is_closed === 1,
    intervals: row.is_closed === 1 ? [] : parseIntervals(row.intervals),
    created_at: toIso(row.created_at),
  };
  if (showNote) dto.note = row.note;
  return dto;
}
