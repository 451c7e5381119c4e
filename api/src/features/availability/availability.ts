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

/**
 * One day's opening: a single interval, several (breaks between them, docs/decisions/27-scheduling-rules.md),
 * or none. null and [] both mean closed.
 */
export type Hours = DayHours | readonly DayHours[] | null;

/** A booked appointment (ISO UTC instants). Rows with status 'cancelled' are ignored if one slips through. */
export interface BusyAppointment {
  id?: number;
  start: string;
  end: string;
  employeeId: number | null;
  serviceTypeIds: number[];
  status?: string;
  /** Minutes held before the start and after the end (the services' buffers): the employee and capacity are taken then too. */
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  /** `start` and `end` as epoch milliseconds, when the reader parsed them once already (a 30-day answer asks each many times). */
  startMs?: number;
  endMs?: number;
}

/** An appointment's start and end in epoch milliseconds. */
export const startMsOf = (a: BusyAppointment): number => a.startMs ?? parseInstant(a.start);
export const endMsOf = (a: BusyAppointment): number => a.endMs ?? parseInstant(a.end);

export interface SlotQuery {
  timezone: string;
  date: string;
  now: Date;
  incrementMinutes: number;
  durationMinutes: number;
  windowDays?: number;
  /** Starts earlier than now + this many minutes are not offered (public and customer bookings). */
  minNoticeMinutes?: number;
  /** Each slot must fit inside one of these intervals; its grid starts at that interval's opening. */
  companyHours: Hours;
  /** undefined: the company's hours; otherwise a slot must also fit inside one of these. */
  employeeHours?: Hours;
  serviceTypeId: number;
  capacity: number;
  /** The service's buffers: [start - before, end + after] is held, customers only see [start, end). */
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
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

type MinuteIntervals = readonly { open: number; close: number }[];

/**
 * Hours already turned into minutes, by the hours object: a company's and its staff's hours are kept
 * by the settings memo across requests, and a 30-day answer asks for them once per day and candidate.
 */
const parsedHours = new WeakMap<object, MinuteIntervals>();

/**
 * The hours as sorted minute intervals (closed: empty). Hours are never changed once made.
 * Intervals that touch (one closes at the minute the next opens) are one opening: 09:00-12:00 and
 * 12:00-17:00 offer 11:30 for an hour, on the grid of 09:00, as 09:00-17:00 would
 * (docs/decisions/27-scheduling-rules.md). Only a gap is a break.
 */
function intervalsInMinutes(hours: Hours | undefined, who: string): MinuteIntervals {
  if (hours === null || hours === undefined) return [];
  const known = parsedHours.get(hours);
  if (known) return known;
  const list = Array.isArray(hours) ? (hours as readonly DayHours[]) : [hours as DayHours];
  const sorted = list.map((h) => hoursInMinutes(h, who)).sort((x, y) => x.open - y.open || x.close - y.close);
  const minutes: { open: number; close: number }[] = [];
  for (const h of sorted) {
    const last = minutes[minutes.length - 1];
    if (last && h.open === last.close && h.close > h.open) last.close = h.close;
    else minutes.push(h);
  }
  parsedHours.set(hours, minutes);
  return minutes;
}

function minutesOf(value: number | undefined, name: string): number {
  const v = value ?? 0;
  if (!Number.isFinite(v) || v < 0) throw new Error(`Invalid ${name} ${String(value)}: expected a number >= 0`);
  return v;
}

/** The instants an appointment holds: its own time widened by its buffers. */
function heldRange(a: BusyAppointment): { start: number; end: number } {
  return {
    start: startMsOf(a) - (a.bufferBeforeMinutes ?? 0) * MINUTE,
    end: endMsOf(a) + (a.bufferAfterMinutes ?? 0) * MINUTE,
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
  return slotsForPeople(q, chosen(q));
}

/**
 * The first start bookableSlots would offer (epoch ms), or null: the date picker's "is anything
 * left on this day?", without making the slot's texts.
 */
export function firstBookableStart(q: SlotQuery): number | null {
  const found = startsForPeople(q, chosen(q), 1);
  return found === null || found.starts.length === 0 ? null : found.starts[0];
}

/** Whose bookings and hours a slot must fit: one employee (or nobody: id null), or the candidates of "any employee". */
interface Person {
  id: number | null;
  /** undefined: the company's hours. */
  hours: Hours | undefined;
}

/** The query's one person: its employee (or nobody) with their hours. */
function chosen(q: SlotQuery): Person[] {
  return [{ id: q.employeeId ?? null, hours: q.employeeHours }];
}

/** The start times at least one of `people` could take, in wall-clock order (see startsForPeople). */
function slotsForPeople(q: SlotQuery, people: readonly Person[]): Slot[] {
  const found = startsForPeople(q, people);
  if (found === null) return [];
  const { minutes, starts, durationMs } = found;
  const slots: Slot[] = [];
  for (let i = 0; i < starts.length; i++) {
    const minute = minutes[i];
    const h = Math.floor(minute / 60);
    const mm = pad2(minute % 60);
    slots.push({
      value: `${pad2(h)}:${mm}`,
      label: `${h % 12 === 0 ? 12 : h % 12}:${mm} ${h < 12 ? 'AM' : 'PM'}`,
      start: formatInstant(starts[i]),
      end: formatInstant(starts[i] + durationMs),
    });
  }
  return slots;
}

// The booking window's first and last local dates, for the last clock and zone asked: a 30-day
// answer asks for every date with the same ones, and each is a zone lookup and date arithmetic.
let windowMemo = { timezone: '', now: NaN, days: -1, today: '', last: '' };

function bookingWindow(timezone: string, now: number, days: number): { today: string; last: string } {
  const m = windowMemo;
  if (m.now === now && m.days === days && m.timezone === timezone) return m;
  const today = localDateOf(timezone, now);
  windowMemo = { timezone, now, days, today, last: days === 0 ? '' : addDays(today, days - 1) };
  return windowMemo;
}

/** An employee's hours that day: the wall minute each opens at, and the instants they open and close. */
interface PersonalHours {
  open: number;
  opensAt: number;
  closesAt: number;
}
/** One company interval's grid of starts. */
interface Grid extends PersonalHours {
  close: number;
}
/** Someone who works that day, with the holds of theirs that can meet it. */
interface Working {
  id: number | null;
  personal: PersonalHours[];
  busy: { start: number; end: number }[];
  groups: { start: number; end: number; own: number }[];
  busySet: IntervalSet;
  groupSet: IntervalSet;
}
const ALL_DAY: MinuteIntervals = [{ open: 0, close: 24 * 60 }];
const EMPTY_SET = new IntervalSet([]);

/** The start fits one of their intervals of hours. */
function fitsHours(p: Working, minute: number, start: number, end: number): boolean {
  for (const h of p.personal) if (minute >= h.open && start >= h.opensAt && end <= h.closesAt) return true;
  return false;
}

function someoneWorks(working: readonly Working[], minute: number, start: number, end: number): boolean {
  for (const p of working) if (fitsHours(p, minute, start, end)) return true;
  return false;
}

/**
 * Free: within their hours, no other hold of theirs meets this one's; they may join only a session
 * of this service that starts at the same instant (any other of their sessions whose hold meets
 * this one's is a clash: rare, checked one by one).
 */
function isFree(p: Working, minute: number, start: number, end: number, heldStart: number, heldEnd: number): boolean {
  if (!fitsHours(p, minute, start, end) || p.busySet.overlaps(heldStart, heldEnd)) return false;
  if (!p.groupSet.overlaps(heldStart, heldEnd)) return true;
  for (const g of p.groups) if (g.start < heldEnd && g.end > heldStart && g.own !== start) return false;
  return true;
}

function someoneFree(working: readonly Working[], minute: number, start: number, end: number, heldStart: number, heldEnd: number): boolean {
  for (const p of working) if (isFree(p, minute, start, end, heldStart, heldEnd)) return true;
  return false;
}

/** The appointment is for this one service only (a group session of it), not for any other. */
function onlyService(ids: readonly number[], serviceId: number): boolean {
  if (ids.length === 0) return false;
  for (const id of ids) if (id !== serviceId) return false;
  return true;
}

/**
 * The start times at least one of `people` could take (wall-clock minutes and epoch ms, in order),
 * in one pass: the day's grid, the notice and the service's capacity are worked out once, and each
 * start asks the people in turn until one is free (within their hours, clear of their own holds).
 * null when the date offers nothing before any start is tried.
 */
function startsForPeople(
  q: SlotQuery,
  people: readonly Person[],
  limit = q.limit ?? Infinity,
): { minutes: number[]; starts: number[]; durationMs: number } | null {
  const increment = positiveInteger(q.incrementMinutes, 'incrementMinutes');
  const duration = q.durationMinutes;
  if (!Number.isFinite(duration) || duration <= 0) {
    throw new Error(`Invalid durationMinutes ${String(duration)}: expected a positive number`);
  }
  if (!Number.isFinite(q.capacity)) throw new Error(`Invalid capacity ${String(q.capacity)}: expected a number`);
  const windowDays = windowLength(q.windowDays);
  const now = clock(q.now);
  const day = localDay(q.timezone, q.date);

  const companyList = intervalsInMinutes(q.companyHours, 'company');
  const personalLists = people.map((p) => (p.hours === undefined ? null : intervalsInMinutes(p.hours, 'employee')));
  const before = minutesOf(q.bufferBeforeMinutes, 'bufferBeforeMinutes') * MINUTE;
  const after = minutesOf(q.bufferAfterMinutes, 'bufferAfterMinutes') * MINUTE;
  const notice = minutesOf(q.minNoticeMinutes, 'minNoticeMinutes') * MINUTE;

  const window = bookingWindow(q.timezone, now, windowDays);
  if (q.date < window.today || windowDays === 0 || q.date > window.last) return null;
  if (companyList.length === 0 || q.capacity < 1) return null;
  const reach = (minute: number) => instantReaching(day, day.wallMidnight + minute * MINUTE);
  // People who do not work that day can take nothing.
  const working: Working[] = [];
  for (let i = 0; i < people.length; i++) {
    const list = personalLists[i];
    if (list !== null && list.length === 0) continue;
    const personal: PersonalHours[] = [];
    for (const h of list ?? ALL_DAY) personal.push({ open: h.open, opensAt: reach(h.open), closesAt: reach(h.close) });
    working.push({ id: people[i].id, personal, busy: [], groups: [], busySet: EMPTY_SET, groupSet: EMPTY_SET });
  }
  if (working.length === 0) return null;
  // Each company interval anchors its own grid (the grid starts again after a break), so every
  // employee's slots line up with the company's; personal hours only narrow which starts are offered.
  const grids: Grid[] = [];
  let latestClose = -Infinity;
  for (const c of companyList) {
    const grid = { open: c.open, close: c.close, opensAt: reach(c.open), closesAt: reach(c.close) };
    grids.push(grid);
    latestClose = Math.max(latestClose, grid.closesAt);
  }
  const durationMs = Math.round(duration * MINUTE);
  const earliestStart = now + notice;

  // A start is a candidate when it exists on the local clock, is not too soon, and its whole duration
  // fits in one company interval and someone's hours; candidates are produced lazily so a caller
  // asking for one slot stops early. Minutes only grow, so overlapping intervals offer a time once.
  // The current candidate is kept in these variables rather than returned as an object: a 30-day
  // answer tries a few hundred candidates, and each object was garbage (docs/decisions/27-scheduling-rules.md).
  let lastMinute = -1;
  let grid = 0;
  let minute = 0;
  let start = 0;
  const advance = (g: number, fromMinute: number): boolean => {
    for (; g < grids.length; g++, fromMinute = -1) {
      const c = grids[g];
      for (let m = fromMinute < 0 ? c.open : fromMinute; m < c.close; m += increment) {
        if (m <= lastMinute) continue;
        const at = exactInstant(day, day.wallMidnight + m * MINUTE);
        if (at === null) continue; // skipped by a DST jump; a repeated time resolves to its first occurrence
        if (at < earliestStart || at < c.opensAt || at + durationMs > c.closesAt) continue;
        if (!someoneWorks(working, m, at, at + durationMs)) continue;
        lastMinute = m;
        grid = g;
        minute = m;
        start = at;
        return true;
      }
    }
    return false;
  };
  if (!advance(0, -1)) return null;

  // Rows the caller over-fetched (the query reaches back by the longest duration) are dropped before
  // sorting: nothing held until before the first candidate's hold or from after the day's last possible hold matters.
  const earliest = start - before;
  const latest = latestClose + after;
  const serviceId = q.serviceTypeId;
  const byId = new Map<number, Working>();
  for (const p of working) if (p.id !== null) byId.set(p.id, p);
  const serviceStarts: number[] = [];
  const serviceEnds: number[] = [];
  for (const a of q.appointments) {
    const forService = a.serviceTypeIds.includes(serviceId);
    const owner = a.employeeId === null ? undefined : byId.get(a.employeeId);
    if ((!forService && owner === undefined) || !isBooked(a)) continue;
    const ownStart = startMsOf(a);
    const ownEnd = endMsOf(a);
    if (ownEnd <= ownStart) continue; // an empty appointment occupies nothing
    const heldFrom = ownStart - (a.bufferBeforeMinutes ?? 0) * MINUTE;
    const heldTo = ownEnd + (a.bufferAfterMinutes ?? 0) * MINUTE;
    if (heldTo <= earliest || heldFrom >= latest) continue;
    if (forService) {
      serviceStarts.push(heldFrom);
      serviceEnds.push(heldTo);
    }
    if (owner !== undefined) {
      if (onlyService(a.serviceTypeIds, serviceId)) owner.groups.push({ start: heldFrom, end: heldTo, own: ownStart });
      else owner.busy.push({ start: heldFrom, end: heldTo });
    }
  }
  const full = new IntervalSet(fullPeriods(serviceStarts, serviceEnds, q.capacity));
  for (const p of working) {
    if (p.busy.length > 0) p.busySet = new IntervalSet(p.busy);
    if (p.groups.length > 0) p.groupSet = new IntervalSet(p.groups);
  }

  const minutes: number[] = [];
  const starts: number[] = [];
  for (let more = true; more && starts.length < limit; more = advance(grid, minute + increment)) {
    const end = start + durationMs;
    // The held range (buffers included) may not meet a full period of the service, and someone must be free for it.
    const heldStart = start - before;
    const heldEnd = end + after;
    if (full.overlaps(heldStart, heldEnd)) continue;
    if (!someoneFree(working, minute, start, end, heldStart, heldEnd)) continue;
    minutes.push(minute);
    starts.push(start);
  }
  return { minutes, starts, durationMs };
}

/** For staff writes (allowed outside opening hours): why [start,end) cannot be booked for these services/employee, or null if it can. */
export function bookingConflict(input: {
  start: string;
  end: string;
  serviceTypes: { id: number; capacity: number }[];
  employeeId: number | null;
  appointments: BusyAppointment[];
  ignoreAppointmentId?: number;
  /** The new booking's buffers: it holds [start - before, end + after]. */
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
}): BookingConflict | null {
  const ownStart = parseInstant(input.start);
  const ownEnd = parseInstant(input.end);
  if (ownEnd <= ownStart) throw new Error(`Invalid booking: end ${input.end} is not after start ${input.start}`);
  const start = ownStart - minutesOf(input.bufferBeforeMinutes, 'bufferBeforeMinutes') * MINUTE;
  const end = ownEnd + minutesOf(input.bufferAfterMinutes, 'bufferAfterMinutes') * MINUTE;
  for (const st of input.serviceTypes) {
    if (!Number.isFinite(st.capacity)) throw new Error(`Invalid capacity ${String(st.capacity)} for service type ${st.id}`);
  }

  const overlapping: { a: BusyAppointment; start: number; end: number }[] = [];
  for (const a of input.appointments) {
    if (!isBooked(a)) continue;
    if (input.ignoreAppointmentId !== undefined && a.id === input.ignoreAppointmentId) continue;
    if (endMsOf(a) <= startMsOf(a)) continue;
    const held = heldRange(a);
    if (held.start < end && held.end > start) overlapping.push({ a, start: held.start, end: held.end });
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
      if (startMsOf(o.a) !== ownStart || !sameServices(o.a.serviceTypeIds, ids)) return 'employee_busy';
    }
  }
  return null;
}

// ---------------------------------------------------------------------------
// "Any employee" (docs/decisions/27-scheduling-rules.md): a booking without a chosen employee is
// given one, so a time is offered when at least one qualified employee could take it.

export interface Candidate {
  id: number;
  /** The person's hours that day (undefined: the company's). */
  hours: Hours | undefined;
}

/**
 * The slots some candidate could take: the union of each one's slots, in time order. With
 * `anyWillDo` (the date picker's "is anything left?") the first candidate with a slot answers alone.
 */
export function slotsForAnyEmployee(q: SlotQuery, candidates: readonly Candidate[], anyWillDo = false): Slot[] {
  const company = intervalsInMinutes(q.companyHours, 'company');
  // One pass over the day asks each start of every candidate, which is the union of their slots when
  // the company's intervals are disjoint (as stored: overlapping ones are refused). Overlapping
  // intervals, only possible in direct calls, take the candidates one by one as the definition says.
  let disjoint = true;
  let reached = -Infinity;
  for (const c of company) {
    if (c.open < reached) disjoint = false;
    reached = Math.max(reached, c.close);
  }
  if (disjoint) {
    const slots = slotsForPeople(q, candidates);
    return anyWillDo ? slots.slice(0, q.limit ?? slots.length) : slots;
  }
  return eachCandidate(q, candidates, anyWillDo);
}

function eachCandidate(q: SlotQuery, candidates: readonly Candidate[], anyWillDo: boolean): Slot[] {
  // Each candidate needs only the service's bookings and their own: split once, not per candidate.
  const forService: BusyAppointment[] = [];
  const byEmployee = new Map<number, BusyAppointment[]>();
  for (const a of q.appointments) {
    if (a.serviceTypeIds.includes(q.serviceTypeId)) forService.push(a);
    else if (a.employeeId !== null) {
      const list = byEmployee.get(a.employeeId);
      if (list) list.push(a);
      else byEmployee.set(a.employeeId, [a]);
    }
  }
  const byStart = new Map<string, Slot>();
  for (const c of candidates) {
    const own = byEmployee.get(c.id);
    const appointments = own ? forService.concat(own) : forService;
    const found = bookableSlots({ ...q, appointments, employeeId: c.id, employeeHours: c.hours });
    if (anyWillDo && found.length > 0) return found.slice(0, q.limit ?? found.length);
    for (const s of found) if (!byStart.has(s.start)) byStart.set(s.start, s);
  }
  const slots = [...byStart.values()].sort((x, y) => parseInstant(x.start) - parseInstant(y.start));
  return q.limit === undefined ? slots : slots.slice(0, q.limit);
}

/**
 * Who takes a booking at `start` without a chosen employee: the one already holding a group session
 * of this service at that start with places left; otherwise the free candidate with the fewest
 * appointments that day (`dayCounts`), ties to the lowest id. null when nobody can.
 */
export function chooseEmployee(
  q: SlotQuery,
  candidates: readonly Candidate[],
  start: string,
  dayCounts: ReadonlyMap<number, number>,
): number | null {
  const at = parseInstant(start);
  const free = candidates.filter((c) =>
    bookableSlots({ ...q, employeeId: c.id, employeeHours: c.hours }).some((s) => parseInstant(s.start) === at),
  );
  if (free.length === 0) return null;
  const holding = free.filter((c) =>
    q.appointments.some(
      (a) =>
        isBooked(a) &&
        a.employeeId === c.id &&
        startMsOf(a) === at &&
        a.serviceTypeIds.length > 0 &&
        a.serviceTypeIds.every((id) => id === q.serviceTypeId),
    ),
  );
  const pool = holding.length > 0 ? holding : free;
  return [...pool].sort((x, y) => (dayCounts.get(x.id) ?? 0) - (dayCounts.get(y.id) ?? 0) || x.id - y.id)[0].id;
}
