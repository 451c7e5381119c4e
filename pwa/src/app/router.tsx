// Every route of docs/product/02-screens.md. Public pages and the signed-in app are separate chunks:
// the public booking page never downloads the calendar or any staff code.
import { lazy as reactLazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { Root } from './root.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { ACCESS, type Access } from './access.ts';
import { Loading } from '../components/loading.tsx';
import LandingPage from '../features/landing/landing-page.tsx';
import { publicPages } from './public-pages.ts';

const RELOAD_KEY = 'bookwell.chunk-reload';

/**
 * React.lazy that survives a deploy: a tab opened before new files replaced the old chunks
 * fails to import them; it reloads once to pick up the new app shell instead of crashing.
 */
function lazy<T extends ComponentType>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return reactLazy(() =>
    load().then(
      (module) => {
        sessionStorage.removeItem(RELOAD_KEY);
        return module;
      },
      (error: unknown) => {
        if (!sessionStorage.getItem(RELOAD_KEY)) {
          sessionStorage.setItem(RELOAD_KEY, '1');
          window.location.reload();
          return new Promise<never>(() => undefined); // the reload takes over
        }
        throw error;
      },
    ),
  );
}

// Public pages. The landing page is in the entry chunk (about 1.4 KB compressed): it is the page most
// first visits open, and a lazy chunk would add a round trip before its first paint (Lighthouse's
// mobile profile: about 0.6 s; docs/decisions/30-csp-and-small-public-pages.md). The others are
// listed once for both entries in public-pages.ts; these two are the React app's alone.
const SubscriptionSuccessPage = lazy(() => import('../features/confirmation/subscription-success-page.tsx'));
const PaymentCancelledPage = lazy(() => import('../features/confirmation/payment-cancelled-page.tsx'));

// The signed-in app (staff and customers).
const AppLayout = lazy(() => import('./layouts/app-layout.tsx'));
const CalendarPage = lazy(() => import('../features/calendar/calendar-page.tsx'));
const SettingsPage = lazy(() => import('../features/settings/settings-page.tsx'));
const CompanySettingsPage = lazy(() => import('../features/company-settings/company-settings-page.tsx'));
const DirectoryPage = lazy(() => import('./routes/directory-route.tsx'));
const AdminPage = lazy(() => import('../features/admin/admin-page.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));
const UpgradePage = lazy(() => import('../features/upgrade/upgrade-page.tsx'));
const ComingSoonPage = lazy(() => import('../features/coming-soon/coming-soon-page.tsx'));

type LazyPage = LazyExoticComponent<ComponentType> | ComponentType;

/** The public pages by path (the landing page is the index route). */
const PUBLIC_PAGES: [path: string, Page: LazyPage][] = [
  ...publicPages<LazyPage>(lazy),
  ['success', SubscriptionSuccessPage],
  ['cancel', PaymentCancelledPage],
];

/** The signed-in app's pages by path, with who may open each (app/access.ts). */
const APP_PAGES: [path: string, Page: LazyPage, access: Access][] = [
  ['calendar', CalendarPage, ACCESS.calendar],
  ['settings', SettingsPage, ACCESS.settings],
  ['company-settings', CompanySettingsPage, ACCESS.companySettings],
  ['directory', DirectoryPage, ACCESS.directory],
  ['admin', AdminPage, ACCESS.admin],
  ['dashboard', DashboardPage, ACCESS.dashboard],
  ['upgrade', UpgradePage, ACCESS.upgrade],
  ['coming-soon-1', ComingSoonPage, ACCESS.comingSoon],
  ['coming-soon-2', ComingSoonPage, ACCESS.comingSoon],
];

function page(Component: LazyPage): ReactNode {
  return (
    <Suspense fallback={<Loading />}>
      <Component />
    </Suspense>
  );
}

function guarded(Component: LazyPage, access: Access): ReactNode {
  return <RequireAuth access={access}>{page(Component)}</RequireAuth>;
}

/**
 * Declarative routes rather than a data router: the data router's machinery (loaders, actions,
 * fetchers) would add about 15 KB gzipped to every public page and nothing here uses it.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Root />}>
        <Route element={<PublicLayout />}>
          <Route index element={page(LandingPage)} />
          {PUBLIC_PAGES.map(([path, Page]) => (
            <Route key={path} path={path} element={page(Page)} />
          ))}
        </Route>
        <Route element={<RequireAuth>{page(AppLayout)}</RequireAuth>}>
          {APP_PAGES.map(([path, Page, access]) => (
            <Route key={path} path={path} element={guarded(Page, access)} />
          ))}
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
