// Public pages: the header of docs/product/02-screens.md (brand or company, Pricing, FAQ, Login and the
// 'Start Free Trial' button) above the page, and a small footer. Someone signed in (an owner looking
// at the plans, a customer booking again) gets the way back into the app instead of Login and the
// trial, which would only send them back to it.
import { useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { PublicBrandProvider, usePublicBrandValue } from '../../lib/public-brand.tsx';
import { BrandMark } from '../../components/brand-mark.tsx';
import { useAuth } from '../../lib/auth.tsx';
import type { Role } from '../../lib/api-types.ts';
import './public-layout.css';

/** The signed-in user's way back into the app (the guards send each role on from /calendar). */
function appLink(role: Role): { to: string; label: string } {
  if (role === 'customer') return { to: '/calendar', label: 'My appointments' };
  if (role === 'global_admin') return { to: '/admin', label: 'Open Bookwell' };
  return { to: '/calendar', label: 'Open Bookwell' };
}

function PublicHeader() {
  const brand = usePublicBrandValue();
  const { user } = useAuth();
  const back = user ? appLink(user.role) : null;
  const [logoFailed, setLogoFailed] = useState<string | null>(null);
  const showLogo = brand?.logoUrl && logoFailed !== brand.logoUrl;
  return (
    <header className="pub-header">
      <div className="pub-header-inner">
        <Link to={brand?.href ?? '/'} className="pub-brand">
          {brand ? (
            showLogo ? (
              <img
                src={brand.logoUrl!}
                alt=""
                className="pub-brand-logo"
                width={32}
                height={32}
                onError={() => setLogoFailed(brand.logoUrl)}
              />
            ) : (
              <span className="pub-brand-initial" aria-hidden="true">
                {brand.name.trim().charAt(0).toUpperCase()}
              </span>
            )
          ) : (
            <BrandMark size={30} />
          )}
          <span className="pub-brand-name">{brand?.name ?? 'Bookwell'}</span>
        </Link>
        <nav className="pub-nav" aria-label="Main">
          <NavLink to="/pricing" className="pub-nav-link">
            Pricing
          </NavLink>
          <NavLink to="/faq" className="pub-nav-link">
            FAQ
          </NavLink>
          {!back && (
            <NavLink to="/login" className="pub-nav-link">
              Login
            </NavLink>
          )}
        </nav>
        {back ? (
          <Link to={back.to} className="btn btn-primary pub-cta">
            {back.label}
          </Link>
        ) : (
          <Link to="/register" className="btn btn-primary pub-cta">
            Start Free Trial
          </Link>
        )}
      </div>
    </header>
  );
}

export function PublicLayout() {
  const { user } = useAuth();
  return (
    <PublicBrandProvider>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <PublicHeader />
      <main id="main" className="pub-main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="pub-footer">
        <div className="pub-footer-inner">
          <span>© {new Date().getFullYear()} Bookwell</span>
          <nav aria-label="Footer" className="pub-footer-nav">
            <Link to="/pricing">Pricing</Link>
            <Link to="/faq">FAQ</Link>
            {!user && <Link to="/login">Login</Link>}
          </nav>
        </div>
      </footer>
    </PublicBrandProvider>
  );
}
