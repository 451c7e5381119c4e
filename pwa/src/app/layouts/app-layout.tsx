// Signed-in pages (docs/product/02-screens.md, "Layout and sidebar"): a header with logo, page title and
// Sign Out (and "Install app" while the browser offers it), under it the offline strip (offline,
// changes waiting to sync, "Needs attention"; docs/decisions/08-offline-pwa.md), a sidebar with the YOU / COMPANY / ADMIN
// sections, and the page. On phones the sidebar folds into a menu opened from the header.
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../../lib/auth.tsx';
import { BrandMark } from '../../components/brand-mark.tsx';
import { OfflineStrip } from '../../components/offline/offline-strip.tsx';
import { promptInstall, useCanInstall } from '../../lib/install-prompt.ts';
import { NAV_SECTIONS, PAGE_TITLES, canOpen } from '../access.ts';
import './app-layout.css';

/** "Install app", only while the browser offers installation. */
function InstallAppButton({ className }: { className: string }) {
  if (!useCanInstall()) return null;
  return (
    <button type="button" className={`btn btn-secondary ${className}`} onClick={() => void promptInstall()}>
      Install app
    </button>
  );
}

export function AppLayout() {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const title = PAGE_TITLES[location.pathname.replace(/\/+$/, '')] ?? 'Bookwell';
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const navId = useId();

  useEffect(() => {
    document.title = `${title} · Bookwell`;
  }, [title]);

  // Following a link closes the phone menu.
  useEffect(() => {
    setMenuOpen(false);
  }, [location.pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const sections = user
    ? NAV_SECTIONS.map((s) => ({ ...s, entries: s.entries.filter((e) => canOpen(user, e.access)) })).filter((s) => s.entries.length > 0)
    : [];

  const onSignOut = () => {
    signOut();
    navigate('/login', { replace: true });
  };

  return (
    <div className={`app-shell${menuOpen ? ' menu-open' : ''}`}>
      <a href="#app-main" className="skip-link">
        Skip to content
      </a>
      <header className="app-header">
        <button
          ref={menuButton}
          type="button"
          className="app-menu-btn"
          aria-expanded={menuOpen}
          aria-controls={navId}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <span className="app-menu-icon" aria-hidden="true" />
          <span className="visually-hidden">Menu</span>
        </button>
        <Link to="/" className="app-logo" aria-label="Bookwell home">
          <BrandMark size={30} />
        </Link>
        <h1 className="app-title">{title}</h1>
        <div className="app-header-end">
          {user?.name && <span className="app-user">{user.name}</span>}
          <InstallAppButton className="app-install" />
          <button type="button" className="btn btn-secondary app-signout" onClick={onSignOut}>
            Sign Out
          </button>
        </div>
      </header>
      <OfflineStrip />
      <div className="app-body">
        <nav id={navId} className="app-sidebar" aria-label="Sections">
          {sections.map((section) => (
            <div key={section.title} className="app-nav-section">
              <h2 className="app-nav-title">{section.title}</h2>
              <ul>
                {section.entries.map((entry) => (
                  <li key={entry.to}>
                    <NavLink
                      to={entry.to}
                      end
                      className={({ isActive }) =>
                        `app-nav-link${isActive || (entry.to === '/' && location.pathname === '/calendar') ? ' active' : ''}`
                      }
                    >
                      {entry.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {/* Phones: the header has no room, so the menu offers it. */}
          <InstallAppButton className="app-install-menu" />
        </nav>
        {menuOpen && <div className="app-scrim" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
        <main id="app-main" className="app-main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export default AppLayout;
