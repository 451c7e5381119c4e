// Reading appointments the way the staff calendar shows them, for specs that compare the two, and opening one.
import type { Page } from '@playwright/test';

/** The fields of an appointment the calendar's title and date checks need. */
export interface TitledAppointment {
  user_id: number | null;
  description: string | null;
  service_types: { name: string }[];
  customer_name?: string | null;
}

/** 'YYYY-MM-DD' plus (or minus) whole days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** the event title of docs/product/02-screens.md: customer, description, services. */
export function titleOf(a: TitledAppointment): string {
  return [a.customer_name || `Customer #${a.user_id}`, a.description?.trim() || null, ...a.service_types.map((s) => s.name)]
    .filter(Boolean)
    .join(', ');
}

/**
 * Opens an appointment from the calendar as a keyboard user does (focus, Enter). A click aims at the
 * event's centre, which an overlapping appointment of the demo data covers on some days and hours
 * (FullCalendar draws overlapping events over one another), so a click-based step failed or passed
 * with the time of day the suite ran.
 */
export async function openEvent(page: Page, text: string): Promise<void> {
  await page.locator('.fc-event', { hasText: text }).focus();
  await page.keyboard.press('Enter');
}
