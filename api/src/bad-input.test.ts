// Every route of /api/openapi.json, fed bad input by callers who pass its access rule: malformed
// JSON, wrong types, absurd ids, oversized strings. Always a 4xx with a message, never a 5xx, nothing
// written, and the server still healthy afterwards. Runs on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { call, registerCompany, startTestServer, type TestServer } from './testing/harness.ts';
import { databaseFingerprint } from './testing/fingerprint.ts';

const ABSURD_IDS = ['0', '-1', '1.5', 'abc', '99999999999', '1e3', "1' or '1'='1", '%00'];
const LONG = 'x'.repeat(100_000);

interface Operation {
  method: string;
  path: string;
  op: any;
}

function operations(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

function resolve(doc: any, schema: any): any {
  if (schema?.$ref) return resolve(doc, doc.components.schemas[schema.$ref.split('/').pop()]);
  if (schema?.allOf) return Object.assign({}, ...schema.allOf.map((s: any) => resolve(doc, s)));
  if (schema?.anyOf) return resolve(doc, schema.anyOf.find((s: any) => s.type === 'object' || s.$ref) ?? schema.anyOf[0]);
  return schema;
}

function wrongValue(schema: any): unknown {
  const type = Array.isArray(schema?.type) ? schema.type.find((t: string) => t !== 'null') : schema?.type;
  switch (type) {
    case 'string':
      return { not: 'a string' };
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'not-a-boolean';
    case 'array':
      return 'not-an-array';
    case 'object':
      return 42;
    default:
      return { unexpected: [1, 2, 3] };
  }
}

function badBodies(doc: any, op: any): { label: string; raw: string }[] {
  const schema = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
  const bodies = [
    { label: 'malformed JSON', raw: '{"a": 1,' },
    { label: 'a JSON array', raw: '[1,2,3]' },
    { label: 'a JSON string', raw: '"hello"' },
    { label: 'null', raw: 'null' },
  ];
  const props = schema?.properties ? Object.entries<any>(schema.properties) : [];
  if (props.length) {
    bodies.push({
      label: 'every field of the wrong type',
      raw: JSON.stringify(Object.fromEntries(props.map(([k, s]) => [k, wrongValue(resolve(doc, s))]))),
    });
    const strings = props.filter(
      ([, s]) => resolve(doc, s)?.type === 'string' || (Array.isArray(resolve(doc, s)?.type) && resolve(doc, s).type.includes('string')),
    );
    if (strings.length)
      bodies.push({ label: 'oversized strings', raw: JSON.stringify(Object.fromEntries(strings.map(([k]) => [k, LONG]))) });
  }
  return bodies;
}

describe.each(testDialects())('bad input on %s', (dialect) => {
  let t: TestServer;
  let doc: any;
  const tokens: Record<string, string> = {};
  let adminCompanyId = 0;
  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { ADMIN_EMAIL: 'root@bad-input.test', ADMIN_PASSWORD: 'root-password' } });
    doc = (await t.call('GET', '/openapi.json')).body;
    const registered = await registerCompany(t);
    tokens.admin = registered.token;
    adminCompanyId = registered.companyId;
    tokens.global_admin = (
      await t.call('POST', '/login', { body: { email: 'root@bad-input.test', password: 'root-password' } })
    ).body.token;
  });
  afterAll(async () => t?.close());

  it('answers every malformed request with a 4xx and a message, writing nothing', async () => {
    const before = await databaseFingerprint(t.db);
    const failures: string[] = [];
    let sent = 0;
    for (const { method, path, op } of operations(doc)) {
      if (path === '/stripe/webhook') continue; // verified by signature, not by schema: its own tests
      const params: any[] = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
      const idLike = (name: string) => /id$/i.test(name);
      const fill = (value: (name: string) => string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(value(name)));
      const cases: { label: string; url: string; raw?: string }[] = [];
      // Absurd ids in the path, with an otherwise plausible request.
      for (const name of pathParams.filter(idLike)) {
        for (const bad of ABSURD_IDS)
          cases.push({ label: `${name}=${bad}`, url: fill((n) => (n === name ? bad : '1')), raw: op.requestBody ? '{}' : undefined });
      }
      // Bad bodies on a path whose ids are plausible (1 may or may not exist: either way no 5xx).
      if (op.requestBody) for (const b of badBodies(doc, op)) cases.push({ label: b.label, url: fill(() => '1'), raw: b.raw });
      // Wrong query values.
      const query = params.filter((p) => p.in === 'query');
      if (query.length) {
        const qs = query
          .map(
            (p) =>
              `${p.name}=${encodeURIComponent(idLike(p.name) ? '-5' : p.schema?.type === 'integer' || p.schema?.type === 'number' ? 'NaN' : LONG.slice(0, 5000))}`,
          )
          .join('&');
        cases.push({ label: 'wrong query values', url: `${fill(() => '1')}?${qs}` });
      }
      for (const who of ['admin', 'global_admin']) {
        for (const c of cases) {
          sent++;
          const res = await call(t.url, method, c.url, { raw: c.raw, token: tokens[who] });
          const okStatus = res.status >= 400 && res.status < 500 && typeof res.body?.error === 'string';
          if (!okStatus) failures.push(`${method} ${c.url.slice(0, 80)} as ${who} (${c.label}): ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(20);
    expect(await databaseFingerprint(t.db)).toBe(before);
    expect((await t.call('GET', '/health')).body).toMatchObject({ status: 'ok', db: 'ok' });
  }, 180_000);

  it('a path id that is not a positive integer answers 400 also to a role the route refuses (403 only for its own company, 404 for none)', async () => {
    // DELETE /companies/{id} is global_admin's: an admin is refused it, but a malformed id is still bad input.
    for (const bad of ['0', 'abc', '-1', '1.5']) {
      const res = await call(t.url, 'DELETE', `/api/companies/${bad}`, { token: tokens.admin });
      expect(res.status, `${bad}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe('validation');
    }
    expect((await call(t.url, 'DELETE', `/api/companies/${adminCompanyId}`, { token: tokens.admin })).status).toBe(403);
    // No such company: 404 to every role (docs/decisions/03-tenancy-and-roles.md).
    expect((await call(t.url, 'DELETE', '/api/companies/999999', { token: tokens.admin })).status).toBe(404);
    expect((await call(t.url, 'DELETE', '/api/companies/abc')).status).toBe(401);
  });

  it('a JSON body sent as text, a form or without a Content-Type answers 400 naming what to send (was 415)', async () => {
    const body = JSON.stringify({ email: 'nobody@bad-input.test', password: 'whatever' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const res = await fetch(`${t.url}/api/login`, { method: 'POST', body, headers: type ? { 'content-type': type } : {} });
      const answer = (await res.json()) as { error: string; code: string };
      expect(res.status, `${type}: ${JSON.stringify(answer)}`).toBe(400);
      expect(answer).toEqual({ error: 'Send the request body as JSON (Content-Type: application/json)', code: 'validation' });
    }
  });

  it('refuses a NUL in the path of a write with an Idempotency-Key before storing the key (was a 500 on PostgreSQL)', async () => {
    const res = await call(t.url, 'PUT', '/api/appointments/%F2%9D%A8%B7%08%00', {
      body: { description: 'x' },
      token: tokens.admin,
      headers: { 'Idempotency-Key': 'fuzz-found-nul-path' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('validation');
  });
});
