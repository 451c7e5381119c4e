// A person's role as a small coloured badge, with the labels of docs/product/02-screens.md ("Admin panel").
import type { Role } from '../lib/api-types.ts';
import './role-badge.css';

export const ROLE_LABELS: Record<Role, string> = {
  global_admin: 'Global Admin',
  admin: 'Admin',
  manager: 'Manager',
  employee: 'Employee',
  user: 'User',
  customer: 'Customer',
};

export const roleLabel = (role: string) => ROLE_LABELS[role as Role] ?? role;

export function RoleBadge({ role }: { role: string }) {
  return <span className={`role-badge role-${role}`}>{roleLabel(role)}</span>;
}
