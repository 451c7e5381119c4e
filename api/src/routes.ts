// Every API route group, chained into one typed router: its type is the PWA client's contract.
// Add a capability by chaining its router here (one line each).
import { createRouter } from './lib/openapi.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { userRoutes } from './features/users/users.routes.ts';
import { companyRoutes } from './features/companies/companies.routes.ts';
import { adminRoutes } from './features/admin/admin.routes.ts';
import { serviceTypeRoutes } from './features/service-types/service-type.routes.ts';
import { operatingHoursRoutes } from './features/operating-hours/operating-hours.routes.ts';
import { timeSlotRoutes } from './features/operating-hours/time-slots.routes.ts';
import { dateOverrideRoutes } from './features/date-overrides/date-override.routes.ts';
import { durationOptionRoutes } from './features/durations/duration-options.routes.ts';
import { companyDurationRoutes } from './features/durations/company-durations.routes.ts';
import { availabilityRoutes } from './features/availability/availability.routes.ts';
import { appointmentRoutes } from './features/appointments/appointment.routes.ts';
import { syncRoutes } from './features/sync/sync.routes.ts';
import { billingRoutes } from './features/billing/billing.routes.ts';
import { messageRoutes } from './features/notifications/messages.routes.ts';
import { selfServiceRoutes } from './features/self-service/self-service.routes.ts';
import { calendarFeedRoutes } from './features/calendar-feeds/calendar-feed.routes.ts';
import { auditRoutes } from './features/audit/audit.routes.ts';
import { privacyRoutes } from './features/privacy/privacy.routes.ts';

export function buildApiRoutes() {
  return (
    createRouter()
      .route('/', healthRoutes)
      .route('/', authRoutes)
      .route('/', userRoutes)
      .route('/', companyRoutes)
      .route('/', adminRoutes)
      .route('/', serviceTypeRoutes)
      .route('/', operatingHoursRoutes)
      .route('/', timeSlotRoutes)
      .route('/', dateOverrideRoutes)
      .route('/', durationOptionRoutes)
      .route('/', companyDurationRoutes)
      // Before the appointments, whose /appointments/{id} would otherwise claim 'available-slots' as an id.
      .route('/', availabilityRoutes)
      .route('/', appointmentRoutes)
      .route('/', syncRoutes)
      .route('/', billingRoutes)
      .route('/', messageRoutes)
      .route('/', selfServiceRoutes)
      .route('/', calendarFeedRoutes)
      .route('/', auditRoutes)
      .route('/', privacyRoutes)
  );
}

export type ApiRoutes = ReturnType<typeof buildApiRoutes>;
