// The root route: auth state, the notices above every page, the periodic API health check.
import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { AuthProvider, useAuth } from '../lib/auth.tsx';
import { registerServiceWorker } from '../lib/pwa-update.ts';
import { connection } from '../lib/api-client.ts';
import { AppNotices } from '../components/app-notices.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { appointmentKeys } from '../data/appointments.ts';
import { endOfflineSession, startOfflineSession } from '../offline/session.ts';
import { offlinePrefill } from '../components/offline/offline-prefill.ts';
import { ErrorBoundary } from '../components/error-boundary.tsx';

/** A new page starts at the top (the declarative router has no ScrollRestoration). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0); // newer browsers return a promise here: never hand it to React as a cleanup
  }, [pathname]);
  return null;
}

/** Signed-in people get the offline app, whichever page they signed in from. */
function OfflineAppForSignedIn() {
  const { isAuthenticated, user } = useAuth();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (isAuthenticated) void registerServiceWorker();
  }, [isAuthenticated]);
  // Staff get their local store and outbox; signing out closes them (the outbox is kept).
  const userId = user?.id;
  const role = user?.role;
  const companyId = useRef<number | null>(null);
  companyId.current = user?.company_id ?? null;
  useEffect(() => {
    if (userId === undefined || role === undefined) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
    // The company's directory, services, lengths and hours go into the local store at start and
    // after each catch-up, so the appointment form opens offline (docs/decisions/08-offline-pwa.md).
    const prefill = offlinePrefill(queryClient, () => companyId.current);
    void startOfflineSession({ id: userId, role }, refresh, () => void prefill().catch(() => undefined));
    return () => void endOfflineSession({ keepOutbox: true });
  }, [userId, role, queryClient]);
  return null;
}

export function Root() {
  const { pathname } = useLocation();
  // docs/product/09-limits.md: periodic health check every 30 s (it also drives proxy/direct switching).
  useEffect(() => connection.startPeriodicHealthCheck(), []);

  return (
    <AuthProvider>
      <OfflineAppForSignedIn />
      <AppNotices />
      <ErrorBoundary resetKey={pathname}>
        <Outlet />
      </ErrorBoundary>
      <ScrollToTop />
    </AuthProvider>
  );
}
