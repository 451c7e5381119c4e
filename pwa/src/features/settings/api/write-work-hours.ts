// POST, PUT and DELETE /operating-hours: the writes that turn a person's stored rows into the
// edited week (POST /operating-hours answers the row with `id` and `hours_id`).
import { api } from '../../../lib/api-client.ts';
import { toApiTime, type HoursChange, type OperatingHoursRow } from '../../../components/weekly-hours.ts';

export function createWorkHours(companyId: number, userId: number, change: HoursChange): Promise<OperatingHoursRow> {
  return api.post<OperatingHoursRow>('/operating-hours', {
    company_id: companyId,
    user_id: userId,
    day_of_week: change.day,
    open_time: toApiTime(change.hours!.open),
    close_time: toApiTime(change.hours!.close),
    is_closed: false,
  });
}

export function updateWorkHours(change: HoursChange): Promise<OperatingHoursRow> {
  return api.put<OperatingHoursRow>(`/operating-hours/${change.row!.id}`, {
    open_time: toApiTime(change.hours!.open),
    close_time: toApiTime(change.hours!.close),
    is_closed: false,
  });
}

export function deleteWorkHours(change: HoursChange): Promise<void> {
  return api.delete(`/operating-hours/${change.row!.id}`);
}

/** Applies the changes one after another (a failure stops the rest and is reported). */
export async function applyWorkHours(companyId: number, userId: number, changes: HoursChange[]): Promise<void> {
  for (const c of changes) {
    if (c.kind === 'create') await createWorkHours(companyId, userId, c);
    else if (c.kind === 'update') await updateWorkHours(c);
    else await deleteWorkHours(c);
  }
}
