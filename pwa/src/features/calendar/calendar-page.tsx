// /calendar: staff get the company calendar (FullCalendar, loaded only here and only for them);
// customers get the list of their own appointments (docs/decisions/04-customers-and-anonymous-booking.md).
import { lazy, Suspense } from 'react';
import { Loading } from '../../components/loading.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { CustomerAppointments } from './components/customer-appointments.tsx';

const StaffCalendar = lazy(() => import('./components/staff-calendar.tsx'));

export default function CalendarPage() {
  const { user } = useAuth();
  if (user?.role === 'customer') return <CustomerAppointments />;
  return (
    <Suspense fallback={<Loading label="Loading appointments..." />}>
      <StaffCalendar />
    </Suspense>
  );
}
