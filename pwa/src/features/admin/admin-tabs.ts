// The admin panel's tabs (docs/product/02-screens.md, "Admin panel"), kept in the URL as ?tab=.
export const ADMIN_TABS = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'companies', label: 'Companies' },
  { id: 'users', label: 'Users' },
  { id: 'export', label: 'Email Export' },
  { id: 'activity', label: 'Activity' },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]['id'];

export const isAdminTab = (v: string | null): v is AdminTab => ADMIN_TABS.some((t) => t.id === v);
