// Compresses responses for clients that accept it (docs/decisions/25-compression.md): brotli when
// the client takes it, else gzip, for compressible types above a small size. Built assets arrive
// here already compressed at build time (they carry Content-Encoding and are left alone); what is
// left is the API's JSON, the app shell and small dynamic answers. zlib's async calls run on
// libuv's thread pool, so a large answer does not stall the event loop.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this many bytes the headers cost more than compression saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to use for an Accept-Encoding header: the client's highest q-value among brotli and
 * gzip (brotli on a tie; `*` stands for both), or null for identity.
 */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q: Record<string, number> = {};
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q[name] = Number.isFinite(value) ? value : 0;
  }
  const of = (name: Encoding) => q[name] ?? (name === 'gzip' ? q['x-gzip'] : undefined) ?? q['*'] ?? 0;
  const br = of('br');
  const gz = of('gzip');
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

function appendVary(headers: Headers): void {
  const vary = headers.get('Vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) && vary.trim() !== '*') headers.set('Vary', `${vary}, Accept-Encoding`);
}

export function compression(threshold = COMPRESSION_THRESHOLD_BYTES): MiddlewareHandler {
  return async (c, next) => {
    // Decided before the answer exists: a client that takes no compression (the load generator,
    // curl, server-to-server calls) costs nothing here. Touching an answer's headers or body makes
    // the Node adapter build a full web Response, which cost 40% of the throughput of the small
    // availability answers when done for every request.
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding || c.req.method === 'HEAD') return next();
    await next();
    const res = c.res;
    if (res.status < 200 || res.status === 204 || res.status === 206 || res.status === 304) return;
    const type = res.headers.get('Content-Type');
    if (!type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) return;
    // Every compressible answer varies with the header, compressed this time or not (caches must not
    // hand a brotli body to a client that cannot read it, nor the reverse).
    if (res.headers.has('Content-Encoding')) return appendVary(res.headers);
    if (/(^|,)\s*no-transform\s*(,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return;
    appendVary(res.headers);
    const length = res.headers.get('Content-Length');
    if (length !== null && Number(length) < threshold) return;
    if (!res.body) return;

    const body = Buffer.from(await res.arrayBuffer());
    if (body.byteLength < threshold) {
      c.res = new Response(body, res);
      return;
    }
    // Quality 5 / level 6: most of the size win at a small fraction of maximum brotli's CPU, for
    // answers made per request (the built assets use the maximum once, at build time).
    const packed =
      encoding === 'br'
        ? await brotli(body, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
          })
        : await gzip(body, { level: 6 });
    // Headers are set after the assignment: Hono copies the previous answer's headers (its
    // Content-Length among them) onto the new one when c.res is replaced.
    c.res = new Response(packed, res);
    c.res.headers.set('Content-Encoding', encoding);
    c.res.headers.set('Content-Length', String(packed.byteLength));
    // The ETag stays as it is: ours name an appointment's version (If-Match), not the bytes.
  };
}
