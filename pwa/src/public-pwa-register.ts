// What `virtual:pwa-register` is in the public pages' build (vite.public.config.ts): the public entry
// never registers the service worker (the React app does once someone signs in), so the shared
// update code (lib/pwa-update.ts) gets a registration that does nothing.
export function registerSW(): (reload?: boolean) => Promise<void> {
  return () => Promise.resolve();
}
