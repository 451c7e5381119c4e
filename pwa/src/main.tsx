// Entry point: mounts the router inside the providers and registers the service worker.
// First of all: storage that cannot throw, for the booking page embedded in another site (lib/storage-fallback.ts).
import './lib/storage-fallback.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders, createQueryClient } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';
import { isCustomerPage, registerServiceWorker } from './lib/pwa-update.ts';
import { listenForInstallPrompt } from './lib/install-prompt.ts';
import { getToken } from './lib/token.ts';
import './styles/global.css';

const queryClient = createQueryClient();
// Before anything renders: the browser may offer installation before the staff app's layout loads.
listenForInstallPrompt();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);

// After the page is usable, so the service worker never competes with the first paint. Signing
// in registers it too (see Root), so staff always get the offline app.
function registerAfterLoad() {
  if (getToken() || !isCustomerPage(window.location.pathname) || navigator.serviceWorker?.controller) {
    void registerServiceWorker();
  }
}
if (document.readyState === 'complete') registerAfterLoad();
else window.addEventListener('load', registerAfterLoad, { once: true });
