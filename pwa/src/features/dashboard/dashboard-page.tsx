// /dashboard (issue 5, item 8): today's and the next 7 days' appointments of the company, with
// counts and quick actions. Every staff role sees the whole company, as on the calendar; "Only
// mine" narrows it to the appointments the user is the employee of.
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { useCompany } from '../../data/companies.ts';
import { useLiveAppointments, type Appointment } from '../../data/appointments.ts';
import { addDays, dateIn, formatDay, formatTime, isKnownZone } from '../../lib/zoned-time.ts';
import './dashboard-page.css';

const DAYS_AHEAD = 7;
/** The next days' panel shows this many per day, then a link to the day in the calendar. */
const PER_DAY = 4;

function customerOf(a: Appointment): string {
  return a.customer_name?.trim() || (a.user_id != null ? `Customer #${a.user_id}` : 'Customer');
}

export default function DashboardPage() {
  const { user } = useAuth();
  const companyId = user?.company_id ?? null;
  const company = useCompany(companyId);
  const zone = isKnownZone(company.data?.timezone) ? company.data!.timezone : Intl.DateTimeFormat().resolvedOptions().timeZone;
  const today = company.data ? dateIn(new Date(), zone) : null;
  const last = today ? addDays(today, DAYS_AHEAD) : null;
  const appointments = useLiveAppointments(today && last ? { start: today, end: last } : null);
  const [onlyMine, setOnlyMine] = useState(false);
  const canManageCompany = user?.role === 'admin' || user?.role === 'manager';

  const { byDay, counts } = useMemo(() => {
    const byDay = new Map<string, Appointment[]>();
    const counts = { today: 0, week: 0, cancelled: 0 };
    if (!today) return { byDay, counts };
    for (let i = 0; i <= DAYS_AHEAD; i++) byDay.set(addDays(today, i), []);
    const list = [...(appointments.data ?? [])]
      .filter((a) => !onlyMine || a.employee_id === user?.id)
      .sort((a, b) => a.start_time.localeCompare(b.start_time));
    for (const a of list) {
      const day = dateIn(a.start_time, zone);
      const bucket = byDay.get(day);
      if (!bucket) continue; // began before today (overlapping the range)
      bucket.push(a);
      if (a.status === 'cancelled') counts.cancelled += 1;
      else if (day === today) counts.today += 1;
      else counts.week += 1;
    }
    return { byDay, counts };
  }, [appointments.data, today, zone, onlyMine, user?.id]);

  if (company.isError) return <Alert tone="error">Failed to fetch appointments or users.</Alert>;
  if (!today || company.isPending) return <Loading />;

  const todays = byDay.get(today) ?? [];
  const upcomingDays = [...byDay.entries()].filter(([day]) => day !== today);

  return (
    <div className="dashboard">
      <div className="dash-head">
        <div>
          <h2 className="dash-company">{company.data?.name}</h2>
          <p className="dash-today">Today is {formatDay(today, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' })}</p>
        </div>
        <label className="checkbox dash-mine">
          <input type="checkbox" checked={onlyMine} onChange={(e) => setOnlyMine(e.target.checked)} />
          <span>Only my appointments</span>
        </label>
      </div>

      <section aria-labelledby="dash-counts-title">
        <h3 id="dash-counts-title" className="visually-hidden">
          Counts
        </h3>
        <ul className="dash-stats">
          <li className="dash-stat">
            <span className="dash-stat-value" data-testid="count-today">
              {appointments.data ? counts.today : '–'}
            </span>
            <span className="dash-stat-label">Today</span>
          </li>
          <li className="dash-stat">
            <span className="dash-stat-value" data-testid="count-week">
              {appointments.data ? counts.week : '–'}
            </span>
            <span className="dash-stat-label">Next 7 days</span>
          </li>
          <li className="dash-stat is-muted">
            <span className="dash-stat-value" data-testid="count-cancelled">
              {appointments.data ? counts.cancelled : '–'}
            </span>
            <span className="dash-stat-label">Cancelled</span>
            <span className="dash-stat-hint">today and next 7 days</span>
          </li>
        </ul>
      </section>

      <nav className="dash-actions" aria-label="Quick actions">
        <Link className="btn btn-primary" to="/calendar?new=1">
          <span aria-hidden="true">+</span> Create Appointment
        </Link>
        <Link className="btn btn-secondary" to="/calendar">
          Open Calendar
        </Link>
        <Link className="btn btn-secondary" to="/directory">
          Directory
        </Link>
        {canManageCompany && (
          <Link className="btn btn-secondary" to="/company-settings">
            Company Settings
          </Link>
        )}
      </nav>

      {appointments.isError && <Alert tone="error">Failed to fetch appointments or users.</Alert>}
      {appointments.isPending && <Loading label="Loading appointments..." />}

      {appointments.data && (
        <div className="dash-columns">
          <section className="dash-panel" aria-labelledby="dash-today-title">
            <div className="dash-panel-head">
              <h3 id="dash-today-title">Today</h3>
              <Link to={`/calendar?view=day&date=${today}`} className="dash-panel-link">
                Open day
              </Link>
            </div>
            {todays.length === 0 ? <p className="dash-empty">No appointments today.</p> : <AppointmentList items={todays} zone={zone} />}
          </section>

          <section className="dash-panel" aria-labelledby="dash-week-title">
            <div className="dash-panel-head">
              <h3 id="dash-week-title">Next 7 days</h3>
              <Link to={`/calendar?view=list&date=${addDays(today, 1)}`} className="dash-panel-link">
                Open list
              </Link>
            </div>
            {upcomingDays.every(([, items]) => items.length === 0) ? (
              <p className="dash-empty">No appointments in the next 7 days.</p>
            ) : (
              upcomingDays.map(([day, items]) =>
                items.length === 0 ? null : (
                  <div key={day} className="dash-day">
                    <h4 className="dash-day-title">
                      <Link to={`/calendar?view=day&date=${day}`}>{formatDay(day)}</Link>
                      <span className="dash-day-count">{items.filter((a) => a.status !== 'cancelled').length} booked</span>
                    </h4>
                    <AppointmentList items={items.slice(0, PER_DAY)} zone={zone} compact />
                    {items.length > PER_DAY && (
                      <Link className="dash-more" to={`/calendar?view=day&date=${day}`}>
                        {items.length - PER_DAY} more on {formatDay(day, { weekday: 'long' })}
                      </Link>
                    )}
                  </div>
                ),
              )
            )}
          </section>
        </div>
      )}
    </div>
  );
}

function AppointmentList({ items, zone, compact }: { items: Appointment[]; zone: string; compact?: boolean }) {
  return (
    <ul className={`dash-list${compact ? ' is-compact' : ''}`}>
      {items.map((a) => {
        const cancelled = a.status === 'cancelled';
        const services = (a.service_types ?? []).map((s) => s.name).join(', ');
        return (
          <li key={a.id} className={`dash-item${cancelled ? ' is-cancelled' : ''}`}>
            <span className="dash-item-time">
              <span className="dash-item-start">{formatTime(a.start_time, zone)}</span>
              <span className="dash-item-end">
                <span className="visually-hidden">to </span>
                {formatTime(a.end_time, zone)}
              </span>
            </span>
            <span className="dash-item-main">
              <span className="dash-item-customer">{customerOf(a)}</span>
              <span className="dash-item-meta">
                {[services, a.description?.trim(), a.employee_name ? `with ${a.employee_name}` : null].filter(Boolean).join(' · ')}
              </span>
            </span>
            {cancelled && <span className="dash-badge">Cancelled</span>}
          </li>
        );
      })}
    </ul>
  );
}
