// The route guard of docs/product/02-screens.md: 'Loading...' while auth loads, /login (remembering the
// page) when signed out, /admin for a global_admin on a company page, /calendar on a role mismatch.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth, type LoginRedirectState } from '../lib/auth.tsx';
import { Loading } from '../components/loading.tsx';
import { redirectFor, type Access } from './access.ts';

export function RequireAuth({ access = {}, children }: { access?: Access; children: ReactNode }) {
  const { isLoading, isAuthenticated, user } = useAuth();
  const location = useLocation();

  if (isLoading) return <Loading />;
  if (!isAuthenticated || !user) {
    const state: LoginRedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/login" replace state={state} />;
  }
  const redirect = redirectFor(user, access);
  if (redirect && redirect !== location.pathname) return <Navigate to={redirect} replace />;
  return <>{children}</>;
}
