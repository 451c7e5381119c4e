// A person's time off (docs/decisions/11-scheduling-rules-beyond-spec.md): whole days off or days with other
// working hours, which replace that day's work hours. Everyone manages their own; admins and
// managers anyone's of their company (through the Directory's person view).
import { useId } from 'react';
import { DateOverridesEditor } from '../../../components/date-overrides-editor.tsx';

export function TimeOffCard({
  companyId,
  userId,
  name,
  isSelf,
  zone,
  increment,
  canEdit,
}: {
  companyId: number;
  userId: number;
  name: string;
  isSelf: boolean;
  zone: string;
  increment: number;
  canEdit: boolean;
}) {
  const id = useId();
  return (
    <section className="card settings-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Time off</h2>
      <p className="settings-lead">
        Days {isSelf ? 'you are' : `${name} is`} off, or {isSelf ? 'work' : 'works'} other hours than usual. Customers cannot book{' '}
        {isSelf ? 'you' : 'them'} outside those hours on these dates.
      </p>
      <DateOverridesEditor
        scope={{ companyId, userId }}
        zone={zone}
        increment={increment}
        canEdit={canEdit}
        words={{ what: 'time off', partly: 'Working only', allDay: 'Off all day', empty: 'No upcoming time off.', add: 'Add time off' }}
      />
    </section>
  );
}
