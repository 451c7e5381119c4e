// The booking page's availability questions: a day's bookable slots, and the next 30 days that still
// have one. They sit on the hot path, so each answer comes from a handful of bounded queries and, where
// the database offers a change stamp (SQLite), from the change-stamped cache while it is provably
// current: until any write, and until the clock could change it (the first offered start of today
// passing, local midnight moving the 30-day window, the subscription ending). Writes never read the
// cache: every booking re-checks availability inside its own transaction, so a cached answer can at
// worst show a time that was just taken, and only until that write lands. PostgreSQL has no cheap
// change counter across processes, so there every answer is computed.
import type { AppDeps, Actor } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { isoWeekday, localDayBounds, parseInstant } from '../../lib/zoned-time.ts';
import { isCompanyInsider, notAcceptingBookings, subscriptionActive } from '../companies/company.rules.ts';
import { hoursForDay, hoursForWeek } from '../operating-hours/operating-hours.repository.ts';
import { bookableSlots, windowDates, type BusyAppointment, type DayHours, type Slot } from './availability.ts';
import {
  findCompanyStaffMember,
  findCompanyWithService,
  slotAppointments,
  startBound,
  type BookableService,
  type BookingCompany,
} from './availability.repository.ts';

export type AvailabilityDeps = Pick<AppDeps, 'db' | 'now' | 'availabilityCache'>;

export interface AvailabilityQuery {
  company_id: number;
  service_type_id: number;
  employee_id?: number;
  duration_minutes?: number;
}

interface Target {
  company: BookingCompany;
  service: BookableService;
  employeeId: number | null;
}

/** Company, service and employee of the query, or the error the booking page shows. */
async function target(deps: AvailabilityDeps, caller: Actor | null, q: AvailabilityQuery, now: Date): Promise<Target> {
  const found = await findCompanyWithService(deps.db, q.company_id, q.service_type_id);
  if (!found) throw notFound('Company not found');
  // Staff still see their own calendar's availability after the subscription lapses.
  if (!isCompanyInsider(caller, found.company.id) && !subscriptionActive(found.company, now)) throw notAcceptingBookings();
  if (!found.service) throw notFound('Service not found');
  if (q.employee_id !== undefined && !(await findCompanyStaffMember(deps.db, found.company.id, q.employee_id))) {
    throw notFound('Employee not found');
  }
  return { company: found.company, service: found.service, employeeId: q.employee_id ?? null };
}

function slotsOf(
  t: Target,
  date: string,
  hours: { company: DayHours | null; employee?: DayHours | null },
  appointments: BusyAppointment[],
  now: Date,
  durationMinutes?: number,
  limit?: number,
) {
  return bookableSlots({
    timezone: t.company.timezone,
    date,
    now,
    incrementMinutes: t.company.time_increment_minutes,
    durationMinutes: durationMinutes ?? t.service.duration_minutes,
    companyHours: hours.company,
    employeeHours: hours.employee,
    serviceTypeId: t.service.id,
    capacity: t.service.available_slots,
    employeeId: t.employeeId,
    appointments,
    limit,
  });
}

/** The query's company, service and employee, and the clock's view of them: now and the 30 local dates from today. */
async function resolve(deps: AvailabilityDeps, caller: Actor | null, q: AvailabilityQuery) {
  const at = deps.now();
  const t = await target(deps, caller, q, at);
  return { t, at, tz: t.company.timezone, window: windowDates(t.company.timezone, at) };
}

/** The bookings that can touch the local days `first` to `last`: one read bounded at both ends. */
function busyOver(deps: AvailabilityDeps, t: Target, first: string, last: string): Promise<BusyAppointment[]> {
  const tz = t.company.timezone;
  return slotAppointments(deps.db, {
    companyId: t.company.id,
    startFrom: startBound(localDayBounds(tz, first).start, t.company.longest_appointment_minutes),
    startBefore: localDayBounds(tz, last).end,
    serviceTypeId: t.service.id,
    employeeId: t.employeeId,
  });
}

/** The first instant at which the clock alone could change an answer computed now. */
function clockLimit(t: Target, window: string[], firstStartToday: string | undefined): number {
  let until = parseInstant(localDayBounds(t.company.timezone, window[0]).end);
  if (firstStartToday) until = Math.min(until, parseInstant(firstStartToday));
  if (t.company.subscription_expires_at) until = Math.min(until, parseInstant(t.company.subscription_expires_at));
  return until;
}

