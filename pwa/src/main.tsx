// Entry point: mounts the router inside the providers and registers the service worker.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders, createQueryClient } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';
import { registerServiceWorker } from './lib/pwa-update.ts';
import './styles/global.css';

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);

// After the page is usable, so the service worker never competes with the first paint.
if (document.readyState === 'complete') void registerServiceWorker();
else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
