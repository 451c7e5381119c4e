// Company-local dates and times (IANA zone) to UTC instants, with the Intl API only.

/** Offset of `zone` from UTC at `instant`, in minutes (e.g. 60 for Europe/Paris in winter). */
export function zoneOffsetMinutes(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The instant at which the wall clock in `zone` shows `date` ('YYYY-MM-DD') `time` ('HH:MM').
 * A local time skipped by a daylight-saving jump is moved forward by the length of the gap
 * (the server never offers such times); a repeated local time resolves to its first occurrence.
 */
export function zonedTimeToUtc(date: string, time: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // Try the offsets in force a day either side: one of them is right for this wall time.
  const candidates = [zoneOffsetMinutes(wall - 86_400_000, zone), zoneOffsetMinutes(wall + 86_400_000, zone)]
    .sort((a, b) => b - a) // larger offset first = earlier instant = first occurrence
    .map((offset) => wall - offset * 60_000);
  for (const instant of candidates) {
    if (instant + zoneOffsetMinutes(instant, zone) * 60_000 === wall) return new Date(instant);
  }
  // In a gap (clocks jumped forward): read the wall time with the offset from before the jump,
  // which lands the same distance past the gap, e.g. 02:30 -> 03:30.
  const before = Math.min(zoneOffsetMinutes(wall - 86_400_000, zone), zoneOffsetMinutes(wall + 86_400_000, zone));
  return new Date(wall - before * 60_000);
}

/** 'YYYY-MM-DD' as a calendar date for display (formatted in UTC so it never shifts a day). */
export function calendarDate(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d, 12));
}

export function formatLongDate(date: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(calendarDate(date));
}
