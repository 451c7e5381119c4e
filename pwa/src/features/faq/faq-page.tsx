// Frequently asked questions (docs/product/02-screens.md: free trial, existing website, mobile, calendar sync).
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import './faq-page.css';

const QUESTIONS = [
  {
    q: 'How does the free trial work?',
    a: (
      <>
        Every new business gets 14 days free, with up to 10 staff members, a booking page and email reminders. No credit card is needed to
        start. When the trial ends, choose a plan on the <Link to="/pricing">pricing page</Link> to keep taking online bookings; your
        calendar and customer list stay yours either way.
      </>
    ),
  },
  {
    q: 'Can I use it with my existing website?',
    a: (
      <>
        Yes. Your business gets its own booking link (you will find it in Company Settings). Add it as a “Book now” button or link on your
        website, in your social profiles or in emails, and customers book straight into your calendar.
      </>
    ),
  },
  {
    q: 'Does it work on mobile?',
    a: (
      <>
        Yes. Both the booking page and the staff calendar are designed for phones, tablets and computers. You can install the app on your
        phone’s or tablet’s home screen, and your calendar stays readable when the connection drops: staff who opened it once see the
        calendar, customers, services and hours without a connection, and can create, move, edit and delete appointments. Those changes wait
        on the device, marked as not yet sent, and go to the server when the connection returns; if someone else took the time or changed
        the appointment meanwhile, the app asks you what to do. Online booking by customers needs a connection.
      </>
    ),
  },
  {
    q: 'Can I sync with my calendar?',
    a: (
      <>
        Yes. Each team member, and the business as a whole, gets a private calendar feed link that Google Calendar, Apple Calendar and
        Outlook can subscribe to. Those calendars refresh subscribed feeds on their own schedule, which can take a few hours.
      </>
    ),
  },
];

export default function FaqPage() {
  useDocumentTitle('FAQ');
  return (
    <div className="page-medium">
      <h1>Frequently asked questions</h1>
      <div className="faq-list">
        {QUESTIONS.map(({ q, a }) => (
          <details key={q} className="faq-item">
            <summary>
              <span className="faq-q">{q}</span>
            </summary>
            <p className="faq-a">{a}</p>
          </details>
        ))}
      </div>
      <div className="faq-cta card">
        <p>Still have questions? Try it free for 14 days.</p>
        <Link to="/register" className="btn btn-primary">
          Start Free Trial
        </Link>
      </div>
    </div>
  );
}
