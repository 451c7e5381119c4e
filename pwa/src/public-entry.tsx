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
import { loadOtherPagesInFull, preloadPage, PublicRoutes } from './app/public-routes.tsx';
import { loadConfig } from './lib/config.ts';
import './styles/global.css';

loadOtherPagesInFull();

// Started before the first render, not by it: the page's chunk (a lazy import) and the runtime config
// (which every API call awaits) load in parallel, instead of one after the other behind the first
// render. Rendering once the chunk is in paints the page itself in one task, instead of a "Loading..."
// shell first and the page in a second long task a round trip later. A chunk slower than
// FIRST_RENDER_WAIT_MS (a very slow network) gets the shell and its "Loading..." meanwhile, as before.
const FIRST_RENDER_WAIT_MS = 3_000;
// The landing page calls no API while loading.
if (window.location.pathname !== '/') void loadConfig();
const pageReady = preloadPage(window.location.pathname);

function render(): void {
  createRoot(document.getElementById('root')!).render(
    <AppProviders client={createQueryClient()}>
      <BrowserRouter>
        <PublicRoutes />
      </BrowserRouter>
    </AppProviders>,
  );
}

let rendered = false;
const renderOnce = () => {
  if (rendered) return;
  rendered = true;
  render();
};
void pageReady.then(renderOnce, renderOnce);
setTimeout(renderOnce, FIRST_RENDER_WAIT_MS);
