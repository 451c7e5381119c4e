// Service-worker updates (vite-plugin-pwa, registerType 'prompt'): a new version waits until
// the user accepts it, and until every registered guard agrees (the offline outbox will
// register one so a reload never happens with unsent changes).
import { createStore, useStore } from './store.ts';

export const updateAvailable = createStore(false);
/** The person accepted the update but a guard refused: it loads by itself once they all agree. */
export const updateWaiting = createStore(false);

/** How often a waiting update asks the guards again. */
const GUARD_RETRY_MS = 2_000;

type ReloadGuard = () => boolean | Promise<boolean>;
const guards = new Set<ReloadGuard>();
let applyUpdate: ((reload?: boolean) => Promise<void>) | null = null;

/** Registers a check run before the new version reloads the page; return false to wait. */
export function addReloadGuard(guard: ReloadGuard): () => void {
  guards.add(guard);
  return () => guards.delete(guard);
}

let registering: Promise<void> | null = null;

/**
 * Customers' pages (booking, its thank-you page) do not install the worker for an anonymous
 * visitor: its precache would download the whole staff app in the background, on what is often
 * a phone on mobile data, for someone who books twice a year.
 */
export function isCustomerPage(pathname: string): boolean {
  return /^\/(public\/booking|book-appointment|appointment-success)(\/|$)/.test(pathname);
}

/** Registers the service worker (once; later calls are no-ops). */
export function registerServiceWorker(): Promise<void> {
  registering ??= register();
  return registering;
}

async function register(): Promise<void> {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const { registerSW } = await import('virtual:pwa-register');
  applyUpdate = registerSW({
    immediate: true,
    onNeedRefresh() {
      updateAvailable.set(true);
    },
  });
}

/** Reloads into the new version when every guard allows it; resolves false when one refused. */
export async function reloadToUpdate(): Promise<boolean> {
  for (const guard of guards) {
    if (!(await guard())) return false;
  }
  await applyUpdate?.(true);
  return true;
}

let retrying: ReturnType<typeof setInterval> | null = null;
let checking = false;

/**
 * The person accepted the new version: reloads now, or, when a guard refuses (unsent offline
 * changes), marks the update as waiting and asks the guards again every couple of seconds until
 * they all agree.
 */
export async function acceptUpdate(): Promise<void> {
  if (await reloadToUpdate()) return;
  updateWaiting.set(true);
  retrying ??= setInterval(() => {
    if (checking) return;
    checking = true;
    void reloadToUpdate()
      .then((reloaded) => {
        if (reloaded && retrying) {
          clearInterval(retrying);
          retrying = null;
        }
      })
      .catch(() => undefined) // a guard that fails counts as a refusal: ask again next time
      .finally(() => {
        checking = false;
      });
  }, GUARD_RETRY_MS);
}

export function useUpdateAvailable(): boolean {
  return useStore(updateAvailable);
}

export function useUpdateWaiting(): boolean {
  return useStore(updateWaiting);
}
