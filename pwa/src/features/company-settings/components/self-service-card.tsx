// Customer self-service (docs/decisions/23-self-service.md): how many hours before an appointment
// its customer may still cancel or move it through the link in their emails. Staff are never bound
// by it. Saved with its own button.
import type { Company } from '../../../data/companies.ts';
import { HoursSettingCard } from './hours-setting-card.tsx';

export const NOTICE_HOURS_LABEL = 'Cancellation notice (hours)';
export const MAX_NOTICE_HOURS = 168;

export function SelfServiceCard({ company }: { company: Company }) {
  return (
    <HoursSettingCard
      company={company}
      field="cancellation_notice_hours"
      title="Customer changes"
      label={NOTICE_HOURS_LABEL}
      min={0}
      max={MAX_NOTICE_HOURS}
      hint={`Customers can cancel or move an appointment themselves with the link in their emails until this many hours before it starts (0: until it starts). Your team can always change it. 0 to ${MAX_NOTICE_HOURS} hours.`}
      what="the cancellation notice"
      savedText="Cancellation notice saved."
      saveLabel="Save Cancellation Notice"
    />
  );
}
