// Availability owns the scheduling rules of docs/decisions/05-scheduling-rules.md as pure functions: which start times of one local day can be booked, and whether a staff-chosen interval conflicts, from rows the caller has already loaded.
import {
  addDays,
  dateOfWall,
  DAY,
  exactInstant,
  formatInstant,
  instantReaching,
  localDateOf,
  localDay,
  MINUTE,
  pad2,
  parseInstant,
  wallMidnight,
} from '../../lib/zoned-time.ts';
import { fullPeriods, IntervalSet, peakOverlap } from './interval-set.ts';

/** 'HH:MM' or 'HH:MM:SS' local wall time in the company zone; close '00:00' or '24:00' is the end of the day. */
export interface DayHours {
  open: string;
  close: string;
}

/** A booked appointment (ISO UTC instants). Rows with status 'cancelled' are ignored if one slips through. */
export interface BusyAppointment {
  id?: number;
  start: string;
  end: string;
  employeeId: number | null;
  serviceTypeIds: number[];
  status?: string;
}

export interface SlotQuery {
  timezone: string;
  date: string;
  now: Date;
  incrementMinutes: number;
  durationMinutes: number;
  windowDays?: number;
  companyHours: DayHours | null;
  employeeHours?: DayHours | null;
  serviceTypeId: number;
  capacity: number;
  employeeId?: number | null;
  appointments: BusyAppointment[];
  /** Stop after this many slots (1 answers "is anything left on this day?" for the date picker). */
  limit?: number;
}

/** value 'HH:MM' (local, 24h), label '9:30 AM', start/end ISO UTC. */
export interface Slot {
  value: string;
  label: string;
  start: string;
  end: string;
}

export type BookingConflict = 'capacity' | 'employee_busy';

export const DEFAULT_WINDOW_DAYS = 30;

// ---------------------------------------------------------------------------
// Parsing rows

const HOURS_RE = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** Seconds after local midnight; midnight as a closing time means the end of the day. */
function parseHoursField(value: string, field: string, isClose: boolean): number {
  const m = typeof value === 'string' ? HOURS_RE.exec(value) : null;
  if (m) {
    const h = Number(m[1]);
    const min = Number(m[2]);
    const s = m[3] === undefined ? 0 : Number(m[3]);
    const seconds = h * 3600 + min * 60 + s;
    if (min < 60 && s < 60 && seconds <= 24 * 3600) {
      return isClose && seconds === 0 ? 24 * 3600 : seconds;
    }
  }
  throw new Error(`Invalid ${field} ${JSON.stringify(value)}: expected HH:MM or HH:MM:SS`);
}

/** Whole minutes after local midnight; seconds round inwards so a slot never starts before opening or ends after closing. */
function hoursInMinutes(hours: DayHours, who: string): { open: number; close: number } {
  if (hours === null || typeof hours !== 'object') throw new Error(`Invalid ${who} hours: expected { open, close }`);
  return {
    open: Math.ceil(parseHoursField(hours.open, `${who} opening time`, false) / 60),
    close: Math.floor(parseHoursField(hours.close, `${who} closing time`, true) / 60),
  };
}

function isBooked(a: BusyAppointment): boolean {
  return a.status !== 'cancelled';
}

/** A group session needs the employee's existing appointment to be for exactly the services being booked. */
function sameServices(a: readonly number[], b: readonly number[]): boolean {
  for (const x of a) if (!b.includes(x)) return false;
  for (const x of b) if (!a.includes(x)) return false;
  return a.length > 0;
}

// ---------------------------------------------------------------------------
// Validation of numbers

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`Invalid ${name} ${String(value)}: expected a positive integer`);
  return value;
}

function windowLength(windowDays: number | undefined): number {
  const days = windowDays ?? DEFAULT_WINDOW_DAYS;
  if (!Number.isInteger(days) || days < 0) throw new Error(`Invalid windowDays ${String(days)}: expected an integer >= 0`);
  return days;
}

function clock(now: Date): number {
  const t = now instanceof Date ? now.getTime() : NaN;
  if (!Number.isFinite(t)) throw new Error('Invalid clock: now must be a valid Date');
  return t;
}
// ---------------------------------------------------------------------------
// Public API

/** Local dates today .. today + windowDays - 1 in the company's zone. */
export function windowDates(timezone: string, now: Date, windowDays: number = DEFAULT_WINDOW_DAYS): string[] {
  const days = windowLength(windowDays);
  const today = localDateOf(timezone, clock(now));
  const first = wallMidnight(today);
  const dates: string[] = [];
  for (let i = 0; i < days; i++) dates.push(dateOfWall(first + i * DAY));
  return dates;
}

