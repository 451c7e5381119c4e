// Entry point of the public pages (landing, pricing, FAQ, sign-in and sign-up, booking, /manage), built
// by vite.public.config.ts with react and react-dom aliased to preact/compat: React DOM alone was about
// 56 KB brotli of their first load, against issue 15's 60 KB for the whole page
// (docs/decisions/30-csp-and-small-public-pages.md). The staff app, its calendar and the admin stay
// on React in main.tsx; this entry never registers the service worker: signing in loads that app,
// which does.
import './lib/storage-fallback.ts';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders, createQueryClient } from './app/providers.tsx';
import { loadOtherPagesInFull, PublicRoutes } from './app/public-routes.tsx';
import './styles/global.css';

loadOtherPagesInFull();

createRoot(document.getElementById('root')!).render(
  <AppProviders client={createQueryClient()}>
    <BrowserRouter>
      <PublicRoutes />
    </BrowserRouter>
  </AppProviders>,
);
