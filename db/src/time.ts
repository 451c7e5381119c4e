// The one textual form of a timestamp in the database: ISO 8601 UTC with milliseconds.
export function toIso(d: Date | string | number): string {
  return new Date(d).toISOString();
}

export function isoNow(): string {
  return new Date().toISOString();
}

const PG_TIMESTAMPTZ_RE = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+-])(\d\d)(?::(\d\d)(?::(\d\d))?)?$/;

/**
 * A timestamptz as PostgreSQL writes it in text ('2026-12-01 09:00:00+00', with a fraction of up to
 * six digits and the session zone's offset) in the database's one form: ISO 8601 UTC with
 * milliseconds, the fraction cut to them as `new Date` does. `new Date(text)` takes this layout only
 * through V8's slow legacy parser: it was a fifth of the server's CPU for PostgreSQL's 30-day
 * availability answers, hundreds of timestamps each. Any other layout (a year outside 1000-9999,
 * BC, infinity) still goes through `new Date`.
 */
export function pgTimestamptzToIso(text: string): string {
  const m = PG_TIMESTAMPTZ_RE.exec(text);
  if (!m || m[1] < '1000') return new Date(text).toISOString();
  const ms = m[7] === undefined ? '000' : m[7].length >= 3 ? m[7].slice(0, 3) : m[7].padEnd(3, '0');
  const offsetSeconds = Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0);
  if (offsetSeconds === 0) return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${ms}Z`;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), Number(ms));
  return new Date(wall - (m[8] === '-' ? -offsetSeconds : offsetSeconds) * 1000).toISOString();
}
