// The landing page (docs/product/01-overview.md): what the product does; signed-in users go to /calendar.
import { Link, Navigate } from 'react-router-dom';
import { useAuth } from '../../lib/auth.tsx';
import { Loading } from '../../components/loading.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import './landing-page.css';

const FEATURES = [
  {
    title: 'Online booking',
    text: 'Customers pick a service, a time and, if you like, a team member from your own booking page, day or night.',
    icon: <path d="M7 3v3M17 3v3M4 9h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm4 9 2 2 4-4" />,
  },
  {
    title: 'Automatic email and SMS reminders',
    text: 'Confirmations and reminders go out on their own: by email, and by text message to customers who ask for one. Every email carries a link to reschedule or cancel, so fewer appointments are missed.',
    icon: <path d="M4 6h16v12H4zM4 7l8 6 8-6" />,
  },
  {
    title: 'Calendar sync',
    text: 'Subscribe from Google, Apple or Outlook calendars and see every booking next to the rest of your day.',
    icon: <path d="M20 12a8 8 0 1 1-2.34-5.66M20 4v5h-5" />,
  },
  {
    title: 'Mobile-friendly design',
    text: 'Works on any phone, tablet or computer. Install it on the front-desk tablet: the staff calendar, customers and services stay open without a connection, and changes made offline are sent when it returns.',
    icon: <path d="M8 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm3 15h2" />,
  },
];

export default function LandingPage() {
  const { isAuthenticated, isLoading } = useAuth();
  useDocumentTitle('Bookwell: online booking for small businesses');

  if (isLoading) return <Loading />;
  if (isAuthenticated) return <Navigate to="/calendar" replace />;

  return (
    <>
      <section className="hero">
        <div className="hero-inner">
          <p className="eyebrow">Appointment booking for small businesses</p>
          <h1>Let customers book online while you get on with your day</h1>
          <p className="hero-lead">
            A booking page for your business, automatic email and SMS reminders, calendar sync and a shared calendar for your team, on every
            device.
          </p>
          <div className="hero-actions">
            <Link to="/register" className="btn btn-primary">
              Start Free Trial
            </Link>
            <Link to="/pricing" className="btn btn-secondary">
              See pricing
            </Link>
          </div>
          <p className="hero-note">Free for 14 days. No credit card needed.</p>
        </div>
      </section>

      <section className="features page" aria-labelledby="features-heading">
        <h2 id="features-heading" className="section-heading">
          Everything you need to fill your schedule
        </h2>
        <ul className="feature-grid">
          {FEATURES.map((f) => (
            <li key={f.title} className="feature card">
              <svg
                className="feature-icon"
                viewBox="0 0 24 24"
                width="28"
                height="28"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
              >
                {f.icon}
              </svg>
              <h3>{f.title}</h3>
              <p>{f.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="cta-band">
        <div className="page cta-band-inner">
          <h2>Ready to take bookings online?</h2>
          <p>Set up your services and hours in minutes and share your booking link.</p>
          <Link to="/register" className="btn btn-primary">
            Start Free Trial
          </Link>
        </div>
      </section>
    </>
  );
}
