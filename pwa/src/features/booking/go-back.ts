// "Cancel goes back one page" (docs/product/02-screens.md, "Booking page"): back in the browser's
// own history, so a visitor who came from the business's website, a typed address or an emailed
// link returns there, not only to a page of this app.
import type { NavigateFunction } from 'react-router-dom';

/** How long to wait for the page to change before deciding there was nothing to go back to. */
const NO_BACK_ENTRY_MS = 500;

/**
 * `history.back()`; in a fresh tab (nothing behind this page) the landing page instead. Where
 * there are entries but none behind this one (the visitor came back here with Back and then
 * pressed Cancel), `back()` does nothing: after a moment without leaving, the landing page too.
 */
export function goBackOnePage(navigate: NavigateFunction): void {
  if (window.history.length <= 1) {
    navigate('/');
    return;
  }
  let left = false;
  const onLeave = () => {
    left = true;
  };
  window.addEventListener('popstate', onLeave, { once: true });
  window.addEventListener('pagehide', onLeave, { once: true });
  window.history.back();
  window.setTimeout(() => {
    window.removeEventListener('popstate', onLeave);
    window.removeEventListener('pagehide', onLeave);
    if (!left) navigate('/');
  }, NO_BACK_ENTRY_MS);
}
