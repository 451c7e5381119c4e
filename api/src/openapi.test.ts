// /api/openapi.json is valid OpenAPI, lists every route the app serves with request and response
// schemas and its access rule, and /api/docs works with its assets served locally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, type TestServer } from './testing/harness.ts';
import { createApp } from './app.ts';

// Routes that are not part of the JSON API contract itself.
const NOT_DOCUMENTED = new Set(['GET /api/openapi.json', 'GET /api/docs', 'GET /api/docs/assets/init.js', 'GET /api/docs/assets/:file']);

function servedRoutes(t: TestServer): string[] {
  const app = createApp(t.server.deps);
  const seen = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL' || !r.path.startsWith('/api/') || r.path.endsWith('*')) continue;
    seen.add(`${r.method} ${r.path}`);
  }
  return [...seen].filter((r) => !NOT_DOCUMENTED.has(r)).sort();
}

function documentedRoutes(doc: any): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of Object.keys(item)) out.push(`${method.toUpperCase()} /api${path.replace(/\{(\w+)\}/g, ':$1')}`);
  }
  return out.sort();
}

describe('OpenAPI document', () => {
  let t: TestServer;
  let doc: any;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    doc = (await t.call('GET', '/openapi.json')).body;
  });
  afterAll(async () => t?.close());

  it('passes an OpenAPI 3.1 validator', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists exactly the routes the app serves', () => {
    const served = servedRoutes(t);
    expect(served.length).toBeGreaterThan(5);
    expect(documentedRoutes(doc)).toEqual(served);
  });

  it('gives every operation an access rule, responses with schemas, and a body schema where it takes one', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op['x-access'], where).toBeTruthy();
        const ok = Object.entries<any>(op.responses).filter(([code]) => code.startsWith('2'));
        expect(ok.length, where).toBeGreaterThan(0);
        for (const [code, res] of ok) {
          if (code === '204') continue;
          const schema =
            res.content?.['application/json']?.schema ??
            res.content?.['text/csv']?.schema ??
            res.content?.['text/calendar']?.schema ??
            res.content?.['text/plain']?.schema;
          expect(schema, `${where} ${code}`).toBeTruthy();
        }
        if (['post', 'put', 'patch'].includes(method) && op.requestBody) {
          expect(op.requestBody.content?.['application/json']?.schema, where).toBeTruthy();
        }
      }
    }
  });

  it('writes every value of a field that takes several literal values (the generator keeps only the first)', () => {
    const schemas = JSON.stringify(doc.components?.schemas ?? {}) + JSON.stringify(doc.paths);
    const increments = [...schemas.matchAll(/"time_increment_minutes":\{([^}]*)\}/g)].map((m) => JSON.parse(`{${m[1]}}`));
    // The company's answer has it as a plain integer; the settings bodies list the values taken.
    const listed = increments.filter((f) => 'enum' in f);
    expect(listed.length).toBeGreaterThan(0);
    for (const field of listed) expect(field).toEqual({ type: 'integer', enum: [15, 30, 45, 60] });
  });

  it('serves a readable reference page whose assets come from this server', async () => {
    const page = await t.call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    for (const src of [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])) {
      expect(src.startsWith('/api/docs/assets/'), src).toBe(true);
      const asset = await fetch(`${t.url}${src}`);
      expect(asset.status, src).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, src).toBeGreaterThan(10);
    }
  });
});
