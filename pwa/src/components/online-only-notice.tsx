// Public booking and the self-service page need the server (docs/decisions/08-offline-pwa.md: only
// the staff calendar works offline): when the browser is offline, or a request found no server, the
// page says so plainly instead of showing a form that cannot be sent.
import { Alert } from './alert.tsx';
import { useOnline } from '../lib/use-online.ts';

export const ONLINE_ONLY_TEXT = 'You are offline. Booking needs an internet connection: nothing has been booked. Connect and try again.';

export function OnlineOnlyNotice({ unreachable = false, text = ONLINE_ONLY_TEXT }: { unreachable?: boolean; text?: string }) {
  const online = useOnline();
  if (online && !unreachable) return null;
  return (
    <Alert tone="warn" className="online-only-notice">
      {text}
    </Alert>
  );
}
