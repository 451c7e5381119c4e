// Who may open which signed-in page: one table read by the router (guards) and the sidebar
// (which only lists what the user may open).
import { STAFF_ROLES, type Role, type User } from '../lib/api-types.ts';

export interface Access {
  /** Roles allowed; anyone signed in when absent. Others are sent to /calendar. */
  roles?: readonly Role[];
  /** A page about one company: a global_admin (who has no company) is sent to /admin. */
  companyPage?: boolean;
}

export const ACCESS = {
  calendar: { companyPage: true },
  settings: {},
  companySettings: { companyPage: true, roles: ['admin', 'manager'] },
  directory: { companyPage: true, roles: STAFF_ROLES },
  dashboard: { companyPage: true, roles: STAFF_ROLES },
  upgrade: { companyPage: true, roles: ['admin'] },
  admin: { roles: ['global_admin'] },
  comingSoon: {},
} satisfies Record<string, Access>;

/** Where the guard sends `user` instead of a page with `access`; null when the page may show. */
export function redirectFor(user: Pick<User, 'role'>, access: Access): string | null {
  if (access.companyPage && user.role === 'global_admin') return '/admin';
  if (access.roles && !access.roles.includes(user.role)) return '/calendar';
  return null;
}

export const canOpen = (user: Pick<User, 'role'>, access: Access) => redirectFor(user, access) === null;

export interface NavEntry {
  label: string;
  to: string;
  access: Access;
}

export interface NavSection {
  title: 'YOU' | 'COMPANY' | 'ADMIN';
  entries: NavEntry[];
}

/** The sidebar of docs/product/02-screens.md ("Layout and sidebar"). */
export const NAV_SECTIONS: NavSection[] = [
  {
    title: 'YOU',
    entries: [
      { label: 'Dashboard', to: '/', access: {} },
      { label: 'Settings', to: '/settings', access: ACCESS.settings },
      { label: 'Coming Soon', to: '/coming-soon-1', access: ACCESS.comingSoon },
      { label: 'Coming Soon', to: '/coming-soon-2', access: ACCESS.comingSoon },
    ],
  },
  {
    title: 'COMPANY',
    entries: [
      { label: 'Dashboard', to: '/dashboard', access: ACCESS.dashboard },
      { label: 'Upgrade', to: '/upgrade', access: ACCESS.upgrade },
      { label: 'Directory', to: '/directory', access: ACCESS.directory },
      { label: 'Settings', to: '/company-settings', access: ACCESS.companySettings },
    ],
  },
  {
    title: 'ADMIN',
    entries: [{ label: 'Administration', to: '/admin', access: ACCESS.admin }],
  },
];

/** Header titles of the signed-in pages. */
export const PAGE_TITLES: Record<string, string> = {
  '/calendar': 'Calendar',
  '/settings': 'Your Settings',
  '/company-settings': 'Company Settings',
  '/directory': 'Directory',
  '/admin': 'Administration',
  '/dashboard': 'Dashboard',
  '/upgrade': 'Upgrade',
  '/coming-soon-1': 'Coming Soon',
  '/coming-soon-2': 'Coming Soon',
};
