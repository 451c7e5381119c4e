// The public pages' router (pwa/src/public-entry.tsx, rendered with Preact): the same pages and layout as
// the public part of router.tsx, and nothing of the signed-in app. A path it does not know (the
// calendar after signing in, any staff page) is a full navigation: the server answers it with the
// React app's shell (docs/decisions/30-csp-and-small-public-pages.md).
import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { AuthProvider } from '../lib/auth.tsx';
import { connection } from '../lib/api-client.ts';
import { AppNotices } from '../components/app-notices.tsx';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { Loading } from '../components/loading.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import LandingPage from '../features/landing/landing-page.tsx';

// The chunk-reload guard of router.tsx is not needed here: a failed import after a deploy shows the
// error boundary, and the next navigation loads the new public shell.
const PUBLIC_PAGES: [path: string, Page: ComponentType][] = [
  ['pricing', lazy(() => import('../features/pricing/pricing-page.tsx'))],
  ['faq', lazy(() => import('../features/faq/faq-page.tsx'))],
  ['login', lazy(() => import('../features/auth/login-page.tsx'))],
  ['register', lazy(() => import('../features/auth/register-page.tsx'))],
  ['forgot-password', lazy(() => import('../features/auth/forgot-password-page.tsx'))],
  ['reset-password', lazy(() => import('../features/auth/reset-password-page.tsx'))],
];
const BookingPage = lazy(() => import('../features/booking/booking-page.tsx'));
const ManagePage = lazy(() => import('../features/manage/manage-page.tsx'));
PUBLIC_PAGES.push(
  ['book-appointment', BookingPage],
  ['book-appointment/:companyId', BookingPage],
  ['public/booking/:companySlug', BookingPage],
  ['appointment-success', lazy(() => import('../features/booking/appointment-success-page.tsx'))],
  ['manage', ManagePage],
  ['manage/:token', ManagePage],
);

/** The paths above, as the server matches them for this shell (api/src/bootstrap.ts, PUBLIC_SHELL_PATH). */
export const PUBLIC_PATH =
  /^\/(?:|pricing|faq|login|register|forgot-password|reset-password|book-appointment(?:\/[^/]+)?|public\/booking\/[^/]+|appointment-success|manage(?:\/[^/]+)?)\/?$/;

/**
 * Navigating to a page of the signed-in app (after signing in or registering) loads it in full instead
 * of changing the address first: the address changes once, when the React app's page arrives.
 */
export function loadOtherPagesInFull(): void {
  const { pushState, replaceState } = window.history;
  const elsewhere = (url: string | URL | null | undefined) => url != null && !PUBLIC_PATH.test(new URL(url, window.location.href).pathname);
  window.history.pushState = function (state, unused, url) {
    if (elsewhere(url)) window.location.assign(url!);
    else pushState.call(this, state, unused, url);
  };
  window.history.replaceState = function (state, unused, url) {
    if (elsewhere(url)) window.location.replace(url!);
    else replaceState.call(this, state, unused, url);
  };
}

function page(Component: ComponentType): ReactNode {
  return (
    <Suspense fallback={<Loading />}>
      <Component />
    </Suspense>
  );
}

/** Any other path belongs to the React app: load it (the server sends that app's shell there). */
function FullNavigation() {
  const { pathname, search, hash } = useLocation();
  const ours = PUBLIC_PATH.test(pathname);
  useEffect(() => {
    // A path of this shell's own that the routes above lack would reload forever: it goes home instead.
    if (!ours) window.location.assign(pathname + search + hash);
  }, [ours, pathname, search, hash]);
  return ours ? <Navigate to="/" replace /> : <Loading />;
}

function PublicRoot() {
  const { pathname } = useLocation();
  useEffect(() => connection.startPeriodicHealthCheck(), []);
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <AuthProvider>
      <AppNotices />
      <ErrorBoundary resetKey={pathname}>
        <Outlet />
      </ErrorBoundary>
    </AuthProvider>
  );
}

export function PublicRoutes() {
  return (
    <Routes>
      <Route element={<PublicRoot />}>
        <Route element={<PublicLayout />}>
          <Route index element={page(LandingPage)} />
          {PUBLIC_PAGES.map(([path, Page]) => (
            <Route key={path} path={path} element={page(Page)} />
          ))}
        </Route>
        <Route path="*" element={<FullNavigation />} />
      </Route>
    </Routes>
  );
}