/** The start times a customer may book for one service on one local date, in wall-clock order. */
export function bookableSlots(q: SlotQuery): Slot[] {
  const increment = positiveInteger(q.incrementMinutes, 'incrementMinutes');
  const duration = q.durationMinutes;
  if (!Number.isFinite(duration) || duration <= 0) {
    throw new Error(`Invalid durationMinutes ${String(duration)}: expected a positive number`);
  }
  if (!Number.isFinite(q.capacity)) throw new Error(`Invalid capacity ${String(q.capacity)}: expected a number`);
  const windowDays = windowLength(q.windowDays);
  const now = clock(q.now);
  const day = localDay(q.timezone, q.date);

  const company = q.companyHours === null ? null : hoursInMinutes(q.companyHours, 'company');
  const personal = q.employeeHours == null ? null : hoursInMinutes(q.employeeHours, 'employee');

  const today = localDateOf(q.timezone, now);
  if (q.date < today || windowDays === 0 || q.date > addDays(today, windowDays - 1)) return [];
  if (company === null || q.employeeHours === null || q.capacity < 1) return [];
  // The grid is anchored at the company's opening so every employee's slots line up with the
  // company's; personal hours only narrow which of those starts are offered.
  const openWall = Math.max(company.open, personal ? personal.open : 0);
  const closeWall = Math.min(company.close, personal ? personal.close : 24 * 60);
  if (openWall >= closeWall) return [];
  const opensAt = instantReaching(day, day.wallMidnight + openWall * MINUTE);
  const closesAt = instantReaching(day, day.wallMidnight + closeWall * MINUTE);
  const durationMs = Math.round(duration * MINUTE);

  // A start is a candidate when it exists on the local clock, is not past, and its whole duration
  // fits in the open hours; candidates are produced lazily so a caller asking for one slot stops early.
  const nextCandidate = (fromMinute: number): { minute: number; start: number } | null => {
    for (let minute = fromMinute; minute < company.close; minute += increment) {
      if (minute < openWall) continue;
      const start = exactInstant(day, day.wallMidnight + minute * MINUTE);
      if (start === null) continue; // skipped by a DST jump; a repeated time resolves to its first occurrence
      if (start < now || start < opensAt || start + durationMs > closesAt) continue;
      return { minute, start };
    }
    return null;
  };
  const first = nextCandidate(company.open);
  if (first === null) return [];

  // Rows the caller over-fetched (the query reaches back by the longest duration) are dropped before
  // sorting: nothing ending before the first candidate or starting after the day's last possible end matters.
  const earliest = first.start;
  const latest = closesAt;
  const serviceId = q.serviceTypeId;
  const employeeId = q.employeeId ?? null;
  const serviceStarts: number[] = [];
  const serviceEnds: number[] = [];
  const employeeBusy: { start: number; end: number }[] = [];
  const employeeGroups: { start: number; end: number }[] = [];
  for (const a of q.appointments) {
    const forService = a.serviceTypeIds.includes(serviceId);
    const forEmployee = employeeId !== null && a.employeeId === employeeId;
    if ((!forService && !forEmployee) || !isBooked(a)) continue;
    const start = parseInstant(a.start);
    const end = parseInstant(a.end);
    if (end <= earliest || start >= latest || end <= start) continue;
    if (forService) {
      serviceStarts.push(start);
      serviceEnds.push(end);
    }
    if (forEmployee) {
      const iv = { start, end };
      if (a.serviceTypeIds.every((id) => id === serviceId) && a.serviceTypeIds.length > 0) employeeGroups.push(iv);
      else employeeBusy.push(iv);
    }
  }
  const full = new IntervalSet(fullPeriods(serviceStarts, serviceEnds, q.capacity));
  const busy = new IntervalSet(employeeBusy);
  const groups = new IntervalSet(employeeGroups);

  const limit = q.limit ?? Infinity;
  const slots: Slot[] = [];
  for (
    let c: { minute: number; start: number } | null = first;
    c !== null && slots.length < limit;
    c = nextCandidate(c.minute + increment)
  ) {
    const start = c.start;
    const end = start + durationMs;
    if (full.overlaps(start, end) || busy.overlaps(start, end)) continue;
    // The employee may join only a session of this service that starts at the same instant.
    if (groups.runningAt(start) || groups.startsWithin(start, end)) continue;
    const minute = c.minute;
    const h = Math.floor(minute / 60);
    const mm = pad2(minute % 60);
    slots.push({
      value: `${pad2(h)}:${mm}`,
      label: `${h % 12 === 0 ? 12 : h % 12}:${mm} ${h < 12 ? 'AM' : 'PM'}`,
      start: formatInstant(start),
      end: formatInstant(end),
    });
  }
  return slots;
}

/** For staff writes (allowed outside opening hours): why [start,end) cannot be booked for these services/employee, or null if it can. */
export function bookingConflict(input: {
  start: string;
  end: string;
  serviceTypes: { id: number; capacity: number }[];
  employeeId: number | null;
  appointments: BusyAppointment[];
  ignoreAppointmentId?: number;
}): BookingConflict | null {
  const start = parseInstant(input.start);
  const end = parseInstant(input.end);
  if (end <= start) throw new Error(`Invalid booking: end ${input.end} is not after start ${input.start}`);
  for (const st of input.serviceTypes) {
    if (!Number.isFinite(st.capacity)) throw new Error(`Invalid capacity ${String(st.capacity)} for service type ${st.id}`);
  }

  const overlapping: { a: BusyAppointment; start: number; end: number }[] = [];
  for (const a of input.appointments) {
    if (!isBooked(a)) continue;
    if (input.ignoreAppointmentId !== undefined && a.id === input.ignoreAppointmentId) continue;
    const aStart = parseInstant(a.start);
    const aEnd = parseInstant(a.end);
    if (aStart < end && aEnd > start && aEnd > aStart) overlapping.push({ a, start: aStart, end: aEnd });
  }

  // Clipping to [start, end) makes the peak of the clipped intervals the peak inside the booking.
  for (const st of input.serviceTypes) {
    const starts: number[] = [];
    const ends: number[] = [];
    for (const o of overlapping) {
      if (!o.a.serviceTypeIds.includes(st.id)) continue;
      starts.push(Math.max(o.start, start));
      ends.push(Math.min(o.end, end));
    }
    if (peakOverlap(starts, ends) >= st.capacity) return 'capacity';
  }

  if (input.employeeId !== null && input.employeeId !== undefined) {
    const ids = input.serviceTypes.map((st) => st.id);
    for (const o of overlapping) {
      if (o.a.employeeId !== input.employeeId) continue;
      if (o.start !== start || !sameServices(o.a.serviceTypeIds, ids)) return 'employee_busy';
    }
  }
  return null;
}
