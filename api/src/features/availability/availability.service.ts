// The booking page's availability questions: a day's bookable slots, and the days of the booking
// window that still have one, under every scheduling rule (docs/decisions/27-scheduling-rules.md:
// breaks, date overrides, buffers, minimum notice and window). They sit on the hot path, so each answer comes from a handful of bounded queries and,
// on both databases, from the change-stamped cache while it is provably current: until a write that
// can change this company's availability commits (its availability generation moves, in any process:
// docs/decisions/28-availability-generation.md), and until the clock could change it (the first
// offered start of today passing, local midnight moving the window, the subscription ending). Writes
// never read the cache: every booking re-checks availability inside its own transaction, so a cached
// answer can at worst show a time that was just taken, and only until that write lands.
import { availabilityGenerations } from '@bookwell/db';
import type { AppDeps, Actor } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { formatInstant, isoWeekday, localDay, MINUTE, parseInstant } from '../../lib/zoned-time.ts';
import { isCompanyInsider, notAcceptingBookings, subscriptionActive } from '../companies/company.rules.ts';
import {
  bookableSlots,
  firstBookableStart,
  slotsForAnyEmployee,
  startMsOf,
  windowDates,
  type BusyAppointment,
  type Candidate,
  type Slot,
  type SlotQuery,
} from './availability.ts';
import {
  employeeAppointments,
  findCompanyStaffMember,
  findCompanyWithService,
  loadSchedules,
  mergeOwn,
  qualifiedAppointments,
  qualifiedStaff,
  serviceAndEmployeeAppointments,
  serviceAppointments,
  serviceBuffers,
  slotAppointments,
  withBuffers,
  widestHold,
  type ServiceBuffers,
  type BookableService,
  type BookingCompany,
  type DaySchedule,
  type Schedules,
} from './availability.repository.ts';
import { readEveryTime, type Remember } from '../../lib/settings-memo.ts';
import { cacheKey } from '../../lib/cache-key.ts';

export type AvailabilityDeps = Pick<AppDeps, 'db' | 'now' | 'availabilityCache' | 'settingsMemo'>;

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
  /** Minimum notice applies to the public and customers only; staff keep their freedom. */
  noticeMinutes: number;
  /** The staff who perform the service (ascending ids); a chosen employee outside it is offered nothing. */
  qualified: number[];
}

/** Company, service and employee of the query, or the error the booking page shows. */
async function target(
  deps: AvailabilityDeps,
  caller: Actor | null,
  q: AvailabilityQuery,
  now: Date,
  memo: Remember | undefined,
): Promise<Target> {
  const remember = memo ?? readEveryTime;
  const employeeId = q.employee_id;
  // Read together, not one after another: each is a round trip on PostgreSQL, and a company's first
  // answer of a settings generation reads them all (docs/decisions/28-availability-generation.md,
  // "A company's first answer reads its set-up together"). Checked in the same order as before.
  const [found, staffMember, qualified] = await Promise.all([
    remember(cacheKey('service', q.service_type_id), () => findCompanyWithService(deps.db, q.company_id, q.service_type_id)),
    employeeId === undefined
      ? null
      : remember(cacheKey('staff', employeeId), () => findCompanyStaffMember(deps.db, q.company_id, employeeId)),
    remember(cacheKey('performers', q.service_type_id), () => qualifiedStaff(deps.db, q.company_id, q.service_type_id)),
  ]);
  if (!found) throw notFound('Company not found');
  // Staff still see their own calendar's availability after the subscription lapses.
  if (!isCompanyInsider(caller, found.company.id) && !subscriptionActive(found.company, now)) throw notAcceptingBookings();
  const { company, service } = found;
  if (!service) throw notFound('Service not found');
  if (employeeId !== undefined && !staffMember) throw notFound('Employee not found');
  return {
    company,
    service,
    employeeId: employeeId ?? null,
    noticeMinutes: isCompanyInsider(caller, company.id) ? 0 : company.min_notice_minutes,
    qualified,
  };
}

function slotsOf(
  t: Target,
  date: string,
  hours: DaySchedule,
  appointments: BusyAppointment[],
  now: Date,
  durationMinutes?: number,
  limit?: number,
  candidates?: Candidate[] | null,
  anyWillDo = false,
) {
  const q = slotQuery(t, date, hours, appointments, now, durationMinutes, limit);
  // Without a chosen employee the server will pick a qualified one: a time is offered if someone can take it.
  return candidates ? slotsForAnyEmployee(q, candidates, anyWillDo) : bookableSlots(q);
}

