// POST /operating-hours (creates or updates the day's row: the server upserts) and
// DELETE /operating-hours/{id} for the company's hours, applied on screen at once and put back
// when the server refuses (SPEC.md section 4, DECISIONS.md section 8).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { toApiTime, type DayHours, type OperatingHoursRow } from '../../../components/weekly-hours.ts';
import { companyHoursKey } from './get-company-hours.ts';

export type CompanyHoursChange =
  | { kind: 'set'; day: number; hours: DayHours }
  | { kind: 'clear'; day: number; row: OperatingHoursRow };

export function upsertCompanyHours(companyId: number, day: number, hours: DayHours): Promise<OperatingHoursRow> {
  return api.post<OperatingHoursRow>('/operating-hours', {
    company_id: companyId,
    day_of_week: day,
    open_time: toApiTime(hours.open),
    close_time: toApiTime(hours.close),
    is_closed: false,
  });
}

export function deleteCompanyHours(rowId: number): Promise<void> {
  return api.delete(`/operating-hours/${rowId}`);
}

let tempId = -1;

export function useSaveCompanyHours(companyId: number) {
  const queryClient = useQueryClient();
  const key = companyHoursKey(companyId);
  return useMutation({
    mutationFn: async (change: CompanyHoursChange): Promise<OperatingHoursRow | null> => {
      if (change.kind === 'set') return upsertCompanyHours(companyId, change.day, change.hours);
      await deleteCompanyHours(change.row.id);
      return null;
    },
    meta: { errorBanner: false },
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<OperatingHoursRow[]>(key);
      queryClient.setQueryData<OperatingHoursRow[]>(key, (rows = []) => {
        const others = rows.filter((r) => r.day_of_week !== change.day);
        if (change.kind === 'clear') return others;
        const existing = rows.find((r) => r.day_of_week === change.day);
        return [
          ...others,
          {
            id: existing?.id ?? tempId--,
            company_id: companyId,
            user_id: null,
            day_of_week: change.day,
            open_time: toApiTime(change.hours.open),
            close_time: toApiTime(change.hours.close),
            is_closed: false,
          },
        ];
      });
      return { previous };
    },
    onError: (_err, _change, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (row, change) => {
      if (change.kind === 'set' && row && typeof row === 'object') {
        queryClient.setQueryData<OperatingHoursRow[]>(key, (rows = []) => [
          ...rows.filter((r) => r.day_of_week !== change.day),
          { ...row, user_id: null },
        ]);
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['operating-hours'] }),
  });
}
