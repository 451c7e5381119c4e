// Reminders (docs/decisions/22-messaging.md): how many hours before an appointment its customer gets
// the reminder email (and the text message, where they agreed to one). Saved with its own button; a
// change re-times the reminders already waiting on the server.
import type { Company } from '../../../data/companies.ts';
import { useReminderChannels } from '../../../data/messages.ts';
import { HoursSettingCard, parseWholeHours } from './hours-setting-card.tsx';

export const REMINDER_HOURS_LABEL = 'Hours before the appointment';
export const MIN_REMINDER_HOURS = 1;
export const MAX_REMINDER_HOURS = 168;

/** The hours typed, or the message that says what is wrong with them. */
export function parseReminderHours(value: string): { hours: number } | { error: string } {
  return parseWholeHours(value, MIN_REMINDER_HOURS, MAX_REMINDER_HOURS);
}

export function RemindersCard({ company }: { company: Company }) {
  const channels = useReminderChannels();
  return (
    <HoursSettingCard
      company={company}
      field="reminder_hours_before"
      title="Reminders"
      label={REMINDER_HOURS_LABEL}
      min={MIN_REMINDER_HOURS}
      max={MAX_REMINDER_HOURS}
      hint={`Customers get a reminder email this long before their appointment${channels.data?.sms ? ', and a text message too if they agreed to one' : ''}. Bookings made later than that get none. ${MIN_REMINDER_HOURS} to ${MAX_REMINDER_HOURS} hours.`}
      what="the reminder time"
      savedText="Reminder time saved."
      saveLabel="Save Reminders"
    />
  );
}
