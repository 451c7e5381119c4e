// Time in a company's zone, without luxon on the hot path: calendar-date arithmetic on 'YYYY-MM-DD',
// local days reduced to spans of constant UTC offset, and the one parser and formatter of ISO instants
// the API uses (availability runs them hundreds of times per request, so each is tuned).
import { IANAZone } from 'luxon';
import { cacheKey } from './cache-key.ts';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

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

export function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
  if (!(mo >= 1 && mo <= 12 && d >= 1 && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59 && ms >= 0 && ms <= 999)) {
    return NaN;
  }
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (!(d <= DAYS_IN_MONTH[mo - 1] + (leap ? 1 : 0))) return NaN;
  return daysFromCivil(y, mo, d) * DAY + h * HOUR + mi * MINUTE + s * 1000 + ms;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight of a calendar date read as if it were UTC: the "wall clock" origin of that local day. */
export function wallMidnight(date: string): number {
  const m = typeof date === 'string' ? DATE_RE.exec(date) : null;
  if (m) {
    const t = utcMillis(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, 0);
    if (Number.isFinite(t)) return t;
  }
  throw new Error(`Invalid date ${JSON.stringify(date)}: expected an existing calendar date as YYYY-MM-DD`);
}

/** 'YYYY-MM-DD' of a wall-clock instant (Hinnant's civil_from_days; Date#toISOString was a twentieth of a slots request). */
export function dateOfWall(wall: number): string {
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

export function addDays(date: string, days: number): string {
  return dateOfWall(wallMidnight(date) + days * DAY);
}

// ---------------------------------------------------------------------------
// Time zones
//
// Luxon answers "what is the UTC offset at instant t" (IANAZone.offset). Building a luxon DateTime per
// candidate costs ~20 µs and resolves a repeated wall time according to the offset in force *today*
// (its first guess comes from the current clock), so each local day is reduced once to the few spans
// of constant offset that luxon reports, and wall times are resolved against those spans.

export interface OffsetSpan {
  from: number; // UTC ms, inclusive (-Infinity for the first span)
  to: number; // UTC ms, exclusive (Infinity for the last span)
  offset: number; // ms to add to UTC to get local wall time
}

export interface LocalDay {
  wallMidnight: number;
  spans: OffsetSpan[];
  start: number; // first instant of the local day
  end: number; // first instant of the next local day
}

export function zoneOf(timezone: string): IANAZone {
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
export function exactInstant(day: LocalDay, wall: number): number | null {
  for (const s of day.spans) {
    const t = wall - s.offset;
    if (t >= s.from && t < s.to) return t;
  }
  return null;
}

/** The first instant at which the local clock shows `wall` or later: a closing time inside a DST gap closes at the jump. */
export function instantReaching(day: Pick<LocalDay, 'spans'>, wall: number): number {
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

export function localDay(timezone: string, date: string): LocalDay {
  const key = cacheKey(timezone, date);
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
export function localDateOf(timezone: string, t: number): string {
  if (!Number.isFinite(t)) throw new Error('Invalid clock: now is not a valid date');
  // The spans of the instant's UTC date cover it (they reach 15h before and 39h after that midnight).
  const day = localDay(timezone, dateOfWall(Math.floor(t / DAY) * DAY));
  for (const s of day.spans) if (t >= s.from && t < s.to) return dateOfWall(t + s.offset);
  throw new Error('unreachable: offset spans cover every instant');
}

// ---------------------------------------------------------------------------
// Instants as text

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(?:([Zz])|([+-])(\d{2}):?(\d{2})?)?$/;

/** The length of the database's one form of an instant ('2026-03-08T10:00:00.000Z', db/src/time.ts). */
export const CANONICAL_INSTANT_LENGTH = 24;

/** The decimal digit at `i`, or NaN (which every later step carries through) for any other character. */
function digit(s: string, i: number): number {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
}

/** The decimal digit byte at `i` as its value, or NaN (past the end too: undefined - 48 is NaN). */
export function byteDigit(b: Uint8Array, i: number): number {
  const d = b[i] - 48;
  return d >= 0 && d <= 9 ? d : NaN;
}

// The date an instant read in place had last and its midnight: a packed read's timestamps come in
// start order, so most share their date with the one before (a pure function of the date, cached once).
let lastDateKey = NaN;
let lastDateMidnight = NaN;

/** Epoch ms of the database form's fields as read (NaN for any field out of range or not a number). */
function canonicalFields(y: number, mo: number, d: number, h: number, mi: number, sec: number, ms: number): number {
  const dateKey = (y * 100 + mo) * 100 + d; // NaN (never equal) when a digit is not one
  if (dateKey !== lastDateKey) {
    const midnight = utcMillis(y, mo, d, 0, 0, 0, 0);
    if (!Number.isFinite(midnight)) return NaN;
    lastDateKey = dateKey;
    lastDateMidnight = midnight;
  }
  if (!(h <= 23 && mi <= 59 && sec <= 59)) return NaN; // also false for NaN; digits are never negative
  return lastDateMidnight + h * HOUR + mi * MINUTE + sec * 1000 + ms;
}

/**
 * Epoch ms of the instant in the database's one form (db/src/time.ts) that starts at `at` in `text`,
 * or NaN when those 24 characters are anything else (another layout, an impossible date, the text's
 * end). What parseInstant tries first.
 */
export function canonicalInstantAt(text: string, at: number): number {
  if (
    text.charCodeAt(at + 4) !== 45 || // -
    text.charCodeAt(at + 7) !== 45 ||
    text.charCodeAt(at + 10) !== 84 || // T
    text.charCodeAt(at + 13) !== 58 || // :
    text.charCodeAt(at + 16) !== 58 ||
    text.charCodeAt(at + 19) !== 46 || // .
    text.charCodeAt(at + 23) !== 90 // Z
  ) {
    return NaN;
  }
  return canonicalFields(
    digit(text, at) * 1000 + digit(text, at + 1) * 100 + digit(text, at + 2) * 10 + digit(text, at + 3),
    digit(text, at + 5) * 10 + digit(text, at + 6),
    digit(text, at + 8) * 10 + digit(text, at + 9),
    digit(text, at + 11) * 10 + digit(text, at + 12),
    digit(text, at + 14) * 10 + digit(text, at + 15),
    digit(text, at + 17) * 10 + digit(text, at + 18),
    digit(text, at + 20) * 100 + digit(text, at + 21) * 10 + digit(text, at + 22),
  );
}

/**
 * canonicalInstantAt over bytes (the ASCII of the same form). The packed availability reads hold
 * hundreds of instants in one value, read in place: from bytes, a third cheaper than from a string,
 * whose every character read first asks how the string is stored (docs/decisions/27-scheduling-rules.md).
 */
export function canonicalInstantIn(b: Uint8Array, at: number): number {
  if (
    b[at + 4] !== 45 ||
    b[at + 7] !== 45 ||
    b[at + 10] !== 84 ||
    b[at + 13] !== 58 ||
    b[at + 16] !== 58 ||
    b[at + 19] !== 46 ||
    b[at + 23] !== 90
  ) {
    return NaN;
  }
  return canonicalFields(
    byteDigit(b, at) * 1000 + byteDigit(b, at + 1) * 100 + byteDigit(b, at + 2) * 10 + byteDigit(b, at + 3),
    byteDigit(b, at + 5) * 10 + byteDigit(b, at + 6),
    byteDigit(b, at + 8) * 10 + byteDigit(b, at + 9),
    byteDigit(b, at + 11) * 10 + byteDigit(b, at + 12),
    byteDigit(b, at + 14) * 10 + byteDigit(b, at + 15),
    byteDigit(b, at + 17) * 10 + byteDigit(b, at + 18),
    byteDigit(b, at + 20) * 100 + byteDigit(b, at + 21) * 10 + byteDigit(b, at + 22),
  );
}

/**
 * Epoch ms of an ISO 8601 instant. Not Date.parse: it is twice as slow on the database's one form
 * ('2026-03-08T10:00:00.000Z', hundreds per day), rolls 2026-02-30 over to March, and reads a string
 * without a zone designator in the server's zone; here such a string is read as UTC.
 */
export function parseInstant(value: string): number {
  if (typeof value === 'string') {
    if (value.length === CANONICAL_INSTANT_LENGTH) {
      const t = canonicalInstantAt(value, 0);
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

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

// Date#toISOString costs ~0.6 µs and a day's slots need two each; consecutive slots share the date part.
let isoDayIndex = NaN;
let isoDayPrefix = '';

/** Same output as new Date(t).toISOString() for the years 0000-9999. */
export function formatInstant(t: number): string {
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

/** The database's one textual form of an instant. */
export function canonicalInstant(v: string): string {
  return new Date(parseInstant(v)).toISOString();
}

// What requests may name: the years a booking calendar can mean.
const MIN_YEAR = 2000;
const MAX_YEAR = 2099;

/** An existing calendar date written as YYYY-MM-DD, within the years requests may name. */
export function isLocalDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return y >= MIN_YEAR && y <= MAX_YEAR && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** An instant written with its zone ('Z' or an offset): a wall time alone would be ambiguous. */
export function isZonedInstant(v: string): boolean {
  if (v.length > 40 || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(v)) return false;
  try {
    const t = parseInstant(v);
    const y = new Date(t).getUTCFullYear();
    return y >= MIN_YEAR && y <= MAX_YEAR;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// Local days

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
