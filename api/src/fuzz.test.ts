// Fuzzing every route of /api/openapi.json with fast-check: bodies shaped by each route's schema (with
// hostile values mixed in: NUL, lone surrogates, invalid UTF-8, huge numbers, wrong types) and plain
// garbage, query strings, path parameters and headers, sent anonymously and as a signed-in admin. No
// answer may be a 5xx the route does not document, and afterwards the server is healthy and a normal
// booking still works. Runs on SQLite and PostgreSQL (docs/decisions/29-input-rate-limits-request-ids.md).
// FUZZ_RUNS (cases per route and caller, default 12) and FUZZ_SEED reproduce or deepen a run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { registerCompany, startTestServer, type TestServer } from './testing/harness.ts';
import { bookableCompany, customerContact } from './testing/booking-fixtures.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\0',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '😀',
  'x'.repeat(5000),
  '%00',
  '%FF',
  '%',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'NaN',
  '-1',
  '1e400',
  '2026-13-45',
  '2026-12-01',
  '2026-12-01T10:00:00.000Z',
  '9999-12-31T23:59:59Z',
  '09:00',
  '25:61',
  'a@b.co',
  '+442079460000',
  'Europe/London',
  'Not/AZone',
];
const HOSTILE_NUMBERS = [0, -1, 1, 2, 3, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), Number.MAX_SAFE_INTEGER, 1e308, -1e308];

function resolve(doc: any, schema: any): any {
  if (schema?.$ref) return resolve(doc, doc.components.schemas[schema.$ref.split('/').pop()]);
  return schema;
}

const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>(...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, true, false, null, [], {}),
);

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  // Any UTF-16 code units, lone surrogates included.
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 12 }) },
);

const number = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constantFrom(...HOSTILE_NUMBERS), fc.integer(), fc.double());

/** Values shaped like `schema` most of the time, and anything at all now and then. */
function valueOf(doc: any, raw: any, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (!schema || depth > 4) return garbage;
  const variants: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) variants.push(fc.constantFrom(...schema.enum));
  if (schema.const !== undefined) variants.push(fc.constant(schema.const));
  for (const s of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) variants.push(valueOf(doc, s, depth + 1));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  for (const type of types) {
    if (type === 'string') variants.push(schema.example !== undefined ? fc.oneof(fc.constant(String(schema.example)), text) : text);
    else if (type === 'integer' || type === 'number') variants.push(number);
    else if (type === 'boolean') variants.push(fc.boolean());
    else if (type === 'null') variants.push(fc.constant(null));
    else if (type === 'array') variants.push(fc.array(valueOf(doc, schema.items, depth + 1), { maxLength: 4 }));
    else if (type === 'object') {
      const props = Object.entries<any>(schema.properties ?? {});
      const record = fc.record(Object.fromEntries(props.map(([k, s]) => [k, valueOf(doc, s, depth + 1)])), { requiredKeys: [] });
      variants.push(
        fc.tuple(record, fc.option(fc.dictionary(text, garbage, { maxKeys: 2 }), { freq: 5 })).map(([r, extra]) => ({ ...extra, ...r })),
      );
    }
  }
  if (!variants.length) return garbage;
  return fc.oneof({ weight: 8, arbitrary: fc.oneof(...variants) }, { weight: 1, arbitrary: garbage });
}

/** A body as bytes: JSON of a schema-shaped value mostly; malformed text, invalid UTF-8 or nothing sometimes. */
function bodyOf(doc: any, schema: any): fc.Arbitrary<Uint8Array | undefined> {
  const json = valueOf(doc, schema).map((v) => Buffer.from(JSON.stringify(v) ?? 'null'));
  return fc.oneof(
    { weight: 12, arbitrary: json },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => Buffer.from(s)) },
    {
      weight: 1,
      arbitrary: fc.tuple(json, fc.nat(), fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8])).map(([j, at, bad]) => {
        const cut = at % (j.length + 1);
        return Buffer.concat([j.subarray(0, cut), Buffer.from(bad), j.subarray(cut)]);
      }),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** A query or path component: the value as text, percent-encoded (lone surrogates as their raw bytes), or raw escapes. */
function encoded(value: unknown): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '')) + '%ED%A0%80';
  }
}

