// The one textual form of a timestamp in the database: ISO 8601 UTC with milliseconds.
export function toIso(d: Date | string | number): string {
  return new Date(d).toISOString();
}

export function isoNow(): string {
  return new Date().toISOString();
}
