// The public availability endpoints: a day's bookable slots and the next 30 days that still have one.
// They sit on the booking page's hot path, so each answers from a handful of bounded queries, with
// nothing cached across requests (a cache would outlive the writes that change the answer).
import type { Context, TypedResponse } from 'hono';
import type { z } from 'zod';
import { isStaff } from '../../lib/authorize.ts';
import type { AppEnv } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { ErrorSchema } from '../../lib/validation.ts';
import { subscriptionActive } from '../companies/company.repository.ts';
import { hoursForDay, hoursForWeek } from '../operating-hours/operating-hours.repository.ts';
import { DatesQuery, DatesResponse, SlotsQuery, SlotsResponse } from './availability.schema.ts';
import { notAcceptingBookings } from '../appointments/appointment.service.ts';
import { isoWeekday, localDayBounds, parseInstant } from '../../lib/zoned-time.ts';
import { bookableSlots, windowDates, type BusyAppointment, type Slot } from './availability.ts';
import { slotAppointments, findCompanyStaffMember, findCompanyWithService, startBound, type BookableService, type BookingCompany } from './availability.repository.ts';

const errorResponses = {
  403: jsonResponse(ErrorSchema, 'The business is not taking online bookings (code not_accepting_bookings)'),
  404: jsonResponse(ErrorSchema, 'Unknown company, service or employee'),
};

const availableSlots = defineRoute({
  method: 'get', path: '/appointments/available-slots', access: 'public', tags: ['availability'],
  summary: 'Start times that can be booked for one service on one company-local date',
  request: { query: SlotsQuery },
  responses: { 200: jsonResponse(SlotsResponse, "The day's free slots, in time order"), ...errorResponses },
});

const availableDates = defineRoute({
  method: 'get', path: '/appointments/available-dates', access: 'public', tags: ['availability'],
  summary: 'The dates of the next 30 company-local days that still have at least one free slot',
  request: { query: DatesQuery },
  responses: { 200: jsonResponse(DatesResponse, 'Dates as YYYY-MM-DD'), ...errorResponses },
});

interface Target {
  company: BookingCompany;
  service: BookableService;
  employeeId: number | null;
}

/** Company, service and employee of the query, or the error the booking page shows. */
async function target(c: Context<AppEnv>, q: { company_id: number; service_type_id: number; employee_id?: number }, now: Date): Promise<Target> {
  const { db } = c.get('deps');
  const found = await findCompanyWithService(db, q.company_id, q.service_type_id);
  if (!found) throw notFound('Company not found');
  // Staff still see their own calendar's availability after the subscription lapses.
  if (!insiderOf(c, found.company.id) && !subscriptionActive(found.company, now)) throw notAcceptingBookings();
  if (!found.service) throw notFound('Service not found');
  if (q.employee_id !== undefined && !(await findCompanyStaffMember(db, found.company.id, q.employee_id))) {
    throw notFound('Employee not found');
  }
  return { company: found.company, service: found.service, employeeId: q.employee_id ?? null };
}