interface Case {
  path: string;
  query: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

function caseOf(doc: any, path: string, op: any): fc.Arbitrary<Case> {
  const params: any[] = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const headerParams = params.filter((p) => p.in === 'header');
  const component = (p: any) => fc.oneof({ weight: 3, arbitrary: valueOf(doc, p.schema) }, { weight: 1, arbitrary: text }).map(encoded);
  const pathArb = fc
    .tuple(
      ...pathParams.map((p) =>
        fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 4 }).map(String) }, { weight: 2, arbitrary: component(p) }),
      ),
    )
    .map((values) => {
      let i = 0;
      return path.replace(/\{\w+\}/g, () => values[i++] || 'x');
    });
  const queryArb = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.option(
          component(p).map((v) => `${encodeURIComponent(p.name)}=${v}`),
          { freq: 3 },
        ),
      ),
      fc.option(fc.constantFrom('junk=%00', '%FF=1', 'a=%', '=x', '&&', 'x=%ED%A0%80'), { freq: 4 }),
    )
    .map((parts) => parts.filter((p) => p !== null).join('&'));
  const headerArb = fc
    .tuple(...headerParams.map(() => fc.option(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('"1"', '*', 'W/"2"')), { freq: 2 })))
    .map((values) => {
      const out: Record<string, string> = {};
      headerParams.forEach((p, i) => {
        // Header values are bytes 0x20-0x7e here: fetch refuses anything else before sending.
        const v = values[i]?.replace(/[^\x20-\x7e]/g, '');
        if (v) out[p.name] = v;
      });
      return out;
    });
  const body = op.requestBody ? bodyOf(doc, op.requestBody.content?.['application/json']?.schema) : fc.constant(undefined);
  return fc.record({ path: pathArb, query: queryArb, headers: headerArb, body });
}

describe.each(testDialects())('fuzzing every route on %s', (dialect) => {
  let t: TestServer;
  let doc: any;
  let adminToken: string;
  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { RATE_LIMIT_LOGIN: '100000' } });
    doc = (await t.call('GET', '/openapi.json')).body;
    adminToken = (await registerCompany(t)).token;
  });
  afterAll(async () => t?.close());

  it('answers generated requests without an undocumented 5xx and stays healthy', async () => {
    const failures: string[] = [];
    let sent = 0;
    let index = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const documented = new Set(Object.keys(op.responses ?? {}).map(Number));
        const cases = fc.sample(caseOf(doc, path, op), { numRuns: RUNS * 2, seed: SEED + index++ });
        for (const [n, c] of cases.entries()) {
          const token = n % 2 ? adminToken : null;
          const headers: Record<string, string> = { ...c.headers };
          if (c.body !== undefined) headers['content-type'] = 'application/json';
          if (token) headers.authorization = `Bearer ${token}`;
          const url = `${t.url}/api${c.path}${c.query ? `?${c.query}` : ''}`;
          sent++;
          let status: number;
          let answer: string;
          try {
            const res = await fetch(url, { method: method.toUpperCase(), headers, body: c.body });
            status = res.status;
            answer = await res.text();
          } catch (err) {
            failures.push(`${method.toUpperCase()} ${url.slice(t.url.length, 200)}: request failed (${String(err)})`);
            continue;
          }
          if (status >= 500 && !documented.has(status)) {
            const body = c.body ? Buffer.from(c.body).toString('latin1').slice(0, 300) : '';
            failures.push(
              `${method.toUpperCase()} ${url.slice(t.url.length, 300)} ${token ? 'as admin' : 'anonymously'} ${body}: ${status} ${answer.slice(0, 200)}`,
            );
          }
        }
      }
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
    expect(sent).toBeGreaterThan(1000);

    // Still healthy: the liveness check, and a customer can book as usual.
    expect((await t.call('GET', '/health')).status).toBe(200);
    const co = await bookableCompany(t, { name: 'After Fuzz' });
    const query = `company_id=${co.companyId}&service_type_id=${co.serviceId}`;
    const dates = await t.call('GET', `/appointments/available-dates?${query}`);
    expect(dates.status, dates.text).toBe(200);
    const slots = await t.call('GET', `/appointments/available-slots?${query}&date=${dates.body.dates[0]}`);
    expect(slots.status, slots.text).toBe(200);
    const booked = await t.call('POST', '/appointments', {
      body: {
        company_id: co.companyId,
        service_type_ids: [co.serviceId],
        start_time: slots.body.slots[0].start,
        customer: customerContact(),
      },
    });
    expect(booked.status, booked.text).toBe(201);
  }, 300_000);
});
