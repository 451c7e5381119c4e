// Draws the app icons (PNG) with Node's built-in zlib only, so no image tool is needed.
// Run: node pwa/scripts/make-icons.mjs  (writes into pwa/public/)
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

const BRAND = [15, 118, 110]; // teal-700, matches --brand in the CSS
const WHITE = [255, 255, 255];

const crcTable = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Signed distance to a rounded rectangle centred at (cx, cy).
function roundRect(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}
// Distance to a line segment (for the tick), minus half the stroke width.
function segment(x, y, ax, ay, bx, by, w) {
  const px = x - ax,
    py = y - ay,
    dx = bx - ax,
    dy = by - ay;
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - dx * t, py - dy * t) - w / 2;
}

/**
 * The mark: a white calendar page with two rings and a tick, on a teal tile.
 * Coordinates are in a 0..1 unit square; `inset` shrinks the glyph (maskable safe zone).
 */
function shade(u, v, { fullBleed, inset }) {
  const tile = fullBleed ? -1 : roundRect(u, v, 0.5, 0.5, 0.5, 0.5, 0.22);
  if (tile > 0) return null; // transparent outside the tile
  const s = inset; // glyph scale
  const g = (a) => 0.5 + (a - 0.5) * s;
  const page = roundRect(u, v, 0.5, g(0.55), 0.3 * s, 0.27 * s, 0.06 * s);
  const header = v < g(0.4) ? page : 1;
  const ringL = roundRect(u, v, g(0.37), g(0.27), 0.03 * s, 0.07 * s, 0.03 * s);
  const ringR = roundRect(u, v, g(0.63), g(0.27), 0.03 * s, 0.07 * s, 0.03 * s);
  const tick = Math.min(
    segment(u, v, g(0.39), g(0.58), g(0.47), g(0.66), 0.07 * s),
    segment(u, v, g(0.47), g(0.66), g(0.62), g(0.5), 0.07 * s),
  );
  if (ringL <= 0 || ringR <= 0) return WHITE;
  if (tick <= 0 && page <= 0) return BRAND;
  if (header <= 0) return [204, 251, 241];
  if (page <= 0) return WHITE;
  return BRAND;
}

function render(size, opts) {
  const buf = Buffer.alloc(size * size * 4);
  const SS = 4; // 4x4 supersampling for smooth edges
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const c = shade((x + (sx + 0.5) / SS) / size, (y + (sy + 0.5) / SS) / size, opts);
          if (c) {
            r += c[0];
            g += c[1];
            b += c[2];
            a += 1;
          }
        }
      }
      const i = (y * size + x) * 4;
      const n = SS * SS;
      buf[i] = a ? Math.round(r / a) : 0;
      buf[i + 1] = a ? Math.round(g / a) : 0;
      buf[i + 2] = a ? Math.round(b / a) : 0;
      buf[i + 3] = Math.round((a / n) * 255);
    }
  }
  return png(size, buf);
}

const icons = [
  ['pwa-192x192.png', 192, { fullBleed: false, inset: 1 }],
  ['pwa-512x512.png', 512, { fullBleed: false, inset: 1 }],
  ['maskable-512x512.png', 512, { fullBleed: true, inset: 0.72 }],
  ['apple-touch-icon.png', 180, { fullBleed: true, inset: 0.85 }],
];
for (const [name, size, opts] of icons) {
  writeFileSync(join(out, name), render(size, opts));
  console.log('wrote', name);
}
