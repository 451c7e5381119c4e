// "Install app" (docs/decisions/08-offline-pwa.md: the staff app is installable). Chromium-based
// browsers fire `beforeinstallprompt` while they would install the app; we keep that event so the
// signed-in header can offer an "Install app" button only then, and forget it once the app is
// installed. Other browsers never fire it, so the button never shows there.
import { createStore, useStore } from './store.ts';

/** Chromium's event (not in TypeScript's DOM library). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

const offered = createStore<BeforeInstallPromptEvent | null>(null);
let listening = false;

/**
 * Starts listening (once; at start-up, since the event can fire before the app layout loads). The
 * browser's own mini-infobar is suppressed: customers on the booking pages are not offered the staff
 * app, and staff get the button in the header.
 */
export function listenForInstallPrompt(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    offered.set(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => offered.set(null));
}

/** True while the browser offers to install the app. */
export function useCanInstall(): boolean {
  return useStore(offered) !== null;
}

/** Shows the browser's install dialog; resolves true when the person installed the app. */
export async function promptInstall(): Promise<boolean> {
  const event = offered.get();
  if (!event) return false;
  // One event shows the dialog once; the browser fires a new one if it offers installation again.
  offered.set(null);
  await event.prompt();
  return (await event.userChoice).outcome === 'accepted';
}
