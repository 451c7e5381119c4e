// Opening hours: the company's own (rows without a user_id) and each person's working hours, read
// and written under operatingHoursKeys. Times go to the API as 'HH:MM:SS' in the company's zone.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { readLocalFirst } from './local-first.ts';

export type OperatingHours = InferResponseType<(typeof client)['operating-hours']['$get'], 200>[number];

/** One weekday's hours as a form holds them: 'HH:MM'. */
export interface WallHours {
  open: string;
  close: string;
}

export const operatingHoursKeys = {
  all: ['operating-hours'] as const,
  company: (companyId: number | null) => [...operatingHoursKeys.all, 'company', companyId] as const,
  person: (companyId: number | null, userId: number) => [...operatingHoursKeys.all, 'person', companyId, userId] as const,
};

const apiTime = (hhmm: string) => `${hhmm}:00`;

async function listHours(companyId: number, userId: number | null, signal?: AbortSignal): Promise<OperatingHours[]> {
  const query = { company_id: String(companyId), ...(userId !== null ? { user_id: String(userId) } : {}) };
  const fetch = () => rpc(client['operating-hours'].$get({ query }, { init: { signal } }));
  const rows = await readLocalFirst('hours', `hours:${companyId}:${userId ?? ''}`, fetch);
  return rows.filter((r) => (userId === null ? r.user_id === null || r.user_id === undefined : r.user_id === userId));
}

/** POST /operating-hours creates the day's row, or updates it when the day has one (the server upserts). */
export function setDayHours(companyId: number, userId: number | null, day: number, hours: WallHours): Promise<OperatingHours> {
  return rpc(
    client['operating-hours'].$post({
      json: {
        company_id: companyId,
        ...(userId !== null ? { user_id: userId } : {}),
        day_of_week: day,
        open_time: apiTime(hours.open),
        close_time: apiTime(hours.close),
        is_closed: false,
      },
    }),
  );
}

export function updateDayHours(rowId: number, hours: WallHours): Promise<OperatingHours> {
  return rpc(
    client['operating-hours'][':id'].$put({
      param: { id: String(rowId) },
      json: { open_time: apiTime(hours.open), close_time: apiTime(hours.close), is_closed: false },
    }),
  );
}

export async function deleteDayHours(rowId: number): Promise<void> {
  await rpc(client['operating-hours'][':id'].$delete({ param: { id: String(rowId) } }));
}

/** What turns a person's stored rows into the edited week (see hoursChanges in components/weekly-hours.ts). */
export interface DayHoursChange {
  day: number;
  kind: 'create' | 'update' | 'delete';
  row?: { id: number };
  hours?: WallHours;
}

/** Applies a person's changes one after another (a failure stops the rest and is reported). */
export async function applyWorkHours(companyId: number, userId: number, changes: readonly DayHoursChange[]): Promise<void> {
  for (const c of changes) {
    if (c.kind === 'create') await setDayHours(companyId, userId, c.day, c.hours!);
    else if (c.kind === 'update') await updateDayHours(c.row!.id, c.hours!);
    else await deleteDayHours(c.row!.id);
  }
}

// Screens show their own failure text, hence errorBanner: false.
export const companyHoursQuery = (companyId: number) =>
  queryOptions({
    queryKey: operatingHoursKeys.company(companyId),
    queryFn: ({ signal }) => listHours(companyId, null, signal),
    meta: { errorBanner: false },
  });

export const workHoursQuery = (companyId: number | null, userId: number) =>
  queryOptions({
    queryKey: operatingHoursKeys.person(companyId, userId),
    queryFn: ({ signal }) => listHours(companyId!, userId, signal),
    enabled: companyId !== null,
    meta: { errorBanner: false },
  });

export function useCompanyHours(companyId: number) {
  return useQuery(companyHoursQuery(companyId));
}

export function useWorkHours(companyId: number | null, userId: number) {
  return useQuery(workHoursQuery(companyId, userId));
}

/**
 * One change of the company's hours. 'set' is the day's only hours (POST: the server creates or
 * replaces the day's row); with breaks (docs/decisions/11-scheduling-rules-beyond-spec.md) 'update' changes
 * one interval's row, 'add' adds an interval, 'split' makes a break in one (its row shrinks and the
 * rest is added), 'join' removes a break (the later row goes, the earlier one takes both) and
 * 'clear' removes one interval's row.
 */
export type CompanyHoursChange =
  | { kind: 'set'; day: number; hours: WallHours }
  | { kind: 'update'; day: number; row: { id: number }; hours: WallHours }
  | { kind: 'add'; day: number; hours: WallHours }
  | { kind: 'split'; day: number; row: { id: number }; first: WallHours; second: WallHours }
  | { kind: 'join'; day: number; row: { id: number }; later: { id: number }; hours: WallHours }
  | { kind: 'clear'; day: number; row: { id: number } };

