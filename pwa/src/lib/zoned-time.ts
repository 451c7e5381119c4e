// Company-local dates and times (IANA zones) with the Intl API only: one home for the booking page, calendar and dashboard.
//
// The calendar shows every appointment at the company's local time, wherever the browser is.
// FullCalendar's named time zones need a plugin (luxon) we do not ship, so the calendar runs
// in its 'UTC' mode and is fed "wall times": an instant is turned into the company's local
// date and time, written as a zone-less ISO string, and FullCalendar (in UTC) shows exactly
// that. Dates coming back from FullCalendar (a click, a drop) hold wall times in their UTC
// fields and are turned back into real instants with `zonedTimeToUtc`. UTC has no daylight-
// saving gaps, so no wall time is ever lost on the browser's side.

/**
 * One Intl.DateTimeFormat per locale and options, made on first use and kept: building one costs
 * tens of microseconds (it resolves the locale and the zone's data; the page's first one loads the
 * locale, a long task a page would pay at start-up if made when its module loads), formatting with
 * it about one. The calendar formats each event's label (eventLabel) and the texts around it: built
 * per call, they took a fifth of the renderer's time in an offline reload of a week and over half of
 * it while queued edits drained (docs/benchmarks.md, "Offline calendar"). Every format the app uses again comes from here.
 */
const formatCache = new Map<string, Intl.DateTimeFormat>();

export function dateTimeFormat(locale: string | undefined, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(opts)}`;
  let f = formatCache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, opts);
    formatCache.set(key, f);
  }
  return f;
}

/** The format every wall-time reading uses, per zone (the hot path: no options key to build). */
const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let f = partsFormats.get(zone);
  if (!f) {
    f = dateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(zone, f);
  }
  return f;
}

export interface WallTime {
  /** 'YYYY-MM-DD' */
  date: string;
  /** 'HH:MM' */
  time: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

function wallFields(instant: number, zone: string) {
  const parts = partsFormat(zone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour') % 24, mi: get('minute'), s: get('second') };
}

/** Offset of `zone` from UTC at `instant`, in minutes (e.g. -300 for New York in winter). */
export function zoneOffsetMinutes(instant: number, zone: string): number {
  const f = wallFields(instant, zone);
  const asUtc = Date.UTC(f.y, f.mo - 1, f.d, f.h, f.mi, f.s);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The company-local date and time of an instant. */
export function toWallTime(instant: Date | string | number, zone: string): WallTime {
  const f = wallFields(new Date(instant).getTime(), zone);
  return { date: `${f.y}-${pad(f.mo)}-${pad(f.d)}`, time: `${pad(f.h)}:${pad(f.mi)}` };
}

/** 'YYYY-MM-DDTHH:MM:SS' without offset: the company-local wall time, as FullCalendar (UTC mode) reads it. */
export function toWallIso(instant: Date | string | number, zone: string): string {
  const f = wallFields(new Date(instant).getTime(), zone);
  return `${f.y}-${pad(f.mo)}-${pad(f.d)}T${pad(f.h)}:${pad(f.mi)}:${pad(f.s)}`;
}

/**
 * The instant at which the wall clock in `zone` shows `date` `time`. A time skipped by a
 * daylight-saving jump moves forward by the gap; a repeated time resolves to its first occurrence.
 */
export function zonedTimeToUtc(date: string, time: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const offsets = [zoneOffsetMinutes(wall - 86_400_000, zone), zoneOffsetMinutes(wall + 86_400_000, zone)];
  const candidates = [...offsets].sort((a, b) => b - a).map((offset) => wall - offset * 60_000);
  for (const instant of candidates) {
    if (instant + zoneOffsetMinutes(instant, zone) * 60_000 === wall) return new Date(instant);
  }
  return new Date(wall - Math.min(...offsets) * 60_000);
}

/** A Date from FullCalendar (UTC mode): its UTC fields are the company-local wall time. */
export function wallFromCalendarDate(d: Date): WallTime {
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`,
  };
}

/** The real instant of a FullCalendar (UTC mode) date, read as company-local wall time. */
export function instantFromCalendarDate(d: Date, zone: string): Date {
  const w = wallFromCalendarDate(d);
  return zonedTimeToUtc(w.date, w.time, zone);
}

/** 'YYYY-MM-DD' plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Today's date in the company's zone. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return toWallTime(now, zone).date;
}

/** Adds minutes to a company-local date and time, across midnight and daylight-saving changes. */
export function addMinutesWall(date: string, time: string, minutes: number, zone: string): WallTime & { instant: Date } {
  const start = zonedTimeToUtc(date, time, zone);
  const end = new Date(start.getTime() + minutes * 60_000);
  return { ...toWallTime(end, zone), instant: end };
}

/** True for a valid IANA zone name this browser knows. */
export function isKnownZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The browser's zone: the fallback while the company is loading or has an unknown zone. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** 'Tue, Nov 24, 2026' for a 'YYYY-MM-DD' (formatted in UTC so it never shifts a day). */
export function formatDate(
  date: string,
  opts: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' },
): string {
  const [y, m, d] = date.split('-').map(Number);
  return dateTimeFormat('en-US', { ...opts, timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

/** '9:30 AM' for an instant, in the company's zone. */
export function formatTime(instant: Date | string, zone: string): string {
  return dateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(new Date(instant));
}

/** '9:30 AM' for a wall time 'HH:MM'. */
export function formatWallTime(time: string): string {
  const [h, m] = time.split(':').map(Number);
  return dateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', minute: '2-digit' }).format(new Date(Date.UTC(2000, 0, 1, h, m)));
}

/** Short zone label such as 'EST' for the company's zone at `instant`. */
export function zoneAbbreviation(zone: string, instant: Date = new Date()): string {
  const parts = dateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(instant);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** 'YYYY-MM-DD' of an instant in `zone`. */
export function dateIn(instant: Date | string | number, zone: string): string {
  return toWallTime(instant, zone).date;
}

/** 'YYYY-MM-DD' as a calendar date for display (formatted in UTC so it never shifts a day). */
export function calendarDate(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d, 12));
}

/** 'Tuesday, November 24, 2026' for a 'YYYY-MM-DD', in the reader's locale. */
export function formatLongDate(date: string, locale?: string): string {
  return dateTimeFormat(locale, { timeZone: 'UTC', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(
    calendarDate(date),
  );
}

/** 'Tuesday, November 24' for a 'YYYY-MM-DD'. */
export function formatDay(date: string, opts: Intl.DateTimeFormatOptions = { weekday: 'long', month: 'long', day: 'numeric' }): string {
  return formatDate(date, opts);
}
