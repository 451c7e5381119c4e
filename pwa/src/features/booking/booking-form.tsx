// The booking form (docs/product/02-screens.md, 04-states.md and 05-validation.md): who is booking, then service, team member,
// day and time. Only days and times the server offers can be picked; a time taken by someone
// else in the meantime is reported and the choices refreshed. The state and the submit live in
// use-booking-form.ts; this file lays the sections out.
import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert } from '../../components/alert.tsx';
import { FormField } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import type { CompanyView } from '../../data/companies.ts';
import { useReminderChannels } from '../../data/messages.ts';
import type { BookingSummaryState } from './appointment-success-page.tsx';
import { BOOKING_TEXT } from './booking-text.ts';
import { BookingDone } from './components/booking-done.tsx';
import { ContactFields } from './components/contact-fields.tsx';
import { EmployeeField, ServiceField } from './components/service-fields.tsx';
import { DateField, TimeField } from './components/slot-picker.tsx';
import { goBackOnePage } from './go-back.ts';
import { useBookingForm } from './use-booking-form.ts';

const SUCCESS_REDIRECT_MS = 1_500;

export function BookingForm({
  company,
  businessSelect,
  onNotAccepting,
}: {
  /** Null while the visitor has not picked a business yet. */
  company: CompanyView | null;
  /** The business picker, shown first in Appointment Details when no company was given. */
  businessSelect?: ReactNode;
  /** The server said the business is not taking bookings (403). */
  onNotAccepting: () => void;
}) {
  const navigate = useNavigate();
  const form = useBookingForm({ company, onNotAccepting });
  const channels = useReminderChannels();
  const { booked, isAuthenticated, services, employees, employeeBooking, submitting, values, edit } = form;

  // Signed-in bookers see the confirmation, then the thank-you page.
  useEffect(() => {
    if (!booked || !isAuthenticated) return;
    const id = setTimeout(
      () => navigate('/appointment-success', { state: { booking: booked } satisfies BookingSummaryState }),
      SUCCESS_REDIRECT_MS,
    );
    return () => clearTimeout(id);
  }, [booked, isAuthenticated, navigate]);

  if (booked) return <BookingDone booked={booked} name={values.name.trim()} email={values.email.trim()} signedIn={isAuthenticated} />;

  const loadFailed = services.isError || employees.isError;

  return (
    <form ref={form.formRef} className="booking-form" onSubmit={form.onSubmit} noValidate>
      {form.formError && (
        <Alert tone="error" onDismiss={form.dismissFormError}>
          {form.formError}
        </Alert>
      )}

      <ContactFields form={form} />

      <fieldset className="card booking-section" disabled={submitting}>
        <legend className="booking-legend">Appointment Details</legend>
        {businessSelect}

        {company && services.isPending && <Loading />}
        {company && loadFailed && (
          <Alert tone="error">
            {BOOKING_TEXT.loadFailed}.{' '}
            <button
              type="button"
              className="btn-link"
              onClick={() => {
                void services.refetch();
                if (employeeBooking) void employees.refetch();
              }}
            >
              Try again
            </button>
          </Alert>
        )}

        {company && services.data && (
          <>
            {employeeBooking && <EmployeeField form={form} />}
            <ServiceField form={form} />
            <DateField form={form} />
            <TimeField form={form} />

            <FormField label="Additional Notes" id={`${form.uid}-notes`}>
              <textarea
                className="textarea"
                value={values.notes}
                maxLength={2000}
                placeholder="Anything the business should know (optional)"
                onChange={(e) => edit.notes(e.target.value)}
              />
            </FormField>

            {/* Offered only where texts go out: a server without SMS would never send it (docs/decisions/10-reminders-and-sms.md). */}
            {channels.data?.sms && (
              <label className="checkbox">
                <input type="checkbox" checked={values.smsConsent} onChange={(e) => edit.smsConsent(e.target.checked)} />
                <span>
                  Send me an SMS reminder before my appointment (optional).
                  <span className="hint"> Message and data rates may apply. Reply STOP to opt out.</span>
                </span>
              </label>
            )}
          </>
        )}
      </fieldset>

      <div className="booking-actions">
        <button type="button" className="btn btn-secondary" onClick={() => goBackOnePage(navigate)} disabled={submitting}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={submitting || !company}>
          {submitting ? 'Booking...' : 'Book Appointment'}
        </button>
      </div>
    </form>
  );
}