let tempId = -1;
/** The temporary id each change showed its new row under (changes keep their identity through a mutation). */
const tempIdOf = new WeakMap<CompanyHoursChange, number>();
/**
 * A new interval shows at once under a temporary negative id; the server's id is recorded here when
 * it answers, so a change made on the new row before that (clearing it right after "Add break")
 * reaches the stored row. Changes run one after another (the mutation's scope), so the id is known
 * by the time a later change is sent.
 */
const realIds = new Map<number, number>();

/** The stored row's id; undefined when the row's own save failed, so it was never stored. */
const storedId = (row: { id: number }) => (row.id < 0 ? realIds.get(row.id) : row.id);

function mustBeStored(row: { id: number }): number {
  const id = storedId(row);
  if (id === undefined) throw new Error('Those hours were not saved.');
  return id;
}

function remember(change: CompanyHoursChange, row: OperatingHours): OperatingHours {
  const temp = tempIdOf.get(change);
  if (temp !== undefined) realIds.set(temp, row.id);
  return row;
}

/**
 * The company's hours, applied on screen at once and put back when the server refuses
 * (docs/product/04-states.md, docs/decisions/08-offline-pwa.md).
 */
export function useSaveCompanyHours(companyId: number) {
  const queryClient = useQueryClient();
  const key = operatingHoursKeys.company(companyId);
  return useMutation({
    scope: { id: `company-hours:${companyId}` },
    mutationFn: async (change: CompanyHoursChange): Promise<OperatingHours | null> => {
      switch (change.kind) {
        case 'set':
          return remember(change, await setDayHours(companyId, null, change.day, change.hours));
        case 'update':
          return updateDayHours(mustBeStored(change.row), change.hours);
        case 'add':
          return remember(change, await setDayHours(companyId, null, change.day, change.hours));
        case 'split':
          // Shrink first: the added interval would otherwise overlap the row and replace it.
          await updateDayHours(mustBeStored(change.row), change.first);
          return remember(change, await setDayHours(companyId, null, change.day, change.second));
        case 'join':
          // Remove the later hours first: the widened row would otherwise overlap them.
          await deleteDayHours(mustBeStored(change.later));
          return updateDayHours(mustBeStored(change.row), change.hours);
        case 'clear': {
          // Hours whose own save failed were never stored: nothing to remove.
          const id = storedId(change.row);
          if (id !== undefined) await deleteDayHours(id);
          return null;
        }
      }
    },
    meta: { errorBanner: false },
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<OperatingHours[]>(key);
      const rowOf = (id: number, hours: WallHours): OperatingHours => ({
        id,
        hours_id: id,
        company_id: companyId,
        user_id: null,
        day_of_week: change.day,
        open_time: apiTime(hours.open),
        close_time: apiTime(hours.close),
        open_time_slot_id: null,
        close_time_slot_id: null,
        is_closed: false,
      });
      const newId = () => {
        const id = tempId--;
        tempIdOf.set(change, id);
        return id;
      };
      queryClient.setQueryData<OperatingHours[]>(key, (rows = []) => {
        switch (change.kind) {
          case 'set': {
            const id = rows.find((r) => r.day_of_week === change.day)?.id ?? newId();
            return [...rows.filter((r) => r.day_of_week !== change.day), rowOf(id, change.hours)];
          }
          case 'update':
            return rows.map((r) => (r.id === change.row.id ? rowOf(r.id, change.hours) : r));
          case 'add':
            return [...rows, rowOf(newId(), change.hours)];
          case 'split':
            return [...rows.map((r) => (r.id === change.row.id ? rowOf(r.id, change.first) : r)), rowOf(newId(), change.second)];
          case 'join':
            return rows.filter((r) => r.id !== change.later.id).map((r) => (r.id === change.row.id ? rowOf(r.id, change.hours) : r));
          case 'clear':
            return rows.filter((r) => r.id !== change.row.id);
        }
      });
      return { previous };
    },
    onError: (_err, _change, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (row, change) => {
      if (change.kind === 'set' && row && typeof row === 'object') {
        queryClient.setQueryData<OperatingHours[]>(key, (rows = []) => [
          ...rows.filter((r) => r.day_of_week !== change.day),
          { ...row, user_id: null },
        ]);
      } else if ((change.kind === 'add' || change.kind === 'split') && row) {
        // The new interval's row takes its stored id at once, before the refetch below.
        const temp = tempIdOf.get(change);
        queryClient.setQueryData<OperatingHours[]>(key, (rows = []) => rows.map((r) => (r.id === temp ? { ...row, user_id: null } : r)));
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: operatingHoursKeys.all }),
  });
}
