// /coming-soon-1 and /coming-soon-2: the two sidebar entries docs/product/02-screens.md names without a screen. Each
// says plainly what is planned there and what to use today; it offers no controls that do nothing.
import { Link, useLocation } from 'react-router-dom';
import './coming-soon-page.css';

interface Upcoming {
  title: string;
  summary: string;
  planned: string[];
  today: { text: string; to: string; label: string };
}

const PAGES: Record<string, Upcoming> = {
  '/coming-soon-1': {
    // Breaks and dated time off exist (Settings: "Add break", "Time off"); what is planned is around them.
    title: 'Time-off requests',
    summary: 'Ask for time off and have it approved, with the appointments it touches listed for you to move.',
    planned: [
      'Time-off requests a manager approves',
      'Appointments already booked in that time listed for you to move',
      "Your team's time off on one page",
    ],
    today: {
      text: 'Breaks and days off already work: add a break to a weekday, or a date under Time off, in your settings.',
      to: '/settings',
      label: 'Open your settings',
    },
  },
  '/coming-soon-2': {
    title: 'Your activity',
    summary: 'A personal overview of your bookings over time.',
    planned: ['Appointments per week and month', 'Your busiest days and hours', 'Cancellations, to spot patterns early'],
    today: {
      text: 'Until then, the calendar shows every appointment you have.',
      to: '/calendar',
      label: 'Open the calendar',
    },
  },
};

export default function ComingSoonPage() {
  const { pathname } = useLocation();
  const page = PAGES[pathname] ?? PAGES['/coming-soon-1'];
  return (
    <section className="card soon-card" aria-labelledby="soon-h">
      <p className="soon-tag">Coming soon</p>
      <h2 id="soon-h">{page.title}</h2>
      <p className="soon-summary">{page.summary}</p>
      <p className="soon-note">This page is not built yet. What we plan for it:</p>
      <ul className="soon-list">
        {page.planned.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      <p className="soon-today">
        {page.today.text} <Link to={page.today.to}>{page.today.label}</Link>
      </p>
    </section>
  );
}
