// The public pages' router (pwa/src/public-entry.tsx, rendered with Preact): the same pages and layout as
// the public part of router.tsx, and nothing of the signed-in app. A path it does not know (the
// calendar after signing in, any staff page) is a full navigation: the server answers it with the
// React app's shell (docs/decisions/30-csp-and-small-public-pages.md).
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { AuthProvider } from '../lib/auth.tsx';
import { connection } from '../lib/api-client.ts';
import { AppNotices } from '../components/app-notices.tsx';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { Loading } from '../components/loading.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import LandingPage from '../features/landing/landing-page.tsx';
import { publicPages, type PageModule } from './public-pages.ts';

/** A lazily loaded page that renders at once, without suspending, once its chunk is in (see preloadPage). */
type LazyPage = (() => ReactNode) & { preload(): Promise<unknown> };

/**
 * Like `lazy()`, but the chunk can be fetched before the first render (preloadPage), and a page whose
 * chunk is already in renders directly: no Suspense fallback painted first and no second render
 * pass in a later task.
 */
function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: ComponentType | null = null;
  let pending: Promise<PageModule> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        pending = null; // a later render tries again (and shows the error boundary if that fails too)
        throw err;
      },
    ));
  const Lazy = lazy(preload);
  function Page() {
    // Decided once per mount: switching from <Lazy> to the page itself later would remount the page.
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded /> : <Lazy />;
  }
  Page.preload = preload;
  return Page;
}

// The chunk-reload guard of router.tsx is not needed here: a failed import after a deploy shows the
// error boundary, and the next navigation loads the new public shell.
const PUBLIC_PAGES = publicPages(lazyPage);

/** The lazy page a path of PUBLIC_PATH shows (null: the landing page, in the entry chunk). */
function pageFor(pathname: string): LazyPage | null {
  const first = pathname.split('/')[1] ?? '';
  return PUBLIC_PAGES.find(([path]) => path.split('/')[0] === first)?.[1] ?? null;
}

/**
 * Starts fetching the chunk of the page at `pathname` (the entry calls it before its first render);
 * resolves when it is in, or at once when the page needs no chunk. Never rejects: a failed load is
 * retried, and reported, by the page's own render.
 */
export function preloadPage(pathname: string): Promise<void> {
  const page = PUBLIC_PATH.test(pathname) ? pageFor(pathname) : null;
  return page
    ? page.preload().then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}

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
  // To the top on every later navigation; not on the first render, where the page is at the top
  // already and scrollTo would only force a layout while the page is starting.
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = '';
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
