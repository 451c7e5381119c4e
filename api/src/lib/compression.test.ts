// Which encoding a client gets, and what the middleware leaves alone (docs/decisions/25-compression.md).
import zlib from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  PACKED_ANSWERS_MAX_BYTES,
  PackedAnswers,
  SYNC_COMPRESSION_MAX_BYTES,
  chooseEncoding,
  compression,
  jsonAnswer,
} from './compression.ts';

describe('chooseEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0', null],
    ['x-gzip', 'gzip'],
    ['deflate', null],
  ])('%j -> %j', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });

  it('answers each header the same when asked again, those it keeps and those past its limit', () => {
    const headers = Array.from({ length: 200 }, (_, i) => [`gzip;q=${(i / 200).toFixed(3)}, br;q=0.5`, i / 200 > 0.5 ? 'gzip' : 'br']);
    for (let pass = 0; pass < 2; pass++) {
      for (const [header, expected] of headers) expect(chooseEncoding(header), `${header} (pass ${pass})`).toBe(expected);
    }
  });
});

describe('compression middleware', () => {
  const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Appointment ${i}` })) };
  const app = new Hono();
  app.use('*', compression());
  app.get('/big', (c) => c.json(big, 200, { ETag: '"7"' }));
  app.get('/small', (c) => c.json({ ok: true }));
  // A file-like answer that states its length up front, as the static file handler does.
  const text = 'const appointment = {};\n'.repeat(400);
  app.get('/file.js', (c) => c.body(text, 200, { 'Content-Type': 'text/javascript', 'Content-Length': String(Buffer.byteLength(text)) }));
  app.get('/png', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'image/png' }));
  app.get('/no-transform', (c) => c.json(big, 200, { 'Cache-Control': 'no-transform' }));

  const get = (path: string, encoding?: string) => app.request(path, { headers: encoding ? { 'Accept-Encoding': encoding } : {} });

  it('sends JSON above 1 KB as brotli or gzip, as the client prefers, keeping the ETag', async () => {
    const br = await get('/big', 'gzip, br');
    expect(br.headers.get('Content-Encoding')).toBe('br');
    expect(br.headers.get('Vary')).toBe('Accept-Encoding');
    expect(br.headers.get('ETag')).toBe('"7"');
    const packed = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get('Content-Length'))).toBe(packed.byteLength);
    expect(JSON.parse(zlib.brotliDecompressSync(packed).toString())).toEqual(big);

    const gz = await get('/big', 'gzip');
    expect(gz.headers.get('Content-Encoding')).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(big);
  });

  it('compresses an answer too large to do in place (on the thread pool) just the same', async () => {
    const huge = { items: Array.from({ length: 4000 }, (_, i) => ({ id: i, name: `Appointment ${i}` })) };
    expect(Buffer.byteLength(JSON.stringify(huge))).toBeGreaterThan(SYNC_COMPRESSION_MAX_BYTES);
    const hugeApp = new Hono();
    hugeApp.use('*', compression());
    hugeApp.get('/huge', (c) => c.json(huge));
    for (const [encoding, unpack] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const res = await hugeApp.request('/huge', { headers: { 'Accept-Encoding': encoding } });
      expect(res.headers.get('Content-Encoding')).toBe(encoding);
      const packed = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('Content-Length'))).toBe(packed.byteLength);
      expect(JSON.parse(unpack(packed).toString())).toEqual(huge);
    }
  });

  it('states the compressed length, not the original one, for an answer that had a Content-Length', async () => {
    const res = await get('/file.js', 'gzip');
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    const packed = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('Content-Length'))).toBe(packed.byteLength);
    expect(zlib.gunzipSync(packed).toString()).toBe(text);
  });

  it('leaves small answers, images, no-transform and clients without Accept-Encoding alone', async () => {
    for (const [path, encoding] of [
      ['/small', 'br'],
      ['/png', 'br'],
      ['/no-transform', 'br'],
      ['/big', undefined],
    ] as const) {
      const res = await get(path, encoding);
      expect(res.headers.get('Content-Encoding'), path).toBeNull();
    }
    const plain = await get('/big');
    expect(await plain.json()).toEqual(big);
    // Left untouched (no Vary either): an identity body is fine for any client a cache hands it to.
    expect(plain.headers.get('Vary')).toBeNull();
    // A compressible answer that stays small still varies with the header for a client that asked.
    expect((await get('/small', 'br')).headers.get('Vary')).toBe('Accept-Encoding');
  });
});

describe('jsonAnswer', () => {
  const app = new Hono();
  app.use('*', compression());
  app.get('/json/:n', (c) => {
    const n = Number(c.req.param('n'));
    return jsonAnswer(
      c,
      JSON.stringify({
        slots: Array.from({ length: n }, (_, i) => ({ start: `2026-12-01T${String(i % 24).padStart(2, '0')}:00:00.000Z` })),
      }),
    );
  });
  const get = (path: string, encoding?: string) => app.request(path, { headers: encoding ? { 'Accept-Encoding': encoding } : {} });
  const expected = (n: number) => ({
    slots: Array.from({ length: n }, (_, i) => ({ start: `2026-12-01T${String(i % 24).padStart(2, '0')}:00:00.000Z` })),
  });

  it('sends JSON text compressed as the client prefers, with its length, type and Vary, the same on every hit', async () => {
    for (const [encoding, header, unpack] of [
      ['br', 'gzip, deflate, br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      for (let round = 0; round < 2; round++) {
        const res = await get('/json/60', header);
        expect(res.status).toBe(200);
        expect(res.headers.get('Content-Encoding')).toBe(encoding);
        expect(res.headers.get('Content-Type')).toBe('application/json');
        expect(res.headers.get('Vary')).toBe('Accept-Encoding');
        const packed = Buffer.from(await res.arrayBuffer());
        expect(Number(res.headers.get('Content-Length'))).toBe(packed.byteLength);
        expect(JSON.parse(unpack(packed).toString())).toEqual(expected(60));
      }
    }
  });

  it('sends small answers and answers to clients without Accept-Encoding as they are, with their length', async () => {
    for (const [path, header] of [
      ['/json/2', 'gzip, br'],
      ['/json/60', undefined],
    ] as const) {
      const res = await get(path, header);
      expect(res.headers.get('Content-Encoding')).toBeNull();
      expect(res.headers.get('Vary')).toBe('Accept-Encoding');
      const text = await res.text();
      expect(Number(res.headers.get('Content-Length'))).toBe(Buffer.byteLength(text));
      expect(JSON.parse(text)).toEqual(expected(Number(path.split('/')[2])));
    }
  });

  it('keeps answering right once more answers than the kept compressed forms allow have gone by', async () => {
    // Each answer about 36 KB of text: enough distinct ones to go past the bound several times.
    const n = 1000;
    const each = JSON.stringify(expected(n)).length;
    const distinct = Math.ceil((3 * PACKED_ANSWERS_MAX_BYTES) / each);
    for (let k = 0; k < distinct; k++) {
      const res = await get(`/json/${n + k}`, 'br');
      expect(JSON.parse(zlib.brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString())).toEqual(expected(n + k));
    }
    const again = await get(`/json/${n}`, 'br');
    expect(JSON.parse(zlib.brotliDecompressSync(Buffer.from(await again.arrayBuffer())).toString())).toEqual(expected(n));
  });

  it('keeps each compressed form in memory of its own size, so the budget bounds the memory held', () => {
    // A 4 KB availability answer packs to about 200-300 bytes; Node's one-shot zlib hands that back
    // as a view of its 16 KB output chunk, which a kept answer would hold on to.
    const text = JSON.stringify(expected(100));
    for (const encoding of ['br', 'gzip'] as const) {
      const kept = new PackedAnswers(encoding);
      const packed = kept.get(text);
      expect(packed.byteLength).toBeLessThan(1024);
      expect(packed.buffer.byteLength).toBe(packed.byteLength);
      expect(kept.get(text)).toBe(packed);
      const unpack = encoding === 'br' ? zlib.brotliDecompressSync : zlib.gunzipSync;
      expect(unpack(packed).toString()).toBe(text);
    }
  });
});
