// A Vite plugin that writes a brotli (.br) and a gzip (.gz) copy beside every compressible built file
// once the bundle (and the service worker) is written, at maximum compression: the server sends
// them as they are (docs/decisions/25-compression.md), so no request pays for compressing an asset.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|ico)$/i;
const MIN_BYTES = 1024;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

/** Compresses every compressible file of `dir` of at least 1 KB; a copy that is not smaller is not kept. */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0 };
  const jobs: Promise<void>[] = [];
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    jobs.push(
      (async () => {
        const data = await fs.readFile(file);
        if (data.byteLength < MIN_BYTES) return;
        const [br, gz] = await Promise.all([
          brotli(data, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
            },
          }),
          gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
        ]);
        if (br.byteLength < data.byteLength) await fs.writeFile(`${file}.br`, br);
        if (gz.byteLength < data.byteLength) await fs.writeFile(`${file}.gz`, gz);
        totals.files++;
        totals.bytes += data.byteLength;
        totals.brotliBytes += Math.min(br.byteLength, data.byteLength);
      })(),
    );
  }
  await Promise.all(jobs);
  return totals;
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'bookwell-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const t = await precompressDir(outDir);
        this.info?.(`precompressed ${t.files} files: ${Math.round(t.bytes / 1024)} KB -> ${Math.round(t.brotliBytes / 1024)} KB brotli`);
      },
    },
  };
}
