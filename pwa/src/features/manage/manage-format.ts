// Times on the self-service page: in the business's zone (where the appointment happens), said so
// when the browser's zone differs.
import { dateTimeFormat } from '../../lib/zoned-time.ts';

/** 'Tuesday, November 24, 2026 at 10:00 AM' as people in `zone` read it. */
export function formatInZone(iso: string, zone: string): string {
  return dateTimeFormat(undefined, {
    timeZone: zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** The zone's name when it is not the browser's, for a "times are in ..." note; null otherwise. */
export function foreignZone(zone: string): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone === zone ? null : zone.replace(/_/g, ' ');
  } catch {
    return zone.replace(/_/g, ' ');
  }
}
