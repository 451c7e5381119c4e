// Where the caller's address comes from: the socket, or X-Forwarded-For when TRUST_PROXY says a proxy sets it.
import type { Context } from 'hono';
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';

export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    // The last entry is the address our own proxy saw; earlier entries are whatever the client claimed.
    const xff = c.req.header('x-forwarded-for');
    const last = xff
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    // Only an address: anything else (a proxy that passed junk on) falls back to the socket's.
    if (last && isIP(last)) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
