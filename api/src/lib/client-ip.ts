// Where the caller's address comes from: the socket, or X-Forwarded-For when TRUST_PROXY says a proxy sets it.
import type { Context } from 'hono';
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
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