/** The first start slotsOf would offer (epoch ms), or null: whether the date has anything left. */
function firstStartOf(t: Target, date: string, hours: DaySchedule, appointments: BusyAppointment[], now: Date, durationMinutes?: number) {
  return firstBookableStart(slotQuery(t, date, hours, appointments, now, durationMinutes, undefined));
}

function slotQuery(
  t: Target,
  date: string,
  hours: DaySchedule,
  appointments: BusyAppointment[],
  now: Date,
  durationMinutes: number | undefined,
  limit: number | undefined,
): SlotQuery {
  return {
    timezone: t.company.timezone,
    date,
    now,
    windowDays: t.company.booking_window_days,
    minNoticeMinutes: t.noticeMinutes,
    incrementMinutes: t.company.time_increment_minutes,
    durationMinutes: durationMinutes ?? t.service.duration_minutes,
    companyHours: hours.company,
    employeeHours: hours.employee,
    serviceTypeId: t.service.id,
    capacity: t.service.available_slots,
    bufferBeforeMinutes: t.service.buffer_before_minutes,
    bufferAfterMinutes: t.service.buffer_after_minutes,
    employeeId: t.employeeId,
    appointments,
    limit,
  };
}

/** The qualified staff and their hours on `date`, when no employee was chosen. */
function candidatesOn(t: Target, schedules: Schedules, date: string, weekday: number): Candidate[] | null {
  if (t.employeeId !== null) return null;
  return t.qualified.map((id) => ({ id, hours: schedules.forDate(date, weekday, id).employee }));
}

/** The query's company, service and employee, and the clock's view of them: now and the local dates of the booking window. */
async function resolve(deps: AvailabilityDeps, caller: Actor | null, q: AvailabilityQuery, memo: Remember | undefined) {
  const at = deps.now();
  const t = await target(deps, caller, q, at, memo);
  return { t, at, tz: t.company.timezone, window: windowDates(t.company.timezone, at, t.company.booking_window_days) };
}

/**
 * How far a read for this service's slots reaches past the days asked: a slot's hold (its own
 * buffers) can meet a neighbour's hold (at most the company's widest buffers) on either side.
 */
function reachOf(t: Target, buffers: ServiceBuffers): { beforeMinutes: number; afterMinutes: number } {
  const widest = widestHold(buffers);
  return {
    beforeMinutes: (t.service.buffer_before_minutes ?? 0) + widest.after,
    afterMinutes: (t.service.buffer_after_minutes ?? 0) + widest.before,
  };
}

/**
 * The bookings that can touch the local days `first` to `last`, each with the hold of its buffers: one
 * read bounded at both ends, reaching as far as holds can meet (`reach`, a booking starting after the
 * last day can hold time before it).
 */
function rangeOver(t: Target, first: string, last: string, reach: { beforeMinutes: number; afterMinutes: number }) {
  const tz = t.company.timezone;
  return {
    companyId: t.company.id,
    startFrom: formatInstant(localDay(tz, first).start - Math.max(0, t.company.longest_appointment_minutes + reach.beforeMinutes) * MINUTE),
    startBefore: formatInstant(localDay(tz, last).end + reach.afterMinutes * MINUTE),
  };
}

/** The company's services with buffers, once per settings generation with a memo. */
function buffersOf(deps: AvailabilityDeps, companyId: number, memo: Remember | undefined) {
  return (memo ?? readEveryTime)('buffers', () => serviceBuffers(deps.db, companyId));
}

async function busyOver(
  deps: AvailabilityDeps,
  t: Target,
  first: string,
  last: string,
  buffers: ServiceBuffers,
): Promise<BusyAppointment[]> {
  // The buffers bound the range read.
  const range = rangeOver(t, first, last, reachOf(t, buffers));
  // "Any employee" needs the appointments of the staff who perform the service and the service's
  // bookings, never the rest of the company's day.
  const busy =
    t.employeeId === null
      ? await qualifiedAppointments(deps.db, { ...range, serviceTypeId: t.service.id })
      : await slotAppointments(deps.db, { ...range, serviceTypeId: t.service.id, employeeId: t.employeeId });
  return withBuffers(busy, buffers);
}

/** The first instant at which the clock alone could change an answer computed now. */
function clockLimit(t: Target, window: string[], firstOfferedStart: string | undefined): number {
  let until = localDay(t.company.timezone, window[0]).end;
  // The earliest offered start is the first to fall inside the notice period.
  if (firstOfferedStart) until = Math.min(until, parseInstant(firstOfferedStart) - t.noticeMinutes * 60_000);
  if (t.company.subscription_expires_at) until = Math.min(until, parseInstant(t.company.subscription_expires_at));
  return until;
}

