// The health check the login and register pages run on load (docs/product/02-screens.md). A failed
// check is tried again while the page stays open, so the notice goes once the server can be
// reached: a front desk signed out while offline lands here, and the connection returns later.
import { useCallback, useEffect, useState } from 'react';
import { checkHealth } from '../../lib/api-client.ts';
import { isApiError } from '../../lib/api-errors.ts';

export const SERVER_UNREACHABLE_TEXT = 'Unable to connect to the server. Please check your connection and try again.';

/** How often a failed check is tried again, besides when the browser says it is back online. */
export const HEALTH_RECHECK_MS = 10_000;

export interface ServerHealth {
  /** false once the check has failed, until the server answers again; true while unknown or healthy. */
  healthy: boolean;
  /** A form's request failed: when the server answered it (any HTTP status), it can be reached. */
  heardFrom(err: unknown): void;
}

export function useServerHealth(): ServerHealth {
  const [healthy, setHealthy] = useState(true);
  useEffect(() => {
    let active = true;
    checkHealth().then((ok) => {
      if (active) setHealthy(ok);
    });
    return () => {
      active = false;
    };
  }, []);
  useEffect(() => {
    if (healthy) return;
    let active = true;
    const check = () =>
      void checkHealth().then((ok) => {
        if (active && ok) setHealthy(true);
      });
    window.addEventListener('online', check);
    const timer = setInterval(check, HEALTH_RECHECK_MS);
    return () => {
      active = false;
      window.removeEventListener('online', check);
      clearInterval(timer);
    };
  }, [healthy]);
  const heardFrom = useCallback((err: unknown) => {
    if (isApiError(err) && err.kind === 'http') setHealthy(true);
  }, []);
  return { healthy, heardFrom };
}
