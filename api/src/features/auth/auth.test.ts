// Sign-up, sign-in, tokens and password calls through real HTTP, on every test dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { testDialects } from '@bookwell/db/testing';
import { registerCompany, startTestServer, uniqueEmail, type TestServer } from '../../testing/harness.ts';

async function countRows(t: TestServer, table: 'users' | 'companies') {
  const r = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe.each(testDialects())('auth on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { RATE_LIMIT_LOGIN: '3', TRUST_PROXY: 'true' } });
  });
  afterAll(async () => t?.close());

  describe('register', () => {
    it('creates a company with a unique slug, a 14-day trial, default durations and its admin', async () => {
      const a = await registerCompany(t, { company_name: 'Hair & Co.', timezone: 'Europe/Paris' });
      const b = await registerCompany(t, { company_name: 'Hair & Co.' });
      expect(a.user.role).toBe('admin');
      const ca = await t.db.selectFrom('companies').selectAll().where('id', '=', a.companyId).executeTakeFirstOrThrow();
      const cb = await t.db.selectFrom('companies').selectAll().where('id', '=', b.companyId).executeTakeFirstOrThrow();
      expect(ca.slug).toBe('hair-co');
      expect(cb.slug).toBe('hair-co-2');
      expect(ca.timezone).toBe('Europe/Paris');
      expect(cb.timezone).toBe('UTC');
      const days = (Date.parse(ca.subscription_expires_at!) - Date.parse(ca.created_at)) / 86_400_000;
      expect(Math.round(days)).toBe(14);
      const durations = await t.db
        .selectFrom('company_duration_options')
        .innerJoin('appointment_duration_options as o', 'o.id', 'company_duration_options.appointment_duration_option_id')
        .select('o.duration_minutes')
        .where('company_id', '=', a.companyId)
        .orderBy('o.duration_minutes')
        .execute();
      expect(durations.map((d) => d.duration_minutes)).toEqual([15, 30, 45, 60]);
      const def = await t.db
        .selectFrom('company_duration_defaults')
        .selectAll()
        .where('company_id', '=', a.companyId)
        .executeTakeFirstOrThrow();
      expect(def.default_appointment_duration).toBe(30);
    });

    it('refuses a second account with the same email (any case) and writes nothing', async () => {
      const email = uniqueEmail('dup');
      await registerCompany(t, { email });
      const before = [await countRows(t, 'users'), await countRows(t, 'companies')];
      const res = await t.call('POST', '/register', {
        body: { name: 'X', email: email.toUpperCase(), password: 'secret123', company_name: 'Other' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Email already exists', code: 'validation' });
      expect([await countRows(t, 'users'), await countRows(t, 'companies')]).toEqual(before);
    });

    it('refuses any role but admin, short passwords, missing fields and unknown time zones', async () => {
      const before = await countRows(t, 'users');
      const base = { name: 'X', email: uniqueEmail(), password: 'secret123', company_name: 'C' };
      for (const body of [
        { ...base, role: 'global_admin' },
        { ...base, role: 'employee' },
        { ...base, password: '12345' },
        { ...base, company_name: undefined },
        { ...base, email: 'not-an-email' },
        { ...base, timezone: 'Mars/Olympus' },
        { ...base, name: 42 },
      ]) {
        const res = await t.call('POST', '/register', { body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('validation');
        expect(typeof res.body.error).toBe('string');
      }
      const short = await t.call('POST', '/register', { body: { ...base, password: '12345' } });
      expect(short.body.error).toBe('Password must be at least 6 characters long');
      // Any of the five fields left out or blank: SPEC's 'All fields are required'.
      for (const field of ['name', 'email', 'password', 'company_name'] as const) {
        for (const value of [undefined, '', '   ']) {
          if (field === 'password' && value === '   ') continue; // spaces are a (too short) password
          const res = await t.call('POST', '/register', { body: { ...base, [field]: value } });
          expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
          expect(res.body.error, `${field}=${JSON.stringify(value)}`).toBe('All fields are required');
        }
      }
      expect(await countRows(t, 'users')).toBe(before);
    });
  });

  describe('login and tokens', () => {
    it('signs in with the right password only, case-insensitively on the email', async () => {
      const { email, password } = await registerCompany(t);
      const ok = await t.call('POST', '/login', { body: { email: email.toUpperCase(), password } });
      expect(ok.status).toBe(200);
      const me = await t.call('GET', '/me', { token: ok.body.token });
      expect(me.body.email).toBe(email);
      expect(me.body).not.toHaveProperty('password_hash');
      const bad = await t.call('POST', '/login', { body: { email, password: 'wrong-password' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('Invalid email or password');
      const unknown = await t.call('POST', '/login', { body: { email: uniqueEmail('nobody'), password } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('Invalid email or password');
    });

    it('limits failed logins per email-and-IP pair, not per email alone', async () => {
      const { email, password } = await registerCompany(t);
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      for (let i = 0; i < 3; i++) {
        expect((await t.call('POST', '/login', { body: { email, password: 'nope-nope' }, headers: from('10.9.9.1') })).status).toBe(400);
      }
      const blocked = await t.call('POST', '/login', { body: { email, password }, headers: from('10.9.9.1') });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('rate_limited');
      const elsewhere = await t.call('POST', '/login', { body: { email, password }, headers: from('10.9.9.2') });
      expect(elsewhere.status).toBe(200);
    });

    it('rejects tampered, foreign, unsigned and expired tokens with 401', async () => {
      const { token } = await registerCompany(t);
      const [h, p, s] = token.split('.');
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
      const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, role: 'global_admin' })).toString('base64url')}.${s}`;
      const foreign = await new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('another-secret-another-secret-another'));
      const none = new UnsecuredJWT(payload).encode();
      const expired = await new SignJWT({ ...payload })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(Math.floor(Date.now() / 1000) - 8 * 86400)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 86400)
        .sign(t.server.deps.jwtKey);
      for (const bad of [tampered, foreign, none, expired, 'garbage', `${h}.${p}`]) {
        const res = await t.call('GET', '/me', { token: bad });
        expect(res.status, bad).toBe(401);
        expect(res.body.code).toBe('unauthenticated');
      }
      expect((await t.call('GET', '/me')).status).toBe(401);
      expect((await t.call('GET', '/me', { token })).status).toBe(200);
      // Public routes ignore a bad token rather than failing.
      expect((await t.call('GET', '/health', { token: 'garbage' })).status).toBe(200);
    });

    it('refuses the token of a user whose role changed', async () => {
      const { token, user } = await registerCompany(t);
      await t.db.updateTable('users').set({ role: 'employee' }).where('id', '=', user.id).execute();
      expect((await t.call('GET', '/me', { token })).status).toBe(401);
    });
  });

  describe('change password', () => {
    it('needs the current password, answers 400 (not 401) when wrong, and returns a fresh token', async () => {
      const { token, email, password } = await registerCompany(t);
      const wrong = await t.call('POST', '/me/change-password', { token, body: { current_password: 'not-it', new_password: 'newpass1' } });
      expect(wrong.status).toBe(400);
      const same = await t.call('POST', '/me/change-password', { token, body: { current_password: password, new_password: password } });
      expect(same.status).toBe(400);
      expect(same.body.error).toBe('New password must be different from current password.');
      const short = await t.call('POST', '/me/change-password', { token, body: { current_password: password, new_password: '123' } });
      expect(short.body.error).toBe('New password must be at least 6 characters long.');
      const missing = await t.call('POST', '/me/change-password', { token, body: { new_password: 'abcdefg' } });
      expect(missing.body.error).toBe('Current password is required.');
      const ok = await t.call('POST', '/me/change-password', { token, body: { current_password: password, new_password: 'newpass1' } });
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBeTruthy();
      expect((await t.call('GET', '/me', { token })).status).toBe(401);
      // The old token, or none, is refused with SPEC's own words for this call.
      for (const stale of [token, undefined]) {
        const again = await t.call('POST', '/me/change-password', {
          token: stale,
          body: { current_password: 'newpass1', new_password: 'newpass2' },
        });
        expect(again.status).toBe(401);
        expect(again.body).toEqual({ error: 'User not authenticated. Please log in again.', code: 'unauthenticated' });
      }
      expect((await t.call('GET', '/me', { token: ok.body.token })).status).toBe(200);
      expect((await t.call('POST', '/login', { body: { email, password: 'newpass1' } })).status).toBe(200);
      expect((await t.call('POST', '/login', { body: { email, password } })).status).toBe(400);
    });
  });

  describe('bad input', () => {
    it('answers 4xx with a clear message for malformed JSON, wrong types and oversized bodies, writing nothing', async () => {
      const before = await countRows(t, 'users');
      const malformed = await t.call('POST', '/register', { raw: '{"name": "x",' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatch(/JSON/);
      const types = await t.call('POST', '/login', { body: { email: ['a'], password: { x: 1 } } });
      expect(types.status).toBe(400);
      const array = await t.call('POST', '/register', { body: [1, 2, 3] });
      expect(array.status).toBe(400);
      const huge = await t.call('POST', '/register', { raw: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) });
      expect(huge.status).toBe(413);
      expect(huge.body.code).toBe('payload_too_large');
      // Without Content-Length (chunked), the size is counted as the body arrives.
      const chunked = (text: string) =>
        fetch(`${t.url}/api/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          duplex: 'half',
          body: new ReadableStream({
            start(ctl) {
              for (let i = 0; i < text.length; i += 65536) ctl.enqueue(new TextEncoder().encode(text.slice(i, i + 65536)));
              ctl.close();
            },
          }),
        } as RequestInit);
      const hugeChunked = await chunked(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
      expect(hugeChunked.status).toBe(413);
      expect(((await hugeChunked.json()) as { code: string }).code).toBe('payload_too_large');
      const smallChunked = await chunked(JSON.stringify({ name: 'Chunky', email: 'not-an-email', password: 'secret1', company_name: 'c' }));
      expect(smallChunked.status).toBe(400);
      expect(JSON.stringify((await smallChunked.json()) as object)).toContain('email');
      const longName = await t.call('POST', '/register', {
        body: { name: 'n'.repeat(5000), email: uniqueEmail(), password: 'secret1', company_name: 'c' },
      });
      expect(longName.status).toBe(400);
      expect(await countRows(t, 'users')).toBe(before);
      expect((await t.call('GET', '/health')).body).toMatchObject({ status: 'ok', db: 'ok' });
    });

    it('answers a JSON 404 for unknown API paths', async () => {
      const res = await t.call('GET', '/does-not-exist');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    });
  });
});
