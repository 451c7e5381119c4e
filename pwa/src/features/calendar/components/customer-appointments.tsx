// A customer's /calendar (docs/decisions/04-customers-and-anonymous-booking.md): their own appointments as a simple list (the
// API returns only theirs), Cancel on each upcoming booked one, and a Book button to their
// company's booking page. No create modal for customers.
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '../../../components/alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { newIdempotencyKey } from '../../../lib/api-client.ts';
import { appointmentKeys, updateAppointment, useAppointments, type Appointment } from '../../../data/appointments.ts';
import { useCompany } from '../../../data/companies.ts';
import { describeWriteError } from '../appointment-errors.ts';
import { serviceNames } from '../../../components/appointment-text.ts';
import { browserZone, formatDate, formatWallTime, isKnownZone, toWallTime } from '../../../lib/zoned-time.ts';
import './customer-appointments.css';

export function CustomerAppointments() {
  const { user } = useAuth();
  const companyId = user?.company_id ?? null;
  const company = useCompany(companyId);
  const zone = isKnownZone(company.data?.timezone) ? company.data!.timezone : browserZone();
  const appointments = useAppointments(null, companyId !== null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const now = Date.now();
  const all = [...(appointments.data ?? [])].sort((a, b) => a.start_time.localeCompare(b.start_time));
  const upcoming = all.filter((a) => new Date(a.end_time).getTime() >= now);
  const past = all.filter((a) => new Date(a.end_time).getTime() < now).reverse();

  return (
    <section className="customer-appts" aria-labelledby="my-appts-title">
      <div className="customer-appts-head">
        <div>
          <h2 id="my-appts-title">Your appointments</h2>
          {company.data && <p className="customer-appts-company">at {company.data.name}</p>}
          {/* As on the booking page: a customer away from the business reads its clock, and is told so. */}
          {company.data && zone !== browserZone() && (
            <p className="customer-appts-company">Times are in the business’s time zone ({zone.replace(/_/g, ' ')}).</p>
          )}
        </div>
        {company.data?.slug && (
          <Link className="btn btn-primary" to={`/public/booking/${company.data.slug}`}>
            Book an Appointment
          </Link>
        )}
      </div>

      {message && (
        <Alert tone={message.tone} onDismiss={() => setMessage(null)}>
          {message.text}
        </Alert>
      )}
      {appointments.isError && <Alert tone="error">Failed to fetch appointments or users.</Alert>}
      {appointments.isPending && companyId !== null && <Loading label="Loading appointments..." />}

      {appointments.data && (
        <>
          <h3 className="customer-appts-section">Upcoming</h3>
          {upcoming.length === 0 ? (
            <p className="customer-appts-empty">You have no upcoming appointments.</p>
          ) : (
            <ul className="customer-appts-list">
              {upcoming.map((a) => (
                <AppointmentRow
                  key={a.id}
                  appointment={a}
                  zone={zone}
                  cancellable={a.status === 'booked'}
                  closedNote={a.status === 'booked' ? closedNote(a, company.data, zone, now) : null}
                  onResult={setMessage}
                />
              ))}
            </ul>
          )}
          {past.length > 0 && (
            <>
              <h3 className="customer-appts-section">Past</h3>
              <ul className="customer-appts-list is-past">
                {past.map((a) => (
                  <AppointmentRow key={a.id} appointment={a} zone={zone} cancellable={false} past onResult={setMessage} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}

type NoticeCompany = { name: string; email?: string | null; cancellation_notice_hours?: number | null };

/**
 * Past the company's cancellation notice (docs/decisions/09-customer-self-service.md), a customer's
 * own cancel is refused: instead of a Cancel button, what the self-service page says, and who to
 * contact. Null while it can still be cancelled online (or the company is not known yet: the server
 * still decides). False once it has started: nothing to add then.
 */
function closedNote(a: Appointment, company: NoticeCompany | undefined, zone: string, now: number): string | null | false {
  if (!company) return null;
  const start = Date.parse(a.start_time);
  const deadline = start - (company.cancellation_notice_hours ?? 0) * 3600_000;
  if (now < deadline) return null;
  if (now >= start) return false;
  const wall = toWallTime(new Date(deadline).toISOString(), zone);
  const when = `${formatDate(wall.date, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' })} at ${formatWallTime(wall.time)}`;
  return `Changes online were possible until ${when}. Please contact ${company.name}${company.email ? ` at ${company.email}` : ''} to change or cancel it.`;
}

function AppointmentRow({
  appointment: a,
  zone,
  cancellable: bookedAndUpcoming,
  closedNote: closed = null,
  past = false,
  onResult,
}: {
  appointment: Appointment;
  zone: string;
  cancellable: boolean;
  /** Past the notice: the text to show instead of Cancel (false: started, nothing to show). */
  closedNote?: string | null | false;
  past?: boolean;
  onResult: (m: { tone: 'success' | 'error'; text: string }) => void;
}) {
  const cancellable = bookedAndUpcoming && closed === null;
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const start = toWallTime(a.start_time, zone);
  const end = toWallTime(a.end_time, zone);
  const cancelled = a.status === 'cancelled';
  const services = serviceNames(a);
  const when = `${formatDate(start.date, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' })}`;
  const headingId = `appt-${a.id}-title`;

  const cancel = async () => {
    setBusy(true);
    try {
      await updateAppointment(a.id, a.version, { status: 'cancelled' }, newIdempotencyKey());
      onResult({ tone: 'success', text: `Your appointment on ${formatDate(start.date)} at ${formatWallTime(start.time)} is cancelled.` });
    } catch (err) {
      const p = describeWriteError(err, 'Failed to cancel appointment');
      onResult({
        tone: 'error',
        text: p.kind === 'changed' ? 'This appointment was changed meanwhile. Please check it and try again.' : p.message,
      });
    } finally {
      setBusy(false);
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    }
  };

  return (
    <li className={`customer-appt${cancelled ? ' is-cancelled' : ''}`} aria-labelledby={headingId} data-appointment-id={a.id}>
      <div className="customer-appt-main">
        <p id={headingId} className="customer-appt-when">
          <span className="customer-appt-date">{when}</span>
          <span className="customer-appt-time">
            {formatWallTime(start.time)} – {end.date !== start.date ? `${formatDate(end.date)} ` : ''}
            {formatWallTime(end.time)}
          </span>
        </p>
        <p className="customer-appt-what">
          {services || 'Appointment'}
          {a.employee_name && <span className="customer-appt-with"> with {a.employee_name}</span>}
        </p>
        {a.description && <p className="customer-appt-notes">{a.description}</p>}
        {/* Started (closedNote false): no Cancel any more, and the chip says why. */}
        {(cancelled || !past) && (
          <span className={`customer-appt-status status-${a.status}`}>
            {cancelled ? 'Cancelled' : closed === false ? 'In progress' : 'Booked'}
          </span>
        )}
        {closed && <p className="customer-appt-closed">{closed}</p>}
      </div>
      {cancellable && (
        <div className="customer-appt-actions">
          {confirming ? (
            <div className="customer-appt-confirm" role="group" aria-label="Confirm cancellation">
              <span>Cancel this appointment?</span>
              <button type="button" className="btn btn-danger" onClick={() => void cancel()} disabled={busy}>
                {busy ? 'Cancelling...' : 'Yes, Cancel It'}
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={busy}
                onClick={() => {
                  setConfirming(false);
                  requestAnimationFrame(() => cancelRef.current?.focus());
                }}
              >
                Keep It
              </button>
            </div>
          ) : (
            <button
              ref={cancelRef}
              type="button"
              className="btn btn-secondary"
              aria-label={`Cancel appointment on ${formatDate(start.date)} at ${formatWallTime(start.time)}`}
              onClick={() => setConfirming(true)}
            >
              Cancel
            </button>
          )}
        </div>
      )}
    </li>
  );
}