/**
 * The JSON text of the answer: from the cache when it has one for this exact question computed at
 * the company's current availability generation, or computed from reads made after the
 * generations were read (one primary-key read for both), and offered to the cache under it
 * (docs/decisions/28-availability-generation.md). The computation reads the company's set-up
 * through the settings memo at the settings generation read here (settings-memo.ts).
 */
async function cachedJson(
  deps: AvailabilityDeps,
  companyId: number,
  key: string,
  compute: (memo: Remember | undefined) => Promise<{ body: unknown; validUntil: number }>,
): Promise<string> {
  const cache = deps.availabilityCache;
  const at = deps.now().getTime();
  const generations = cache || deps.settingsMemo ? await availabilityGenerations(deps.db, companyId) : undefined;
  let text = generations === undefined || !cache ? undefined : cache.get(key, generations.availability, at);
  if (text === undefined) {
    const memo = generations && deps.settingsMemo ? deps.settingsMemo.forCompany(companyId, generations.settings) : undefined;
    const { body, validUntil } = await compute(memo);
    text = JSON.stringify(body);
    if (generations !== undefined && cache) cache.set(key, generations.availability, text, validUntil, at);
  }
  return text;
}

/** `{ slots }` as JSON text: the start times that can be booked for one service on one company-local date. */
export function availableSlotsJson(deps: AvailabilityDeps, caller: Actor | null, q: AvailabilityQuery & { date: string }): Promise<string> {
  const key = cacheKey(
    'slots',
    q.company_id,
    q.service_type_id,
    q.employee_id,
    q.date,
    q.duration_minutes,
    isCompanyInsider(caller, q.company_id) ? 1 : 0,
  );
  return cachedJson(deps, q.company_id, key, async (memo) => {
    const { t, at, tz, window } = await resolve(deps, caller, q, memo);
    const answer = (slots: Slot[]) => ({
      body: { slots },
      validUntil: clockLimit(t, window, slots[0]?.start),
    });
    if (q.date < window[0] || q.date > window[window.length - 1]) return answer([]);
    if (t.employeeId !== null && !t.qualified.includes(t.employeeId)) return answer([]);
    const weekday = isoWeekday(tz, q.date);
    // Only the hours of whoever can take the booking: the chosen employee, or the service's performers that weekday.
    const people = t.employeeId === null ? { serviceTypeId: t.service.id, weekday } : { employeeId: t.employeeId };
    // The hours and the buffers (from the memo, usually) read together.
    const [schedules, buffers] = await Promise.all([
      loadSchedules(deps.db, t.company.id, q.date, q.date, people, memo, { from: window[0], to: window[window.length - 1] }),
      buffersOf(deps, t.company.id, memo),
    ]);
    const hours = schedules.forDate(q.date, weekday, t.employeeId);
    if (hours.company.length === 0 || hours.employee?.length === 0) return answer([]);
    const busy = await busyOver(deps, t, q.date, q.date, buffers);
    return answer(slotsOf(t, q.date, hours, busy, at, q.duration_minutes, undefined, candidatesOn(t, schedules, q.date, weekday)));
  });
}

/** `{ dates }` as JSON text: the company-local dates of the booking window that still have at least one free slot. */
export function availableDatesJson(deps: AvailabilityDeps, caller: Actor | null, q: AvailabilityQuery): Promise<string> {
  const key = cacheKey(
    'dates',
    q.company_id,
    q.service_type_id,
    q.employee_id,
    q.duration_minutes,
    isCompanyInsider(caller, q.company_id) ? 1 : 0,
  );
  return cachedJson(deps, q.company_id, key, async (memo) => {
    const { t, at, tz, window } = await resolve(deps, caller, q, memo);
    if (window.length === 0) return { body: { dates: [] }, validUntil: clockLimit(t, windowDates(tz, at, 1), undefined) };
    if (t.employeeId !== null && !t.qualified.includes(t.employeeId))
      return { body: { dates: [] }, validUntil: clockLimit(t, window, undefined) };
    // The candidates' own hours are read as each is asked (datesWithSlot), usually one or two of them.
    // The hours and the buffers (from the memo, usually) read together.
    const [schedules, buffers] = await Promise.all([
      loadSchedules(deps.db, t.company.id, window[0], window[window.length - 1], false, memo),
      buffersOf(deps, t.company.id, memo),
    ]);
    const weekdays = new Map(window.map((date) => [date, isoWeekday(tz, date)]));
    const open = window.filter((date) => schedules.forDate(date, weekdays.get(date)!, null).company.length > 0);
    const { dates, firstOffered } = await datesWithSlot(deps, t, schedules, weekdays, open, at, q.duration_minutes, buffers);
    return { body: { dates }, validUntil: clockLimit(t, window, firstOffered) };
  });
}

