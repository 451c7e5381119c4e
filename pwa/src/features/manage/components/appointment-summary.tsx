// What the appointment is: services, when (in the business's zone), with whom, where.
import type { ManagedAppointment } from '../../../data/manage.ts';
import { foreignZone, formatInZone } from '../manage-format.ts';

export function AppointmentSummary({ appointment }: { appointment: ManagedAppointment }) {
  const a = appointment;
  const services = a.services.map((s) => s.name).join(', ') || 'Appointment';
  const minutes = Math.round((Date.parse(a.end_time) - Date.parse(a.start_time)) / 60_000);
  return (
    <dl className="manage-summary">
      <div>
        <dt>What</dt>
        <dd>
          {services} <span className="manage-muted">({minutes} minutes)</span>
        </dd>
      </div>
      <div>
        <dt>When</dt>
        <dd className={a.status === 'cancelled' ? 'manage-struck' : undefined}>
          <time dateTime={a.start_time}>{formatInZone(a.start_time, a.timezone)}</time>
          {foreignZone(a.timezone) && <span className="manage-muted"> ({foreignZone(a.timezone)} time)</span>}
        </dd>
      </div>
      {a.employee_name && (
        <div>
          <dt>With</dt>
          <dd>{a.employee_name}</dd>
        </div>
      )}
      <div>
        <dt>Where</dt>
        <dd>{a.company_name}</dd>
      </div>
    </dl>
  );
}
