// Thank-you page after a booking (docs/product/02-screens.md). The booking page passes a summary in the
// navigation state; anonymous bookers are offered an account here too.
import { Link, useLocation } from 'react-router-dom';
import { useAuth } from '../../lib/auth.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { ConfirmAction, ConfirmCard } from '../../components/confirm-card.tsx';

/** Navigation state the booking page hands over. */
export interface BookingSummaryState {
  booking?: {
    companyName: string;
    companySlug: string | null;
    serviceName: string;
    when: string;
    employeeName?: string | null;
  };
  /** The anonymous booker just said "No thanks" to an account: the page does not ask again. */
  declinedAccount?: boolean;
}

export default function AppointmentSuccessPage() {
  const { isAuthenticated } = useAuth();
  const summary = useLocation().state as BookingSummaryState | null;
  const booking = summary?.booking;
  useDocumentTitle('Appointment booked');

  return (
    <ConfirmCard title="Thank you!" text="Your appointment has been booked. A confirmation is on its way to your email.">
      {booking && (
        <div className="confirm-summary">
          <dl>
            <dt>Business</dt>
            <dd>{booking.companyName}</dd>
            <dt>Service</dt>
            <dd>{booking.serviceName}</dd>
            {booking.employeeName && (
              <>
                <dt>With</dt>
                <dd>{booking.employeeName}</dd>
              </>
            )}
            <dt>When</dt>
            <dd>{booking.when}</dd>
          </dl>
        </div>
      )}
      <ConfirmAction to="/calendar">Go to Dashboard</ConfirmAction>
      {/* A guest has no dashboard: the page says what they do have (docs/decisions/09-customer-self-service.md). */}
      {!isAuthenticated && booking?.companySlug && (
        <p className="confirm-guest">
          The link in that email lets you change or cancel it, no account needed.{' '}
          <Link to={`/public/booking/${encodeURIComponent(booking.companySlug)}`}>Book another appointment</Link>
        </p>
      )}
      {!isAuthenticated && booking?.companySlug && !summary?.declinedAccount && (
        <div className="confirm-signup">
          <p>Create an account to see, change or cancel your appointments.</p>
          <div className="confirm-actions">
            <Link to="/login" className="btn btn-secondary">
              Log In
            </Link>
            <Link to={`/register?company=${encodeURIComponent(booking.companySlug)}`} className="btn btn-secondary">
              Sign Up
            </Link>
          </div>
        </div>
      )}
    </ConfirmCard>
  );
}
