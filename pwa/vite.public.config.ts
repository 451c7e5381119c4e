// Second build of the PWA: the public pages (public.html -> src/public-entry.tsx) rendered with
// preact/compat instead of React DOM, so their first load fits issue 15's 60 KB
// (docs/decisions/30-csp-and-small-public-pages.md). It runs after the main build (vite.config.ts,
// which empties the folder and writes the service worker) into the same folder, never emptying it;
// its files sit under assets/public/, so no name collides with the main build's, and the service
// worker (written first) does not precache them.
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';

// The preact this workspace depends on (package.json), wherever npm placed it.
const PREACT_DIR = path.dirname(createRequire(import.meta.url).resolve('preact/package.json'));
const preact = (file: string) => path.join(PREACT_DIR, file);

export default defineConfig(({ command, mode }) => {
  // As in vite.config.ts: `vite build` is always the production build, whatever NODE_ENV says.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), precompress()],
    resolve: {
      // Every import of React and of Preact itself to the one preact in pwa/node_modules: FullCalendar
      // pins an older preact at the root, and two copies break hooks ('__H' of undefined).
      alias: [
        { find: /^(?:react|react-dom|preact\/compat)$/, replacement: preact('compat/dist/compat.module.js') },
        { find: /^(?:react-dom|preact\/compat)\/client$/, replacement: preact('compat/client.mjs') },
        { find: /^react\/jsx-(?:dev-)?runtime$/, replacement: preact('compat/jsx-runtime.mjs') },
        { find: /^preact\/jsx-(?:dev-)?runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
        { find: /^preact\/hooks$/, replacement: preact('hooks/dist/hooks.module.js') },
        { find: /^preact$/, replacement: preact('dist/preact.module.js') },
        { find: /^virtual:pwa-register$/, replacement: path.resolve(import.meta.dirname, 'src/public-pwa-register.ts') },
      ],
    },
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      sourcemap: false,
      target: 'es2022',
      // The main build copied public/ already.
      copyPublicDir: false,
      rollupOptions: {
        input: path.resolve(import.meta.dirname, 'public.html'),
        output: {
          entryFileNames: 'assets/public/[name]-[hash].js',
          chunkFileNames: 'assets/public/[name]-[hash].js',
          assetFileNames: 'assets/public/[name]-[hash][extname]',
        },
      },
    },
  };
});
