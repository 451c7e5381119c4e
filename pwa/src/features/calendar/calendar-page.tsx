// /calendar: staff get the company calendar (FullCalendar, loaded only here and only for them);
// customers get the list of their own appointments (docs/decisions/04-customers-and-anonymous-booking.md).
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Loading } from '../../components/loading.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { appointmentsQuery } from '../../data/appointments.ts';
import { STAFF_ROLES } from '../../data/users.ts';
import { CustomerAppointments } from './components/customer-appointments.tsx';
import { openingRange } from './hooks/use-calendar-range.ts';

const StaffCalendar = lazy(() => import('./components/staff-calendar.tsx'));

export default function CalendarPage() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  // The appointments of the range a reload opens on are asked for now, while the calendar's code
  // loads, instead of once FullCalendar has drawn its grid and reported its dates: offline, the
  // local store is read meanwhile (docs/benchmarks.md, "Offline calendar"). The calendar then finds them kept.
  // Asked during render, as usePrefetchQuery does, not in an effect: React commits this page only
  // once the calendar's code has arrived, so its effects run too late. Only the first address counts;
  // the calendar asks for every later range itself, and a query already known is left alone.
  // Staff of a company only: the calendar asks for nothing without one (a global admin's).
  const [opening] = useState(() => (user && STAFF_ROLES.includes(user.role) && user.company_id !== null ? openingRange(params) : null));
  if (opening) {
    const query = appointmentsQuery(opening);
    if (!queryClient.getQueryState(query.queryKey)) void queryClient.prefetchQuery(query);
  }
  if (user?.role === 'customer') return <CustomerAppointments />;
  return (
    <Suspense fallback={<Loading label="Loading appointments..." />}>
      <StaffCalendar />
    </Suspense>
  );
}
