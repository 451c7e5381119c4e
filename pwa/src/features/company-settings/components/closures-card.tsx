// Closures and special hours (docs/decisions/11-scheduling-rules-beyond-spec.md): the company's upcoming
// holidays and dates with other hours, which replace that day's opening hours for every booking.
import { useId } from 'react';
import { COMPANY_ALL_DAY, DateOverridesEditor } from '../../../components/date-overrides-editor.tsx';
import type { Company } from '../../../data/companies.ts';

export function ClosuresCard({ company }: { company: Company }) {
  const id = useId();
  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Closures and special hours</h2>
      <p className="cs-lead">
        Holidays and dates with other hours than the weekly ones. On these dates customers can book only inside the hours given, or not at
        all when closed.
      </p>
      <DateOverridesEditor
        scope={{ companyId: company.id, userId: null }}
        zone={company.timezone}
        increment={company.time_increment_minutes}
        words={{
          what: 'closures',
          partly: 'Open only',
          allDay: COMPANY_ALL_DAY,
          empty: 'No upcoming closures.',
          add: 'Add closure',
          addPartly: 'Add special hours',
        }}
      />
    </section>
  );
}
