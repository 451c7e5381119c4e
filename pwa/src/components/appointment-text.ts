// How an appointment reads on the calendar and in lists (docs/product/02-screens.md, "Calendar page").
import type { Appointment } from '../data/appointments.ts';

/** The customer's name, or 'Customer #id' when the appointment has no name for them. */
export function customerLabel(a: Pick<Appointment, 'customer_name' | 'user_id'>): string {
  const name = a.customer_name?.trim();
  if (name) return name;
  return a.user_id != null ? `Customer #${a.user_id}` : 'Customer';
}

/** Event title: the customer name, the description and the service names, joined by commas. */
export function eventTitle(a: Appointment): string {
  const parts = [customerLabel(a)];
  const description = a.description?.trim();
  if (description) parts.push(description);
  for (const s of a.service_types ?? []) if (s.name) parts.push(s.name);
  return parts.join(', ');
}

export function serviceNames(a: Pick<Appointment, 'service_types'>): string {
  return (a.service_types ?? []).map((s) => s.name).join(', ');
}
