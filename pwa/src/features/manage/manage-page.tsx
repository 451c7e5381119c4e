// The customer's self-service page behind the link in their emails, /manage/<token>
// (docs/decisions/09-customer-self-service.md, 23-self-service.md): the appointment, the deadline,
// Cancel and Reschedule. Public: no account, no sign-in, no staff code (decision 20).
//
// The token is a credential: it is read once and removed from the address bar at once (kept for
// this tab only, so a reload still works), like the password links (decision 02).
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { OnlineOnlyNotice } from '../../components/online-only-notice.tsx';
import { errorMessage, isApiError } from '../../lib/api-errors.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useManagedAppointment } from '../../data/manage.ts';
import { AppointmentSummary } from './components/appointment-summary.tsx';
import { CancelPanel } from './components/cancel-panel.tsx';
import { ReschedulePanel } from './components/reschedule-panel.tsx';
import { formatInZone } from './manage-format.ts';
import { MANAGE_TEXT } from './manage-text.ts';
import './manage-page.css';

const TOKEN_KEY = 'bookwell.manage-token';

function readToken(fromPath: string | undefined): string | null {
  try {
    if (fromPath) {
      sessionStorage.setItem(TOKEN_KEY, fromPath);
      return fromPath;
    }
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return fromPath ?? null;
  }
}

function InvalidLink() {
  return (
    <div className="page-narrow manage-page">
      <div className="card manage-card">
        <h1>{MANAGE_TEXT.invalidTitle}</h1>
        <p>{MANAGE_TEXT.invalidText}</p>
        <Link to="/" className="btn btn-secondary">
          Go Home
        </Link>
      </div>
    </div>
  );
}

type Notice = 'moved' | 'cancelled' | null;

function ManageAppointment({ token }: { token: string }) {
  const query = useManagedAppointment(token);
  const [panel, setPanel] = useState<'reschedule' | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  // A link opened without a connection (the app shell comes from the service worker) waits for one:
  // the page says why instead of only spinning.
  if (query.isPending)
    return (
      <div className="page-narrow manage-page">
        <OnlineOnlyNotice text={MANAGE_TEXT.offline} />
        <Loading label={MANAGE_TEXT.loading} />
      </div>
    );
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) return <InvalidLink />;
    return (
      <div className="page-narrow manage-page">
        <div className="card manage-card">
          <h1>{MANAGE_TEXT.title}</h1>
          <OnlineOnlyNotice text={MANAGE_TEXT.offline} />
          <Alert tone="error">
            {MANAGE_TEXT.loadFailed} {errorMessage(query.error)}{' '}
            <button type="button" className="btn-link" onClick={() => void query.refetch()}>
              Try again
            </button>
          </Alert>
        </div>
      </div>
    );
  }

  const a = query.data;
  const started = Date.parse(a.start_time) <= Date.now();
  const deadline = formatInZone(a.deadline, a.timezone);
  const open = a.status === 'booked' && (a.can_cancel || a.can_reschedule);
  // A business not taking bookings keeps cancelling open but offers no new time (docs/decisions/09-customer-self-service.md).
  const allowed = a.can_reschedule && a.can_cancel ? 'change or cancel' : a.can_cancel ? 'cancel' : 'change';
  return (
    <div className="page-narrow manage-page">
      <div className="card manage-card">
        <header className="manage-head">
          <h1>{MANAGE_TEXT.title}</h1>
          <p className="manage-company">{a.company_name}</p>
        </header>
        {open && <OnlineOnlyNotice text={MANAGE_TEXT.offline} />}
        {notice === 'moved' && <Alert tone="success">{MANAGE_TEXT.movedNow}</Alert>}
        {notice === 'cancelled' && <Alert tone="success">{MANAGE_TEXT.cancelledNow}</Alert>}
        {a.status === 'cancelled' && notice !== 'cancelled' && <Alert tone="info">{MANAGE_TEXT.cancelled}</Alert>}
        <AppointmentSummary appointment={a} />

        {a.status === 'booked' && started && <Alert tone="info">{MANAGE_TEXT.started}</Alert>}
        {a.status === 'booked' && !started && !open && (
          <Alert tone="warn">
            Changes online were possible until {deadline}. Please contact {a.company_name}
            {a.company_email && (
              <>
                {' '}
                at <a href={`mailto:${a.company_email}`}>{a.company_email}</a>
              </>
            )}{' '}
            to change or cancel it.
          </Alert>
        )}
        {open && (
          <p className="manage-deadline">
            {a.cancellation_notice_hours > 0 ? (
              <>
                You can {allowed} online until <strong>{deadline}</strong> ({a.cancellation_notice_hours} hours before it starts).
              </>
            ) : (
              <>You can {allowed} online until it starts.</>
            )}
          </p>
        )}

        {open && panel === 'reschedule' && (
          <ReschedulePanel
            token={token}
            appointment={a}
            onClose={() => setPanel(null)}
            onDone={() => {
              setPanel(null);
              setNotice('moved');
            }}
          />
        )}
        {open && panel === null && (
          <div className="manage-actions">
            {a.can_reschedule && (
              <button
                type="button"
                className="btn btn-primary btn-block"
                onClick={() => {
                  setNotice(null);
                  setPanel('reschedule');
                }}
              >
                {MANAGE_TEXT.reschedule}
              </button>
            )}
            {a.can_cancel && <CancelPanel token={token} onDone={() => setNotice('cancelled')} />}
          </div>
        )}
        {a.status === 'cancelled' && (
          <Link to={`/public/booking/${encodeURIComponent(a.company_slug)}`} className="btn btn-secondary btn-block">
            {MANAGE_TEXT.bookAgain}
          </Link>
        )}
      </div>
    </div>
  );
}

export default function ManagePage() {
  const params = useParams();
  const [token] = useState(() => readToken(params.token));
  useDocumentTitle(MANAGE_TEXT.title);

  // Drop the token from the address bar (keeping the router's history state).
  useEffect(() => {
    if (params.token) window.history.replaceState(window.history.state, '', '/manage' + window.location.hash);
  }, [params.token]);

  if (!token) return <InvalidLink />;
  return <ManageAppointment token={token} />;
}
