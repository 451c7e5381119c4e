// The public pages both entries route: the React app (router.tsx) and the small public shell
// (public-routes.tsx, docs/decisions/30-csp-and-small-public-pages.md). One list of their paths and
// chunks; each entry wraps the imports with its own lazy loader. The landing page is in each entry
// chunk (the index route), and the server's PUBLIC_SHELL_PATH (api/src/bootstrap.ts) matches these paths.
import type { ComponentType } from 'react';

export type PageModule = { default: ComponentType };

const IMPORTS = {
  pricing: () => import('../features/pricing/pricing-page.tsx'),
  faq: () => import('../features/faq/faq-page.tsx'),
  login: () => import('../features/auth/login-page.tsx'),
  register: () => import('../features/auth/register-page.tsx'),
  forgotPassword: () => import('../features/auth/forgot-password-page.tsx'),
  resetPassword: () => import('../features/auth/reset-password-page.tsx'),
  booking: () => import('../features/booking/booking-page.tsx'),
  bookingSuccess: () => import('../features/booking/appointment-success-page.tsx'),
  manage: () => import('../features/manage/manage-page.tsx'),
} satisfies Record<string, () => Promise<PageModule>>;

const PATHS: [path: string, page: keyof typeof IMPORTS][] = [
  ['pricing', 'pricing'],
  ['faq', 'faq'],
  ['login', 'login'],
  ['register', 'register'],
  ['forgot-password', 'forgotPassword'],
  ['reset-password', 'resetPassword'],
  ['book-appointment', 'booking'],
  ['book-appointment/:companyId', 'booking'],
  ['public/booking/:companySlug', 'booking'],
  ['appointment-success', 'bookingSuccess'],
  ['manage', 'manage'],
  ['manage/:token', 'manage'],
];

/** Each public path with its page, every page's import wrapped once by `wrap` (paths of one page share it). */
export function publicPages<P>(wrap: (load: () => Promise<PageModule>) => P): [path: string, Page: P][] {
  const pages = new Map<keyof typeof IMPORTS, P>();
  return PATHS.map(([path, key]) => {
    let page = pages.get(key);
    if (page === undefined) pages.set(key, (page = wrap(IMPORTS[key])));
    return [path, page];
  });
}
