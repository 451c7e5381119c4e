// Compresses responses for clients that accept it (docs/decisions/25-compression.md): brotli when
// the client takes it, else gzip, for compressible types above a small size. Built assets arrive
// here already compressed at build time (they carry Content-Encoding and are left alone); what is
// left is the API's JSON, the app shell and small dynamic answers. Small answers are compressed in
// place, large ones on libuv's thread pool so they do not stall the event loop (`compress`).
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';
import { completeAnswer, isComplete } from './complete-answer.ts';

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
  // Browsers send one of a few fixed strings, and an availability read asked twice (the middleware
  // and jsonAnswer): parsed once each, 1.5-4 µs a call saved (docs/benchmarks.md, session 32). The
  // first CHOSEN_LIMIT strings are kept; any others are parsed every time.
  let chosen = CHOSEN.get(header);
  if (chosen === undefined) {
    chosen = parseAcceptEncoding(header);
    if (CHOSEN.size < CHOSEN_LIMIT) CHOSEN.set(header, chosen);
  }
  return chosen;
}

const CHOSEN_LIMIT = 64;
const CHOSEN = new Map<string, Encoding | null>();

function parseAcceptEncoding(header: string): Encoding | null {
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

/**
 * Below this size an answer is compressed on the event loop. Handing a 2 KB availability answer to
 * libuv's thread pool cost 100-175 µs of CPU against 16 µs done in place (brotli quality 5, this
 * machine), and under load the pool's queue put up to 35 ms on the p99 of the mixed benchmark's
 * reads (docs/decisions/25-compression.md). A large answer still goes to the pool, so it cannot
 * stall the loop.
 */
export const SYNC_COMPRESSION_MAX_BYTES = 64 * 1024;

// Quality 5 / level 6: most of the size win at a small fraction of maximum brotli's CPU, for
// answers made per request (the built assets use the maximum once, at build time).
const brotliOptions = (bytes: number) => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes },
});
const GZIP_LEVEL = 6;

async function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (body.byteLength <= SYNC_COMPRESSION_MAX_BYTES) return compressSync(body, encoding);
  return encoding === 'br' ? brotli(body, brotliOptions(body.byteLength)) : gzip(body, { level: GZIP_LEVEL });
}

function compressSync(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(body, brotliOptions(body.byteLength)) : zlib.gzipSync(body, { level: GZIP_LEVEL });
}

/**
 * The compressed forms of recent answers, by their text: a cached availability answer is the same
 * string on every hit (V8 keeps a string's hash, so the lookup does not read it again), and
 * compressing its 2.7 KB with brotli took 70 of the 140 µs it cost to send. Bounded by the texts'
 * and compressed bytes kept, per encoding, oldest first out.
 */
export const PACKED_ANSWERS_MAX_BYTES = 2 * 2 ** 20;

export class PackedAnswers {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly encoding: Encoding) {}

  get(text: string): Buffer {
    const hit = this.entries.get(text);
    if (hit) return hit;
    const output = compressSync(Buffer.from(text), this.encoding);
    // A text larger than the whole budget is compressed every time rather than pushing out everything else.
    if (text.length + output.byteLength > PACKED_ANSWERS_MAX_BYTES) return output;
    // Kept as an exact copy: Node's one-shot zlib returns a short result as a view of its 16 KB output
    // chunk, so a kept 300-byte answer held 16 KB, about 20 MB over both encodings' budgets in the
    // mixed benchmark, outside the bytes counted here (docs/decisions/25-compression.md).
    const packed = Buffer.allocUnsafeSlow(output.byteLength);
    output.copy(packed);
    this.entries.set(text, packed);
    this.bytes += text.length + packed.byteLength;
    for (const [old, bytes] of this.entries) {
      if (this.bytes <= PACKED_ANSWERS_MAX_BYTES) break;
      this.entries.delete(old);
      this.bytes -= old.length + bytes.byteLength;
    }
    return packed;
  }
}

const packedAnswers = { br: new PackedAnswers('br'), gzip: new PackedAnswers('gzip') };

/**
 * A 200 answer of JSON text, compressed here for a client that takes it. The middleware below
 * reads a finished answer's body to compress it, which makes the Node adapter build a full web
 * Response and stream it out: a cached 2.7 KB availability answer cost 240-260 µs of server CPU
 * that way against 65 µs uncompressed. Answered here, with its length and encoding stated, the
 * middleware leaves it alone and the adapter writes it directly: 75 µs, as uncompressed, with the
 * compressed form kept (PackedAnswers).
 */
export function jsonAnswer(c: Context, text: string, threshold = COMPRESSION_THRESHOLD_BYTES): Response {
  const encoding = c.req.method === 'HEAD' ? null : chooseEncoding(c.req.header('Accept-Encoding'));
  const length = Buffer.byteLength(text);
  // Complete (complete-answer.ts): the headers stay a plain object all the way to the socket.
  if (!encoding || length < threshold)
    return completeAnswer(c, text, { 'Content-Type': 'application/json', Vary: 'Accept-Encoding', 'Content-Length': String(length) });
  const packed = packedAnswers[encoding].get(text);
  return completeAnswer(c, packed as Uint8Array<ArrayBuffer>, {
    'Content-Type': 'application/json',
    Vary: 'Accept-Encoding',
    'Content-Encoding': encoding,
    'Content-Length': String(packed.byteLength),
  });
}

/**
 * The text of an answer made with a string (c.json, c.text, c.html, c.body) as the Node adapter
 * keeps it, or undefined for any other answer. @hono/node-server answers with a light Response that
 * holds `[status, body, headers]` under its own `Symbol('cache')` and builds the full web Response
 * only when the body is read: reading it here through `res.body` cost a small JSON answer to a
 * browser 180 µs of server CPU against 73 µs without Accept-Encoding (a company's public view,
 * this machine). The slot is the adapter's and not a published API: when it is missing or holds
 * something else, answers take the general path below, which is correct, only slower.
 */
function lightText(res: Response): string | undefined {
  for (const symbol of Object.getOwnPropertySymbols(res)) {
    if (symbol.description !== 'cache') continue;
    const slot = (res as unknown as Record<symbol, unknown>)[symbol];
    if (Array.isArray(slot) && slot.length === 3 && typeof slot[1] === 'string') return slot[1];
  }
  return undefined;
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
    // jsonAnswer's, compressed or not as this client takes.
    if (isComplete(res)) return;
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
    // The answer's text read without building a web Response where the adapter allows (lightText).
    const text = lightText(res);
    let body: Buffer;
    if (text !== undefined) {
      if (Buffer.byteLength(text) < threshold) return;
      body = Buffer.from(text);
    } else {
      if (!res.body) return;
      body = Buffer.from(await res.arrayBuffer());
      if (body.byteLength < threshold) {
        c.res = new Response(body, res);
        return;
      }
    }
    const packed = await compress(body, encoding);
    // Headers are set after the assignment: Hono copies the previous answer's headers (its
    // Content-Length among them) onto the new one when c.res is replaced.
    c.res = new Response(packed as Uint8Array<ArrayBuffer>, res);
    c.res.headers.set('Content-Encoding', encoding);
    c.res.headers.set('Content-Length', String(packed.byteLength));
    // The ETag stays as it is: ours name an appointment's version (If-Match), not the bytes.
  };
}
