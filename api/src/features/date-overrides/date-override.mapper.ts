// The one place a date override row becomes what the API shows; notes only for those who may read them.
import { toIso } from '@bookwell/db';
import type { DateOverrideDto } from './date-override.schema.ts';
import type { DateOverrideRow } from './date-override.repository.ts';
import { parseIntervals } from './date-override.rules.ts';

export function toDateOverrideDto(row: DateOverrideRow, showNote: boolean): DateOverrideDto {
  return {
    id: row.id,
    company_id: row.company_id,
    user_id: row.user_id,
    date: row.date,
    is_closed: row.is_closed === 1,
    intervals: row.is_closed === 1 ? [] : parseIntervals(row.intervals),
    note: showNote ? row.note : null,
    created_at: toIso(row.created_at),
  };
}
