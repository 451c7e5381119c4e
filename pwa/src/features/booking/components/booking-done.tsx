// After a booking: a signed-in booker sees a short confirmation (the form then moves on to the
// thank-you page); an anonymous one is invited to create an account first.
import { Link, useNavigate } from 'react-router-dom';
import { Alert } from '../../../components/alert.tsx';
import type { BookingSummaryState } from '../appointment-success-page.tsx';
import { BOOKING_TEXT } from '../booking-text.ts';
import type { RegisterPrefillState } from '../../../lib/register-prefill.ts';
import type { BookedSummary } from '../use-booking-form.ts';

export function BookingDone({ booked, name, email, signedIn }: { booked: BookedSummary; name: string; email: string; signedIn: boolean }) {
  const navigate = useNavigate();
  if (signedIn) {
    return (
      <div className="card booking-done">
        <Alert tone="success">{BOOKING_TEXT.createdLoggedIn}</Alert>
        <p>
          {booked.serviceName}, {booked.when}.
        </p>
      </div>
    );
  }
  return (
    <div className="card booking-done" role="status">
      <h2>Your appointment is booked!</h2>
      <p>
        {booked.serviceName} at {booked.companyName}, {booked.when}. A confirmation is on its way to <strong>{email}</strong>.
      </p>
      <div className="signup-prompt">
        <h3>Create an account</h3>
        <p>Sign up to see, change or cancel your appointments any time.</p>
        <div className="signup-actions">
          <Link to="/login" className="btn btn-secondary">
            Log In
          </Link>
          {/* The name and email just typed go along in the history state, not the address (no personal data in URLs). */}
          <Link
            to={booked.companySlug ? `/register?company=${encodeURIComponent(booked.companySlug)}` : '/register'}
            state={{ prefill: { name, email } } satisfies RegisterPrefillState}
            className="btn btn-primary"
          >
            Sign Up
          </Link>
        </div>
      </div>
      <button
        type="button"
        className="btn-link booking-done-continue"
        onClick={() =>
          navigate('/appointment-success', { state: { booking: booked, declinedAccount: true } satisfies BookingSummaryState })
        }
      >
        No thanks, finish
      </button>
    </div>
  );
}
