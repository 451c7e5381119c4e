// The API reference: /api/openapi.json generated from the routes' zod schemas, and a Swagger UI page
// at /api/docs whose assets are served from the installed package (it works with no internet).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context.ts';

const require = createRequire(import.meta.url);
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bookwell API reference</title><link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/init.js"></script></body></html>`;
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true });`;

export function docsRoutes(getDocument: () => unknown) {
  let cached: unknown = null;
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => {
      cached ??= getDocument();
      return c.json(cached as object);
    })
    .get('/docs', (c) => c.html(PAGE))
    .get('/docs/assets/init.js', (c) =>
      c.body(INIT, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }),
    )
    .get('/docs/assets/:file', (c) => {
      const file = c.req.param('file');
      const type = ASSETS[file];
      if (!type) return c.json({ error: 'Not found', code: 'not_found' }, 404);
      return c.body(fs.readFileSync(path.join(swaggerDir, file)), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
    });
}
