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
    title: 'Time off and breaks',
    summary: 'Block out holidays, sick days and lunch breaks so customers cannot book you then.',
    planned: [
      'Days off on particular dates, not just weekdays',
      'Recurring breaks inside your working day',
      'Appointments already booked in that time listed for you to move',
    ],
    today: {
      text: 'Until then, set the weekdays and hours you work in your settings.',
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