function slotsOf(t: Target, date: string, hours: { company: { open: string; close: string } | null; employee?: { open: string; close: string } | null },
  appointments: BusyAppointment[], now: Date, durationMinutes?: number, limit?: number) {
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
async function resolve(c: Context<AppEnv>, q: { company_id: number; service_type_id: number; employee_id?: number }) {
  const at = c.get('deps').now();
  const t = await target(c, q, at);
  return { t, at, tz: t.company.timezone, window: windowDates(t.company.timezone, at) };
}

/** The bookings that can touch the local days `first` to `last`: one read bounded at both ends. */
function busyOver(c: Context<AppEnv>, t: Target, first: string, last: string): Promise<BusyAppointment[]> {
  const tz = t.company.timezone;
  return slotAppointments(c.get('deps').db, {
    companyId: t.company.id,
    startFrom: startBound(localDayBounds(tz, first).start, t.company.longest_appointment_minutes),
    startBefore: localDayBounds(tz, last).end,
    serviceTypeId: t.service.id,
    employeeId: t.employeeId,
  });
}

/** Whether the caller sees the company's availability even when its subscription has lapsed. */
function insiderOf(c: Context<AppEnv>, companyId: number): boolean {
  const actor = c.get('actor');
  return actor !== null && (actor.role === 'global_admin' || (isStaff(actor.role) && actor.company_id === companyId));
}

/** The first instant at which the clock alone could change an answer computed now (see availability.cache.ts). */
function clockLimit(t: Target, window: string[], firstStartToday: string | undefined): number {
  let until = parseInstant(localDayBounds(t.company.timezone, window[0]).end);
  if (firstStartToday) until = Math.min(until, parseInstant(firstStartToday));
  if (t.company.subscription_expires_at) until = Math.min(until, parseInstant(t.company.subscription_expires_at));
  return until;
}

/**
 * Answers from the cache when it has a current answer for this exact question, or computes one
 * (reads made after the change stamp is taken) and offers it to the cache. The body is JSON text
 * either way, so a cached answer is not serialised again.
 */
async function cachedJson(c: Context<AppEnv>, key: string, compute: () => Promise<{ body: unknown; validUntil: number }>): Promise<Response> {
  const { availabilityCache: cache, now } = c.get('deps');
  const at = now().getTime();
  let text = cache?.get(key, at);
  if (text === undefined) {
    const stamp = cache?.stamp();
    const { body, validUntil } = await compute();
    text = JSON.stringify(body);
    if (cache && stamp !== undefined) cache.set(key, stamp, text, validUntil, at);
  }
  return c.body(text, 200, { 'Content-Type': 'application/json' });
}

export const availabilityRoutes = createRouter()
  .openapi(availableSlots, async (c) => {
    const q = c.req.valid('query');
    const key = `slots|${q.company_id}|${q.service_type_id}|${q.employee_id ?? ''}|${q.date}|${q.duration_minutes ?? ''}|${insiderOf(c, q.company_id) ? 1 : 0}`;
    // The typed client reads this route's 200 as SlotsResponse, which is what the JSON text holds.
    return cachedJson(c, key, async () => {
      const { db } = c.get('deps');
      const { t, at, tz, window } = await resolve(c, q);
      const answer = (slots: Slot[]) => ({ body: { slots }, validUntil: clockLimit(t, window, q.date === window[0] ? slots[0]?.start : undefined) });
      if (q.date < window[0] || q.date > window[window.length - 1]) return answer([]);
      const hours = await hoursForDay(db, t.company.id, isoWeekday(tz, q.date), t.employeeId);
      if (!hours.company || hours.employee === null) return answer([]);
      const busy = await busyOver(c, t, q.date, q.date);
      return answer(slotsOf(t, q.date, hours, busy, at, q.duration_minutes));
    }) as unknown as TypedResponse<z.infer<typeof SlotsResponse>, 200, 'json'>;
  })
  .openapi(availableDates, async (c) => {
    const q = c.req.valid('query');
    const key = `dates|${q.company_id}|${q.service_type_id}|${q.employee_id ?? ''}|${q.duration_minutes ?? ''}|${insiderOf(c, q.company_id) ? 1 : 0}`;
    return cachedJson(c, key, async () => {
      const { db } = c.get('deps');
      const { t, at, tz, window } = await resolve(c, q);
      const week = await hoursForWeek(db, t.company.id, t.employeeId);
      const open = window.filter((date) => {
        const h = week[isoWeekday(tz, date)];
        return h.company !== null && h.employee !== null;
      });
      if (open.length === 0) return { body: { dates: [] }, validUntil: clockLimit(t, window, undefined) };

      const lookbackMs = Math.max(0, t.company.longest_appointment_minutes) * 60_000;
      // One bounded query for the whole window, then each day takes its share by binary search.
      const busy = await busyOver(c, t, open[0], open[open.length - 1]);
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
    }) as unknown as TypedResponse<z.infer<typeof DatesResponse>, 200, 'json'>;
  });
