// Text no database stores faithfully (NUL, lone surrogates, bytes that are not UTF-8) is a 400 naming
// the field, on SQLite and PostgreSQL alike (docs/decisions/29-input-rate-limits-request-ids.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, uniqueEmail, type TestServer } from '../testing/harness.ts';
import { findText, isUnsafeText, issuesToDetails, MAX_BODY_DEPTH } from './validation.ts';

describe('isUnsafeText / findText', () => {
  it('flags NUL and lone surrogates, not whole pairs', () => {
    expect(isUnsafeText('a\0b')).toBe(true);
    expect(isUnsafeText('\uD800')).toBe(true);
    expect(isUnsafeText('x\uDC00')).toBe(true);
    expect(isUnsafeText('\uDC00\uD800')).toBe(true);
    expect(isUnsafeText('Zoë 😀 日本')).toBe(false);
  });
  it('names the nested field, or the key itself', () => {
    expect(findText({ a: [{ b: 'ok' }, { b: 'x\0' }] }, isUnsafeText)).toBe('a.1.b');
    expect(findText({ ['k\0']: 1 }, isUnsafeText)).toBe('k\\0');
    expect(findText('\uD800', isUnsafeText)).toBe('body');
    expect(findText({ a: 1, b: [true, null, 'fine'] }, isUnsafeText)).toBeNull();
    // Our bodies nest four levels; a deep one is the caller's error, not a stack overflow.
    const deep = (n: number): unknown => (n === 0 ? 'x' : [deep(n - 1)]);
    expect(findText(deep(MAX_BODY_DEPTH), isUnsafeText)).toBeNull();
    expect(() => findText(deep(MAX_BODY_DEPTH + 1), isUnsafeText)).toThrow(`body must not nest deeper than ${MAX_BODY_DEPTH} levels`);
  });
});

describe('issuesToDetails', () => {
  it('names the field in every message, says "an object", and keeps one problem per field', () => {
    expect(
      issuesToDetails([
        { path: ['id'], message: 'must be a positive integer' },
        { path: [], message: 'Invalid input: expected object, received string' },
        { path: ['date'], message: 'date must be YYYY-MM-DD' },
        { path: ['date'], message: 'must be a real date' },
        { path: ['name'], message: 'Invalid input: expected string, received undefined' },
      ]),
    ).toEqual([
      { path: 'id', message: 'id must be a positive integer' },
      { path: 'body', message: 'body must be an object (got string)' },
      { path: 'date', message: 'date must be YYYY-MM-DD' },
      { path: 'name', message: 'name is required' },
    ]);
  });
});

describe.each(testDialects())('unsafe text on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const users = async () => Number((await sql<{ n: number }>`select count(*) as n from users`.execute(t.db)).rows[0]!.n);
  const registration = (name: string) => ({ name, email: uniqueEmail('nul'), password: 'secret123', company_name: 'Salon' });

  it('refuses a NUL, a lone surrogate or invalid UTF-8 in a JSON field, naming it, and writes nothing', async () => {
    const before = await users();
    const nul = await t.call('POST', '/register', { body: registration('Ann\0') });
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ code: 'validation', details: [{ path: 'name' }] });
    expect(nul.body.error).toBe('name must not contain NUL characters or invalid Unicode');

    const surrogate = await t.call('POST', '/register', {
      raw: `{"name":"Ann","email":"${uniqueEmail('s')}","password":"secret123","company_name":"Sal\\ud800on"}`,
    });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.details).toEqual([{ path: 'company_name', message: expect.any(String) }]);

    const bytes = Buffer.concat([
      Buffer.from(`{"name":"An`),
      Buffer.from([0xff, 0xc3, 0x28]),
      Buffer.from(`","email":"${uniqueEmail('u')}","password":"secret123","company_name":"Salon"}`),
    ]);
    const res = await fetch(`${t.url}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).details[0].path).toBe('name');
    expect(await users()).toBe(before);
  });

  it('refuses a body nested deeper than our bodies ever are with a 400, not a stack overflow', async () => {
    // About 10 KB of brackets, sent anonymously to sign-in: it answered 500 (RangeError).
    const raw = `{"email":${'['.repeat(5000)}${']'.repeat(5000)},"password":"x"}`;
    const res = await t.call('POST', '/login', { raw });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation', error: `body must not nest deeper than ${MAX_BODY_DEPTH} levels` });
  });

  it('refuses invalid UTF-8 in a write sent with an Idempotency-Key, as without one', async () => {
    // The key's middleware reads the body first; the bytes must still reach the check as sent.
    const bytes = Buffer.concat([Buffer.from(`{"customer":{"name":"An`), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(`"}}`)]);
    const res = await fetch(`${t.url}/api/appointments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `utf8-${Date.now()}` },
      body: bytes,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).details).toEqual([{ path: 'customer.name', message: expect.any(String) }]);
  });

  it('accepts real Unicode (accents, emoji, CJK)', async () => {
    const ok = await t.call('POST', '/register', { body: registration('Zoë 😀 日本') });
    expect(ok.status).toBe(200);
    const me = await t.call('GET', '/me', { token: ok.body.token });
    expect(me.body.name).toBe('Zoë 😀 日本');
  });

  it('refuses them in query strings and path parameters', async () => {
    for (const [path, field] of [
      ['/password-reset/validate?token=%00', 'token'],
      ['/password-reset/validate?token=ab%FFcd', 'token'],
      ['/password-reset/validate?token=%ED%A0%80', 'token'],
      ['/companies/slug/a%00b', 'slug'],
      ['/companies/slug/a%C3%28', 'slug'],
      ['/manage/%00', 'token'],
    ] as const) {
      const res = await t.call('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.details?.[0]?.path, path).toBe(field);
    }
  });

  it('asks for sign-in first on a protected route', async () => {
    expect((await t.call('POST', '/me/change-password', { body: { current_password: 'x\0', new_password: 'y' } })).status).toBe(401);
  });
});
