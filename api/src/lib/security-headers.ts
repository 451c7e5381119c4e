// Security headers of every answer (docs/decisions/12-operations-security-privacy.md, docs/decisions/30-csp-and-small-public-pages.md):
// `X-Content-Type-Options: nosniff` and the other fixed headers on everything (API, static files,
// errors); a Content-Security-Policy on HTML answers (the app shell) that allows no inline script;
// HSTS only when the product is served over https (APP_URL), so a plain-http install (a laptop, the
// e2e server) never tells a browser to refuse http on that host name.
import type { MiddlewareHandler } from 'hono';
import { isComplete } from './complete-answer.ts';

/** The booking pages other sites may embed in an iframe (docs/product: the booking widget). */
export const EMBEDDABLE_PATH = /^\/public\/booking(\/|$)/;

export interface SecurityHeaderOptions {
  /** The product's public URL: HSTS is sent when it is https. */
  appUrl: string;
  /** Where the PWA sends API calls when not to its own origin (config.json's API_URL, DIRECT_API_URL). */
  apiUrls?: (string | null | undefined)[];
}

/** The origin of an absolute http(s) URL, or null for a relative one ('/api'). */
function originOf(url: string | null | undefined): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The policy of the app shell. What the PWA truly needs and nothing more:
 * - scripts only from this origin (the built chunks and the service worker; no inline script, no eval);
 * - styles from this origin plus inline ones: FullCalendar and React's `style` props write styles at
 *   run time (a style cannot run code, so the XSS protection stays in script-src);
 * - images from this origin, data:, blob: and any http(s) address: a company's logo is a URL it
 *   chose (company.schema.ts accepts any http(s) URL), shown on its booking page;
 * - API calls to this origin and to the configured API origins;
 * - the service worker and the manifest from this origin;
 * - no plugins, no <base> elsewhere, forms only to this origin (Stripe's checkout is a navigation);
 * - framing: nobody, except the booking pages, which any site may embed.
 */
export function contentSecurityPolicy(path: string, apiOrigins: string[] = []): string {
  const connect = ["'self'", ...apiOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${EMBEDDABLE_PATH.test(path) ? '*' : "'none'"}`,
  ].join('; ');
}

export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * The headers every answer carries, HTML or not: what Hono's secureHeaders sent with no-referrer,
 * no Cross-Origin-Embedder-Policy (a booking page embeds a company's logo from anywhere) and no
 * X-Frame-Options (decided per page below), written out so that complete answers
 * (complete-answer.ts) can carry them from the start.
 */
export function fixedSecurityHeaders(https: boolean): Readonly<Record<string, string>> {
  return Object.freeze({
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Origin-Agent-Cluster': '?1',
    'Referrer-Policy': 'no-referrer',
    ...(https ? { 'Strict-Transport-Security': HSTS_VALUE } : {}),
    'X-Content-Type-Options': 'nosniff',
    'X-DNS-Prefetch-Control': 'off',
    'X-Download-Options': 'noopen',
    'X-Permitted-Cross-Domain-Policies': 'none',
    'X-XSS-Protection': '0',
  });
}

export function securityHeaders(options: SecurityHeaderOptions): MiddlewareHandler {
  const fixed = fixedSecurityHeaders(/^https:/i.test(options.appUrl));
  const entries = Object.entries(fixed);
  const apiOrigins = [...new Set((options.apiUrls ?? []).map(originOf).filter((o): o is string => o !== null))];
  return async (c, next) => {
    // For answers made complete by the route (complete-answer.ts).
    c.set('securityHeaders', fixed);
    await next();
    if (isComplete(c.res)) return;
    const headers = c.res.headers;
    for (const [name, value] of entries) headers.set(name, value);
    headers.delete('X-Powered-By');
    if (!/^text\/html/i.test(headers.get('Content-Type') ?? '')) return;
    headers.set('Content-Security-Policy', contentSecurityPolicy(c.req.path, apiOrigins));
    if (!EMBEDDABLE_PATH.test(c.req.path)) headers.set('X-Frame-Options', 'DENY');
  };
}
