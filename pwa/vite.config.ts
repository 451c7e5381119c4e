// Build and dev-server configuration of the PWA: React, the service worker and the /api proxy.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './scripts/precompress.ts';

const API_ORIGIN = process.env.API_ORIGIN ?? 'http://127.0.0.1:3000';
/** The dev server and `vite preview` send the API and the runtime config to the real server. */
const API_PROXY = {
  '/api': { target: API_ORIGIN, changeOrigin: false },
  '/config.json': { target: API_ORIGIN, changeOrigin: false },
};

export default defineConfig(({ command, mode }) => {
  // `vite build` (mode 'production' unless --mode says otherwise) always makes the production
  // bundle. Vite takes NODE_ENV from the caller's environment when it is set, so `NODE_ENV=test npm
  // start` used to ship React's development build (about 500 KB instead of 300) and, with
  // import.meta.env.DEV true, an app that never registers its service worker. Vite reads NODE_ENV
  // again after loading this file, so setting it here is enough (and works on every platform).
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return {
    plugins: [
      react(),
      VitePWA({
        // 'prompt': a new service worker waits until the app says it may reload (the offline outbox
        // must be empty first), instead of taking over mid-edit.
        registerType: 'prompt',
        injectRegister: false,
        includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
        manifest: {
          // The app's identity: the start_url it always had, so copies installed before `id`
          // existed stay the same app.
          id: '/calendar',
          name: 'Bookwell: appointment booking',
          short_name: 'Bookwell',
          description: 'Online booking, reminders and a shared calendar for small businesses.',
          theme_color: '#0f766e',
          background_color: '#ffffff',
          display: 'standalone',
          start_url: '/calendar',
          scope: '/',
          icons: [
            { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
            { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
            { src: '/maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
            { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
          ],
          // Shown by the browser's install dialog (made with scripts/make-screenshots.ts).
          screenshots: [
            {
              src: '/screenshot-wide.png',
              sizes: '1280x800',
              type: 'image/png',
              form_factor: 'wide',
              label: 'The staff calendar on a desktop',
            },
            {
              src: '/screenshot-narrow.png',
              sizes: '390x844',
              type: 'image/png',
              form_factor: 'narrow',
              label: 'The staff calendar on a phone',
            },
          ],
        },
        workbox: {
          // The app shell: every built asset, so the staff app opens offline.
          globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
          // Only the install dialog shows the screenshots, fetched when it opens: not part of the shell.
          globIgnores: ['**/screenshot-*.png'],
          navigateFallback: '/index.html',
          // API calls and the runtime config never get the SPA shell (and /api is never cached:
          // offline data comes from IndexedDB, not from a response cache).
          navigateFallbackDenylist: [/^\/api\//, /^\/config\.json$/],
          cleanupOutdatedCaches: true,
        },
      }),
      // After the service worker is written: every asset it precaches gets its .br and .gz copy.
      precompress(),
    ],
    server: {
      host: '127.0.0.1',
      port: 5173,
      proxy: API_PROXY,
    },
    preview: {
      host: '127.0.0.1',
      port: 4173,
      proxy: API_PROXY,
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: false,
      target: 'es2022',
    },
  };
});
