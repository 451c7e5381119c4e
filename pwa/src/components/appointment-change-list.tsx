// What changed elsewhere (412): the appointment as the user saw it against the current one, one
// line per differing field, in words the appointment form uses. Shown by the form (an online edit)
// and by "Needs attention" (a change refused after the device was offline).
import type { Appointment } from '../data/appointments.ts';
import type { User } from '../data/users.ts';
import { formatDate, formatWallTime, toWallTime } from '../lib/zoned-time.ts';
import { customerLabel, serviceNames } from './appointment-text.ts';
import './appointment-change-list.css';

export function ChangeList({
  mine,
  theirs,
  zone,
  customers,
  staff,
}: {
  mine: Appointment;
  theirs: Appointment;
  zone: string;
  customers: User[];
  staff: User[];
}) {
  const when = (a: Appointment) => {
    const s = toWallTime(a.start_time, zone);
    const e = toWallTime(a.end_time, zone);
    return `${formatDate(s.date)}, ${formatWallTime(s.time)} to ${e.date !== s.date ? `${formatDate(e.date)}, ` : ''}${formatWallTime(e.time)}`;
  };
  const who = (a: Appointment) => a.customer_name || customers.find((c) => c.id === a.user_id)?.name || customerLabel(a);
  const employee = (a: Appointment) =>
    a.employee_id == null
      ? 'No specific employee'
      : a.employee_name || staff.find((s) => s.id === a.employee_id)?.name || `Staff #${a.employee_id}`;
  const svc = (a: Appointment) => serviceNames(a) || 'none';
  const status = (a: Appointment) => (a.status === 'cancelled' ? 'Cancelled' : 'Booked');
  const rows: [string, string, string][] = [
    ['Time', when(mine), when(theirs)],
    ['Customer', who(mine), who(theirs)],
    ['Employee', employee(mine), employee(theirs)],
    ['Services', svc(mine), svc(theirs)],
    ['Description', mine.description || 'none', theirs.description || 'none'],
    ['Status', status(mine), status(theirs)],
  ];
  const changed = rows.filter(([, a, b]) => a !== b);
  if (changed.length === 0) return <p>It now has version {theirs.version}; nothing you see here differs.</p>;
  return (
    <>
      <p>What changed:</p>
      <ul className="appt-changes">
        {changed.map(([label, was, now]) => (
          <li key={label}>
            <strong>{label}:</strong> {was} <span aria-hidden="true">→</span>
            <span className="visually-hidden"> is now </span> {now}
          </li>
        ))}
      </ul>
    </>
  );
}
