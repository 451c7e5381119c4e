// The root route: auth state, the notices above every page, the periodic API health check.
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { AuthProvider } from '../lib/auth.tsx';
import { connection } from '../lib/api-client.ts';
import { AppNotices } from '../components/app-notices.tsx';

/** A new page starts at the top (the declarative router has no ScrollRestoration). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => window.scrollTo(0, 0), [pathname]);
  return null;
}

export function Root() {
  // SPEC.md section 9: periodic health check every 30 s (it also drives proxy/direct switching).
  useEffect(() => connection.startPeriodicHealthCheck(), []);

  return (
    <AuthProvider>
      <AppNotices />
      <Outlet />
      <ScrollToTop />
    </AuthProvider>
  );
}
