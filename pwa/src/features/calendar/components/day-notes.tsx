// The appointment form's notes beside the date (features/calendar/day-notes.ts says which). Staff
// may still book then (the hours bind online booking only), so these are notes, not errors: without
// them a booking on Christmas Eve or on someone's day off looked ordinary. Offline, or while the
// reads fail, nothing is said.
import { useDateOverrides } from '../../../data/date-overrides.ts';
import { useCompanyHours } from '../../../data/operating-hours.ts';
import { dayNotes } from '../day-notes.ts';

export function DayNotes({
  id,
  companyId,
  companyName,
  date,
  employee,
}: {
  id: string;
  companyId: number;
  companyName: string;
  /** 'YYYY-MM-DD', or '' before one is chosen. */
  date: string;
  employee: { id: number; name: string } | null;
}) {
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(date);
  const companyOverrides = useDateOverrides(valid ? { companyId, userId: null } : null, date, date);
  const employeeOverrides = useDateOverrides(valid && employee ? { companyId, userId: employee.id } : null, date, date);
  const hours = useCompanyHours(companyId);
  const notes = !valid
    ? []
    : dayNotes({
        companyName,
        date,
        companyOverrides: companyOverrides.data,
        weeklyRows: hours.data,
        employee,
        employeeOverrides: employeeOverrides.data,
      });
  return (
    <div id={id} aria-live="polite">
      {notes.length > 0 && (
        <ul className="appt-day-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
