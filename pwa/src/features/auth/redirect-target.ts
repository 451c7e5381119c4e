// Where to go after signing in: the page the guard remembered, else '/'.
import type { Location } from 'react-router-dom';
import type { LoginRedirectState } from '../../lib/auth.tsx';

export function redirectTarget(location: Location): string {
  const from = (location.state as LoginRedirectState | null)?.from;
  if (!from?.pathname || from.pathname === '/login' || !from.pathname.startsWith('/') || from.pathname.startsWith('//')) return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