/**
 * The open dates on which someone who can take the booking (the chosen employee, or one of the
 * service's performers for "any employee") has a slot. The service's bookings over the dates are
 * one read; then each candidate in turn reads their own appointments over the dates still
 * undecided (one read each) and every such date stops at its first slot, so a date is settled by
 * the first candidate free that day and usually the first candidate settles nearly every date.
 * The first slot found on the earliest date bounds the cache: every offered time on a later date
 * comes after it, and the earliest date keeps a slot until it passes.
 */
async function datesWithSlot(
  deps: AvailabilityDeps,
  t: Target,
  schedules: Schedules,
  weekdays: ReadonlyMap<string, number>,
  open: string[],
  at: Date,
  durationMinutes: number | undefined,
  buffers: ServiceBuffers,
): Promise<{ dates: string[]; firstOffered: string | undefined }> {
  if (open.length === 0) return { dates: [], firstOffered: undefined };
  const tz = t.company.timezone;
  const reach = reachOf(t, buffers);
  const lookbackMs = (Math.max(0, t.company.longest_appointment_minutes) + reach.beforeMinutes) * 60_000;
  const lookaheadMs = reach.afterMinutes * 60_000;
  const candidates = t.employeeId === null ? t.qualified : [t.employeeId];
  // The service's bookings and the first candidate's own appointments over the whole window, in one
  // read (one round trip on PostgreSQL); the first candidate needs only its working dates' share,
  // which the per-date slices below take. Later candidates read their own when they are reached.
  const window = { ...rangeOver(t, open[0], open[open.length - 1], reach), serviceTypeId: t.service.id };
  const read =
    candidates.length > 0
      ? await serviceAndEmployeeAppointments(deps.db, { ...window, employeeId: candidates[0] })
      : { service: await serviceAppointments(deps.db, window), own: [] };
  const service = withBuffers(read.service, buffers);
  // Employees only take slots away: a date without a slot for the service alone (capacity, hours,
  // notice; today after closing) has none for anyone. Asked once, of the dates the first candidate
  // left undecided, so later candidates read nothing for them.
  const anyone: Target = { ...t, employeeId: null };
  const serviceAlone = (dates: string[]) => {
    const byDay = dayShares(tz, service, lookbackMs, lookaheadMs);
    return dates.filter(
      (date) => firstStartOf(anyone, date, schedules.forDate(date, weekdays.get(date)!, null), byDay(date), at, durationMinutes) !== null,
    );
  };
  let undecided = open;
  const found = new Map<string, number>();
  for (let k = 0; k < candidates.length && undecided.length > 0; k++) {
    const id = candidates[k];
    if (k === 1) undecided = serviceAlone(undecided);
    await schedules.addPerson(id);
    const mine = undecided.filter((date) => schedules.forDate(date, weekdays.get(date)!, id).employee?.length !== 0);
    if (mine.length === 0) continue;
    const own = withBuffers(
      k === 0 ? read.own : await employeeAppointments(deps.db, { ...rangeOver(t, mine[0], mine[mine.length - 1], reach), employeeId: id }),
      buffers,
    );
    const share = dayShares(tz, mergeOwn(own, service), lookbackMs, lookaheadMs);
    const one: Target = { ...t, employeeId: id };
    for (const date of mine) {
      const first = firstStartOf(one, date, schedules.forDate(date, weekdays.get(date)!, id), share(date), at, durationMinutes);
      if (first !== null) found.set(date, first);
    }
    undecided = undecided.filter((date) => !found.has(date));
  }
  const dates = open.filter((date) => found.has(date));
  return { dates, firstOffered: dates.length ? formatInstant(found.get(dates[0])!) : undefined };
}

/**
 * Bookings in start order (as read, usually: then nothing is sorted); each local date then takes the
 * share that can touch it by binary search.
 */
function dayShares(tz: string, busy: BusyAppointment[], lookbackMs: number, lookaheadMs: number) {
  let sorted = busy;
  for (let i = 1; i < busy.length; i++) {
    if (startMsOf(busy[i]) < startMsOf(busy[i - 1])) {
      sorted = busy.slice().sort((x, y) => startMsOf(x) - startMsOf(y));
      break;
    }
  }
  const sortedStarts = new Float64Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) sortedStarts[i] = startMsOf(sorted[i]);
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
  return (date: string) => {
    const day = localDay(tz, date);
    return sorted.slice(lowerBound(day.start - lookbackMs), lowerBound(day.end + lookaheadMs));
  };
}