/**
 * The JSON text of the answer: from the cache when it has a current one for this exact question, or
 * computed (reads made after the change stamp is taken) and offered to the cache.
 */
async function cachedJson(
  deps: AvailabilityDeps,
  key: string,
  compute: () => Promise<{ body: unknown; validUntil: number }>,
): Promise<string> {
  const cache = deps.availabilityCache;
  const at = deps.now().getTime();
  let text = cache?.get(key, at);
  if (text === undefined) {
    const stamp = cache?.stamp();
    const { body, validUntil } = await compute();
    text = JSON.stringify(body);
    if (cache && stamp !== undefined) cache.set(key, stamp, text, validUntil, at);
  }
  return text;
}

/** `{ slots }` as JSON text: the start times that can be booked for one service on one company-local date. */
export function availableSlotsJson(deps: AvailabilityDeps, caller: Actor | null, q: AvailabilityQuery & { date: string }): Promise<string> {
  const key = `slots|${q.company_id}|${q.service_type_id}|${q.employee_id ?? ''}|${q.date}|${q.duration_minutes ?? ''}|${isCompanyInsider(caller, q.company_id) ? 1 : 0}`;
  return cachedJson(deps, key, async () => {
    const { t, at, tz, window } = await resolve(deps, caller, q);
    const answer = (slots: Slot[]) => ({
      body: { slots },
      validUntil: clockLimit(t, window, q.date === window[0] ? slots[0]?.start : undefined),
    });
    if (q.date < window[0] || q.date > window[window.length - 1]) return answer([]);
    const hours = await hoursForDay(deps.db, t.company.id, isoWeekday(tz, q.date), t.employeeId);
    if (!hours.company || hours.employee === null) return answer([]);
    const busy = await busyOver(deps, t, q.date, q.date);
    return answer(slotsOf(t, q.date, hours, busy, at, q.duration_minutes));
  });
}

/** `{ dates }` as JSON text: the dates of the next 30 company-local days that still have at least one free slot. */
export function availableDatesJson(deps: AvailabilityDeps, caller: Actor | null, q: AvailabilityQuery): Promise<string> {
  const key = `dates|${q.company_id}|${q.service_type_id}|${q.employee_id ?? ''}|${q.duration_minutes ?? ''}|${isCompanyInsider(caller, q.company_id) ? 1 : 0}`;
  return cachedJson(deps, key, async () => {
    const { t, at, tz, window } = await resolve(deps, caller, q);
    const week = await hoursForWeek(deps.db, t.company.id, t.employeeId);
    const open = window.filter((date) => {
      const h = week[isoWeekday(tz, date)];
      return h.company !== null && h.employee !== null;
    });
    if (open.length === 0) return { body: { dates: [] }, validUntil: clockLimit(t, window, undefined) };

    const lookbackMs = Math.max(0, t.company.longest_appointment_minutes) * 60_000;
    // One bounded query for the whole window, then each day takes its share by binary search.
    const busy = await busyOver(deps, t, open[0], open[open.length - 1]);
    const starts = busy.map((a) => parseInstant(a.start));
    const order = starts.map((_, i) => i).sort((x, y) => starts[x] - starts[y]);
    const sortedStarts = order.map((i) => starts[i]);
    const sorted = order.map((i) => busy[i]);
    const lowerBound = (x: number) => {
      let lo = 0;
      let hi = sortedStarts.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sortedStarts[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };

    const dates: string[] = [];
    let firstStartToday: string | undefined;
    for (const date of open) {
      const day = localDayBounds(tz, date);
      const from = lowerBound(parseInstant(day.start) - lookbackMs);
      const to = lowerBound(parseInstant(day.end));
      const slots = slotsOf(t, date, week[isoWeekday(tz, date)], sorted.slice(from, to), at, q.duration_minutes, 1);
      if (slots.length) dates.push(date);
      if (date === window[0]) firstStartToday = slots[0]?.start;
    }
    return { body: { dates }, validUntil: clockLimit(t, window, firstStartToday) };
  });
}
