// `npm run build` makes the production build whatever NODE_ENV the caller's environment holds
// (vitest itself runs with NODE_ENV=test): React's production bundle, an app that registers its
// service worker, the worker and its manifest, and a server bundle built for production.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import http from 'node:http';
import { buildServer } from '../api/src/build/server-bundle.ts';
import { spawnServer } from '../api/src/testing/process.ts';

const root = path.resolve(import.meta.dirname, '..');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-build-'));
const pwaDist = path.join(out, 'pwa');

function assets(): { file: string; text: string }[] {
  const dir = path.join(pwaDist, 'assets');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ file: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

describe('production build under NODE_ENV=test', () => {
  beforeAll(async () => {
    // The pwa workspace's build script (the React app, then the public pages on Preact), into a temporary folder.
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'pwa', 'scripts', 'build.ts'), '--outDir', pwaDist, '--emptyOutDir'],
      {
        cwd: path.join(root, 'pwa'),
        env: { ...process.env, NODE_ENV: 'test' },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  }, 180_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('bundles React for production', () => {
    const scripts = assets();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => /jsxDEV|jsx-dev-runtime|react-dom\.development/.test(s.text)).map((s) => s.file)).toEqual([]);
    // Production React decodes its errors at react.dev/errors; the development build spells them out.
    expect(scripts.some((s) => s.text.includes('react.dev/errors'))).toBe(true);
  });

  it('keeps the entry script in the production size range', () => {
    const html = fs.readFileSync(path.join(pwaDist, 'index.html'), 'utf8');
    const entry = /<script type="module"[^>]*src="\/(assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const kb = fs.statSync(path.join(pwaDist, entry!)).size / 1024;
    // About 300 KB in production; the development build was about 500 KB.
    expect(kb).toBeGreaterThan(150);
    expect(kb).toBeLessThan(400);
  });

  it('writes the service worker and a manifest with id and screenshots (not precached)', () => {
    const sw = fs.readFileSync(path.join(pwaDist, 'sw.js'), 'utf8');
    expect(sw).toContain('index.html');
    expect(sw).not.toContain('screenshot-');
    const manifest = JSON.parse(fs.readFileSync(path.join(pwaDist, 'manifest.webmanifest'), 'utf8'));
    expect(manifest.id).toBe('/calendar');
    expect(manifest.screenshots.map((s: { form_factor: string }) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of manifest.screenshots as { src: string }[]) {
      expect(fs.statSync(path.join(pwaDist, shot.src)).size).toBeLessThan(150 * 1024);
    }
  });

  // What a first visit to a public page downloads (issue 15 point 2, docs/decisions/30-csp-and-small-public-pages.md):
  // the server answers public pages with public.html (the Preact build), so its entry script and
  // everything it imports statically, plus the page's lazy chunk and its static imports, each counted
  // as served (the build's .br copy; decision 25).
  function firstLoad(pageChunk: string | null): { files: string[]; brotliKb: number } {
    const html = fs.readFileSync(path.join(pwaDist, 'public.html'), 'utf8');
    const entry = /<script type="module"[^>]*src="\/(assets\/[^"]+\.js)"/.exec(html)![1]!;
    const starts = [entry];
    if (pageChunk) {
      const dir = path.posix.dirname(entry);
      const file = fs.readdirSync(path.join(pwaDist, dir)).find((f) => f.startsWith(`${pageChunk}-`) && f.endsWith('.js'));
      expect(file, `${pageChunk} chunk`).toBeDefined();
      starts.push(`${dir}/${file}`);
    }
    const seen = new Set<string>();
    while (starts.length) {
      const file = starts.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = fs.readFileSync(path.join(pwaDist, file), 'utf8');
      // Static imports only (`import"./x.js"`, `from"./x.js"`): dynamic import() calls are later pages.
      for (const m of text.matchAll(/(?:^|[;\s}])(?:import|from)\s*"\.\/([^"]+\.js)"/g)) starts.push(`${path.posix.dirname(file)}/${m[1]}`);
    }
    const served = (f: string) => {
      const br = path.join(pwaDist, `${f}.br`);
      return fs.existsSync(br) ? fs.statSync(br).size : fs.statSync(path.join(pwaDist, f)).size;
    };
    const bytes = [...seen].reduce((n, f) => n + served(f), 0);
    return { files: [...seen].map((f) => path.basename(f)), brotliKb: Math.round((bytes / 1024) * 10) / 10 };
  }
  const PUBLIC_FIRST_LOADS = { landing: null, booking: 'booking-page', 'sign-in': 'login-page', pricing: 'pricing-page', faq: 'faq-page' };

  it('keeps the staff app, the calendar and the admin out of every public page first load', () => {
    const sizes: Record<string, number> = {};
    for (const [name, chunk] of Object.entries(PUBLIC_FIRST_LOADS)) {
      const load = firstLoad(chunk);
      sizes[name] = load.brotliKb;
      expect(
        load.files.filter((f) => /staff-calendar|calendar-page|fullcalendar|admin-page|app-layout|company-settings|dashboard/.test(f)),
        name,
      ).toEqual([]);
    }
    console.log('public first-load JS, KB brotli:', JSON.stringify(sizes));
    // React DOM is not among them: the public pages render with preact/compat.
    expect(firstLoad(null).files.filter((f) => /react-dom|^index-/.test(f))).toEqual([]);
  });

  // Issue 15's target: 60 KB brotli for the landing and booking pages.
  it('first-load JavaScript of the landing and booking pages is at most 60 KB brotli (issue 15 target)', () => {
    expect(firstLoad(PUBLIC_FIRST_LOADS.landing).brotliKb).toBeLessThanOrEqual(60);
    expect(firstLoad(PUBLIC_FIRST_LOADS.booking).brotliKb).toBeLessThanOrEqual(60);
  });

  it('bundles the server for production', async () => {
    const bundle = await buildServer(path.join(out, 'server', 'server.mjs'));
    expect(fs.readFileSync(bundle, 'utf8')).not.toMatch(/process\.env\.NODE_ENV/);
  });

  it('writes brotli and gzip copies of every compressible asset, and the built server sends them', async () => {
    const html = fs.readFileSync(path.join(pwaDist, 'index.html'), 'utf8');
    const entry = /<script type="module"[^>]*src="\/(assets\/index-[^"]+\.js)"/.exec(html)![1]!;
    const raw = fs.readFileSync(path.join(pwaDist, entry));
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(pwaDist, `${entry}.br`))).equals(raw)).toBe(true);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(pwaDist, `${entry}.gz`))).equals(raw)).toBe(true);

    // Where npm start's bundle sits (two levels under the root): it finds node_modules and the root package.json.
    const bundleDir = fs.mkdtempSync(path.join(root, 'api', '.bundle-test-'));
    const bundle = await buildServer(path.join(bundleDir, 'server.mjs'));
    const dbFile = path.join(out, 'compress.db');
    const server = await spawnServer({ PWA_DIST: pwaDist, DATABASE_URL: `file:${dbFile}`, DISABLE_SCHEDULER: 'true' }, 30_000, [], bundle);
    // Raw HTTP, so the body arrives as sent (fetch would decode it).
    const get = (url: string, encoding: string | null) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.get(url, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
      });
    try {
      const br = await get(`${server.url}/${entry}`, 'gzip, deflate, br, zstd');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control']).toContain('immutable');
      expect(zlib.brotliDecompressSync(br.body).equals(raw)).toBe(true);
      // The wire size of the entry script: about a third of the file.
      expect(br.body.byteLength).toBeLessThan(raw.byteLength / 2.5);

      const gz = await get(`${server.url}/${entry}`, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.body).equals(raw)).toBe(true);

      const plain = await get(`${server.url}/${entry}`, null);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(raw)).toBe(true);

      // A client route gets the app shell, compressed too; so does a JSON answer above 1 KB.
      const shell = await get(`${server.url}/calendar`, 'br');
      expect(shell.status).toBe(200);
      expect(shell.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(shell.body).toString()).toContain('<div id="root">');
      // Public pages get the Preact shell (public.html), every other client route the React app's.
      const shellOf = async (p: string) =>
        /src="\/assets\/(public\/)?/.exec((await get(`${server.url}${p}`, null)).body.toString())?.[1] ?? 'react';
      for (const p of ['/', '/pricing', '/faq', '/login', '/register', '/public/booking/demo', '/manage/abc'])
        expect(await shellOf(p), p).toBe('public/');
      for (const p of ['/calendar', '/settings', '/admin', '/success', '/index.html']) expect(await shellOf(p), p).toBe('react');
      // A script or style an older build had is a 404, never the app shell.
      for (const p of ['/assets/index-gone.js', '/assets/public/gone.css']) {
        const gone = await get(`${server.url}${p}`, null);
        expect(gone.status, p).toBe(404);
        expect(gone.body.toString(), p).not.toContain('<html');
      }
      const doc = await get(`${server.url}/api/openapi.json`, 'gzip;q=1, br;q=0.5');
      expect(doc.status).toBe(200);
      expect(doc.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(zlib.gunzipSync(doc.body).toString()).openapi).toBe('3.1.0');
      const docBr = await get(`${server.url}/api/openapi.json`, 'br');
      expect(docBr.headers['content-encoding']).toBe('br');
      expect(Number(docBr.headers['content-length'])).toBe(docBr.body.byteLength);
      expect(JSON.parse(zlib.brotliDecompressSync(docBr.body).toString())).toEqual(JSON.parse(zlib.gunzipSync(doc.body).toString()));
      // Small answers go as they are, saying that they vary with the header.
      const health = await get(`${server.url}/api/health`, 'br');
      expect(health.headers['content-encoding']).toBeUndefined();
      expect(health.headers.vary).toMatch(/accept-encoding/i);
      expect(JSON.parse(health.body.toString())).toEqual(JSON.parse((await get(`${server.url}/api/health`, null)).body.toString()));
    } finally {
      await server.stop();
      fs.rmSync(bundleDir, { recursive: true, force: true });
    }
  }, 120_000);
});
