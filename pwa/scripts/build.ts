// `npm run build -w pwa [-- --outDir <dir> --emptyOutDir]`: the two production builds, in order. The
// main one (vite.config.ts: the React app, the service worker) empties the folder; the public pages'
// one (vite.public.config.ts: Preact) adds its files beside them and must come second
// (docs/decisions/30-csp-and-small-public-pages.md).
import path from 'node:path';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const at = args.indexOf('--outDir');
const outDir = at >= 0 ? path.resolve(process.cwd(), args[at + 1]!) : path.join(root, 'dist');

await build({ root, configFile: path.join(root, 'vite.config.ts'), build: { outDir, emptyOutDir: true } });
await build({ root, configFile: path.join(root, 'vite.public.config.ts'), build: { outDir, emptyOutDir: false } });
