// The health check the login and register pages run on load (docs/product/02-screens.md).
import { useEffect, useState } from 'react';
import { checkHealth } from '../../lib/api-client.ts';

export const SERVER_UNREACHABLE_TEXT = 'Unable to connect to the server. Please check your connection and try again.';

/** false once the check has failed; true while unknown or healthy. */
export function useServerHealth(): boolean {
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
  return healthy;
}
