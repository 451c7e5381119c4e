// Bundles the API server's TypeScript (api/src and the @bookwell workspace packages) into one ES
// module, api/dist/server.mjs, which `npm start` and the Docker image run with plain node. Packages
// from node_modules stay imports (native ones like better-sqlite3 cannot be bundled). Running the
// bundle instead of the sources through tsx starts faster and keeps about 60 MB less memory: no
// module-loader thread and no transformed sources held in memory.
//
// api/dist sits at the same depth as api/src, so the sources' paths relative to their own file
// (../../package.json, ../../pwa/dist) resolve to the same places.
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
export const SERVER_BUNDLE = path.join(root, 'api', 'dist', 'server.mjs');

/**
 * How the bundle is run (`npm start` in package.json and the Dockerfile's CMD say the same):
 * source maps for readable stack traces, and an 8 MB young generation (V8's default is 16 MB), which
 * keeps the peak memory under heavy booking load about 30 MB lower for no measurable speed. A 192 MB
 * old generation: without a bound V8 sizes it from the machine's memory and, under a busy mix, let it
 * reach 136-146 MB around a live heap of 40-60 MB; with it the old generation stays near 50 MB
 * (docs/decisions/33-scale-out.md, "Memory"). The live heap has three times that room.
 */
export const SERVER_NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=8', '--max-old-space-size=192'];

/**
 * The environment the bundle is started with besides the deployment's own (`npm start` and the
 * Dockerfile set the same): glibc's malloc keeps up to eight arenas per core, one for each thread
 * that finds the others busy (the event loop, the checkpoint worker, libuv's pool, V8's helpers), and
 * returns little of them. Two arenas kept the SQLite mixed load's peak at 241-245 MB against 253-257
 * (three runs each; bookings over 20 companies about 4% fewer: docs/decisions/33-scale-out.md,
 * "Memory"). glibc reads it when the process starts, so it cannot be set from JavaScript.
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' } as const;

export async function buildServer(outfile: string = SERVER_BUNDLE): Promise<string> {
  await build({
    entryPoints: [path.join(root, 'api', 'src', 'server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    // The bundle is the production server whatever NODE_ENV the build ran under (as for the PWA's
    // `vite build`); packages left as imports read NODE_ENV when the server runs, as usual.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins: [
      {
        name: 'node-modules-stay-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@bookwell/') ? undefined : { external: true }));
        },
      },
    ],
  });
  return outfile;
}
