// Availability owns the scheduling rules of DECISIONS.md §5 as pure functions: which start times of one local day can be booked, and whether a staff-chosen interval conflicts, from rows the caller has already loaded.
import { IANAZone } from 'luxon';

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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------
// Calendar dates (zone-free arithmetic on 'YYYY-MM-DD')

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil); Date.UTC is 4x slower and maps years 0-99 to the 1900s. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
  if (!(mo >= 1 && mo <= 12 && d >= 1 && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59 && ms >= 0 && ms <= 999)) {
    return NaN;
  }
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (!(d <= DAYS_IN_MONTH[mo - 1] + (leap ? 1 : 0))) return NaN;
  return daysFromCivil(y, mo, d) * DAY + h * HOUR + mi * MINUTE + s * 1000 + ms;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight of a calendar date read as if it were UTC: the "wall clock" origin of that local day. */
function wallMidnight(date: string): number {
  const m = typeof date === 'string' ? DATE_RE.exec(date) : null;
  if (m) {
    const t = utcMillis(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, 0);
    if (Number.isFinite(t)) return t;
  }
  throw new Error(`Invalid date ${JSON.stringify(date)}: expected an existing calendar date as YYYY-MM-DD`);
}

/** 'YYYY-MM-DD' of a wall-clock instant (Hinnant's civil_from_days; Date#toISOString was a twentieth of a slots request). */
function dateOfWall(wall: number): string {
  const z = Math.floor(wall / DAY) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  if (y < 0 || y > 9999) return new Date(wall).toISOString().slice(0, 10);
  return `${y < 1000 ? String(y).padStart(4, '0') : y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

function addDays(date: string, days: number): string {
  return dateOfWall(wallMidnight(date) + days * DAY);
}

// ---------------------------------------------------------------------------
// Time zones
//
// Luxon answers "what is the UTC offset at instant t" (IANAZone.offset). Building a luxon DateTime per
// candidate costs ~20 µs and resolves a repeated wall time according to the offset in force *today*
// (its first guess comes from the current clock), so each local day is reduced once to the few spans
// of constant offset that luxon reports, and wall times are resolved against those spans.

interface OffsetSpan {
  from: number; // UTC ms, inclusive (-Infinity for the first span)
  to: number; // UTC ms, exclusive (Infinity for the last span)
  offset: number; // ms to add to UTC to get local wall time
}

interface LocalDay {
  wallMidnight: number;
  spans: OffsetSpan[];
  start: number; // first instant of the local day
  end: number; // first instant of the next local day
}

function zoneOf(timezone: string): IANAZone {
  if (typeof timezone === 'string' && timezone !== '') {
    const zone = IANAZone.create(timezone);
    if (zone.isValid) return zone;
  }
  throw new Error(`Invalid time zone ${JSON.stringify(timezone)}: expected an IANA name such as 'Europe/London'`);
}

function offsetAt(zone: IANAZone, t: number): number {
  return Math.round(zone.offset(t) * MINUTE);
}

// Real offsets lie within -12h..+14h, so every instant whose local date is the given one (and the
// next day's start) lies in [wall midnight - 15h, wall midnight + 39h]. Sampling every 12 hours
// assumes no zone changes its offset twice within 12 hours, which holds for the tz database.
const SPAN_BEFORE = 15 * HOUR;
const SPAN_AFTER = 39 * HOUR;
const SAMPLE_STEP = 12 * HOUR;

function offsetSpans(zone: IANAZone, from: number, to: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  let spanFrom = -Infinity;
  let lo = from;
  let current = offsetAt(zone, lo);
  while (lo < to) {
    const hi = Math.min(lo + SAMPLE_STEP, to);
    if (offsetAt(zone, hi) === current) {
      lo = hi;
      continue;
    }
    // Bisect to the millisecond: the transition is the first instant whose offset differs.
    let a = lo;
    let b = hi;
    while (b - a > 1) {
      const mid = a + Math.floor((b - a) / 2);
      if (offsetAt(zone, mid) === current) a = mid;
      else b = mid;
    }
    spans.push({ from: spanFrom, to: b, offset: current });
    spanFrom = b;
    current = offsetAt(zone, b);
    lo = b;
  }
  spans.push({ from: spanFrom, to: Infinity, offset: current });
  return spans;
}

/** The first instant whose local wall time is `wall`, or null when that wall time is skipped (DST gap). */
function exactInstant(day: LocalDay, wall: number): number | null {
  for (const s of day.spans) {
    const t = wall - s.offset;
    if (t >= s.from && t < s.to) return t;
  }
  return null;
}

/** The first instant at which the local clock shows `wall` or later: a closing time inside a DST gap closes at the jump. */
function instantReaching(day: Pick<LocalDay, 'spans'>, wall: number): number {
  for (const s of day.spans) {
    const t = wall - s.offset;
    if (t < s.to) return Math.max(t, s.from);
  }
  throw new Error('unreachable: the last offset span is unbounded');
}

// Days are recomputed for every request otherwise; luxon's offset lookup costs several µs per call.
// The cache only memoises a pure function of (zone, date), so it cannot change any answer.
const DAY_CACHE_LIMIT = 4096;
const dayCache = new Map<string, LocalDay>();

function localDay(timezone: string, date: string): LocalDay {
  const key = `${timezone}\u0000${date}`;
  const cached = dayCache.get(key);
  if (cached) return cached;
  const midnight = wallMidnight(date);
  const zone = zoneOf(timezone);
  const spans = offsetSpans(zone, midnight - SPAN_BEFORE, midnight + SPAN_AFTER);
  const day: LocalDay = {
    wallMidnight: midnight,
    spans,
    start: instantReaching({ spans }, midnight),
    end: instantReaching({ spans }, midnight + DAY),
  };
  if (dayCache.size >= DAY_CACHE_LIMIT) dayCache.delete(dayCache.keys().next().value as string);
  dayCache.set(key, day);
  return day;
}

/** The local calendar date of an instant. */
function localDateOf(timezone: string, t: number): string {
  if (!Number.isFinite(t)) throw new Error('Invalid clock: now is not a valid date');
  // The spans of the instant's UTC date cover it (they reach 15h before and 39h after that midnight).
  const day = localDay(timezone, dateOfWall(Math.floor(t / DAY) * DAY));
  for (const s of day.spans) if (t >= s.from && t < s.to) return dateOfWall(t + s.offset);
  throw new Error('unreachable: offset spans cover every instant');
}

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

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(?:([Zz])|([+-])(\d{2}):?(\d{2})?)?$/;

/** The layout the database writes (db/src/time.ts). */
const CANONICAL_INSTANT_RE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function digit(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

/**
 * Epoch ms of an ISO 8601 instant. Not Date.parse: it is twice as slow on the database's one form
 * ('2026-03-08T10:00:00.000Z', hundreds per day), rolls 2026-02-30 over to March, and reads a string
 * without a zone designator in the server's zone; here such a string is read as UTC.
 */
export function parseInstant(value: string): number {
  if (typeof value === 'string') {
    if (CANONICAL_INSTANT_RE.test(value)) {
      const y = digit(value, 0) * 1000 + digit(value, 1) * 100 + digit(value, 2) * 10 + digit(value, 3);
      const t = utcMillis(
        y,
        digit(value, 5) * 10 + digit(value, 6),
        digit(value, 8) * 10 + digit(value, 9),
        digit(value, 11) * 10 + digit(value, 12),
        digit(value, 14) * 10 + digit(value, 15),
        digit(value, 17) * 10 + digit(value, 18),
        digit(value, 20) * 100 + digit(value, 21) * 10 + digit(value, 22),
      );
      if (Number.isFinite(t)) return t;
    }
    const m = ISO_RE.exec(value);
    if (m) {
      const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
      let t = utcMillis(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), ms);
      if (m[9] !== undefined) {
        const offset = (Number(m[10]) * 60 + Number(m[11] ?? 0)) * MINUTE;
        t -= m[9] === '-' ? -offset : offset;
      }
      if (Number.isFinite(t)) return t;
    }
  }
  throw new Error(`Invalid instant ${JSON.stringify(value)}: expected an ISO 8601 date-time such as 2026-03-08T10:00:00.000Z`);
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
// Interval queries (sorted once per call, then O(log n) per candidate)

/** Index of the first element of sorted `xs` that is > x (strict) or >= x. */
function upperBound(xs: Float64Array, x: number, strict: boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? xs[mid] <= x : xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Arbitrary (possibly overlapping) half-open intervals, answering "does any overlap [s, e)?". */
class IntervalSet {
  private readonly starts: Float64Array;
  private readonly maxEnds: Float64Array; // max end among intervals[0..i] in start order

  constructor(intervals: { start: number; end: number }[]) {
    intervals.sort((x, y) => x.start - y.start);
    this.starts = new Float64Array(intervals.length);
    this.maxEnds = new Float64Array(intervals.length);
    let maxEnd = -Infinity;
    intervals.forEach((iv, i) => {
      this.starts[i] = iv.start;
      maxEnd = Math.max(maxEnd, iv.end);
      this.maxEnds[i] = maxEnd;
    });
  }

  /** Some interval starting before e ends after s. */
  overlaps(s: number, e: number): boolean {
    const k = upperBound(this.starts, e, false);
    return k > 0 && this.maxEnds[k - 1] > s;
  }

  /** Some interval starts strictly inside (s, e). */
  startsWithin(s: number, e: number): boolean {
    const k = upperBound(this.starts, s, true);
    return k < this.starts.length && this.starts[k] < e;
  }

  /** Some interval starts before s and is still running at s. */
  runningAt(s: number): boolean {
    const k = upperBound(this.starts, s, false);
    return k > 0 && this.maxEnds[k - 1] > s;
  }
}

/**
 * The periods during which at least `capacity` of the intervals overlap. Ends are processed before
 * starts at the same instant because intervals are half-open (10:00 end and 10:00 start do not meet).
 */
function fullPeriods(startList: number[], endList: number[], capacity: number): { start: number; end: number }[] {
  const starts = Float64Array.from(startList).sort();
  const ends = Float64Array.from(endList).sort();
  const periods: { start: number; end: number }[] = [];
  let count = 0;
  let i = 0;
  let j = 0;
  let openedAt = 0;
  while (i < starts.length) {
    if (ends[j] <= starts[i]) {
      if (count >= capacity && count - 1 < capacity) periods.push({ start: openedAt, end: ends[j] });
      count--;
      j++;
    } else {
      count++;
      if (count >= capacity && count - 1 < capacity) openedAt = starts[i];
      i++;
    }
  }
  // Every remaining event is an end; the first one that drops below capacity closes the last period.
  while (j < ends.length) {
    if (count >= capacity && count - 1 < capacity) periods.push({ start: openedAt, end: ends[j] });
    count--;
    j++;
  }
  return periods;
}

function peakOverlap(startList: number[], endList: number[]): number {
  const starts = Float64Array.from(startList).sort();
  const ends = Float64Array.from(endList).sort();
  let count = 0;
  let peak = 0;
  let j = 0;
  for (let i = 0; i < starts.length; i++) {
    while (ends[j] <= starts[i]) {
      count--;
      j++;
    }
    count++;
    if (count > peak) peak = count;
  }
  return peak;
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

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

// Date#toISOString costs ~0.6 µs and a day's slots need two each; consecutive slots share the date part.
let isoDayIndex = NaN;
let isoDayPrefix = '';

/** Same output as new Date(t).toISOString() for the years 0000-9999. */
function formatInstant(t: number): string {
  const dayIndex = Math.floor(t / DAY);
  if (dayIndex !== isoDayIndex) {
    isoDayPrefix = new Date(dayIndex * DAY).toISOString().slice(0, -13);
    isoDayIndex = dayIndex;
  }
  let rest = t - dayIndex * DAY;
  const h = Math.floor(rest / HOUR);
  rest -= h * HOUR;
  const m = Math.floor(rest / MINUTE);
  rest -= m * MINUTE;
  const sec = Math.floor(rest / 1000);
  const ms = rest - sec * 1000;
  return `${isoDayPrefix}${pad2(h)}:${pad2(m)}:${pad2(sec)}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

// ---------------------------------------------------------------------------
// Public API

/** ISO weekday (1 Monday .. 7 Sunday) of a local calendar date; the zone is validated for consistent errors, a date's weekday does not depend on it. */
export function isoWeekday(timezone: string, date: string): number {
  zoneOf(timezone);
  const day = new Date(wallMidnight(date)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** UTC instants of the local day's start and of the next day's start (23 or 25 hours apart on DST days). */
export function localDayBounds(timezone: string, date: string): { start: string; end: string } {
  const day = localDay(timezone, date);
  return { start: new Date(day.start).toISOString(), end: new Date(day.end).toISOString() };
}

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
  for (let c: { minute: number; start: number } | null = first; c !== null && slots.length < limit; c = nextCandidate(c.minute + increment)) {
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
