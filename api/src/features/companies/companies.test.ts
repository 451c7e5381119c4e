// Company calls through real HTTP on every dialect: public versus member fields, listing, settings,
// and global_admin's create and delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type CallOptions, type CallResult, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { databaseFingerprint } from '../../testing/fingerprint.ts';
import { appointmentRow } from '../../testing/rows.ts';

const PUBLIC_FIELDS = ['accepting_bookings', 'enable_employee_booking', 'id', 'logo_url', 'name', 'slug', 'timezone'];
const MEMBER_FIELDS = [
  ...PUBLIC_FIELDS,
  'booking_window_days',
  'cancellation_notice_hours',
  'country',
  'created_at',
  'email',
  'has_billing_account',
  'hide_customer_names_in_feeds',
  'reminder_hours_before',
  'listed_publicly',
  'min_notice_minutes',
  'subscription_active',
  'subscription_expires_at',
  'subscription_plan',
  'time_increment_minutes',
].sort();
const SECRET_FIELDS = /password_hash|token_version|stripe_customer_id|stripe_subscription_id|cus_secret|sub_secret/;

describe.each(testDialects())('companies on %s', (dialect) => {
  let t: TestServer;
  let a: TestCompany;
  let b: TestCompany;
  let root: TestPerson;
  const bodies: string[] = [];

  async function call<T = any>(method: string, path: string, opts?: CallOptions): Promise<CallResult<T>> {
    const res = await t.call<T>(method, path, opts);
    bodies.push(res.text);
    return res;
  }

  beforeAll(async () => {
    t = await startTestServer(dialect);
    a = await companyWithPeople(t, 'Alpha Spa');
    b = await companyWithPeople(t, 'Beta Nails');
    root = await addGlobalAdmin(t);
    // Stripe ids exist in the rows, so a leak would show.
    await t.db.updateTable('companies').set({ stripe_customer_id: 'cus_secret', stripe_subscription_id: 'sub_secret' }).execute();
  });
  afterAll(async () => t?.close());

  describe('reading one company', () => {
    it("shows anonymous visitors and other companies' people the public fields only, by id and by slug", async () => {
      const slug = (await t.db.selectFrom('companies').select('slug').where('id', '=', a.companyId).executeTakeFirstOrThrow()).slug;
      for (const token of [undefined, 'not-a-token', b.admin.token, b.customer.token]) {
        for (const path of [`/companies/${a.companyId}`, `/companies/slug/${slug}`, `/companies/slug/${slug.toUpperCase()}`]) {
          const res = await call('GET', path, { token });
          expect(res.status, path).toBe(200);
          expect(Object.keys(res.body).sort()).toEqual(PUBLIC_FIELDS);
          expect(res.body).toMatchObject({
            id: a.companyId,
            name: 'Alpha Spa',
            slug,
            enable_employee_booking: false,
            timezone: 'UTC',
            accepting_bookings: true,
            logo_url: null,
          });
        }
      }
    });

    it('shows members (customers included) and global_admin the full view, never Stripe ids', async () => {
      for (const who of [a.admin, a.manager, a.employee, a.user, a.customer, root]) {
        const res = await call('GET', `/companies/${a.companyId}`, { token: who.token });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).sort()).toEqual(MEMBER_FIELDS);
        expect(res.body).toMatchObject({
          subscription_plan: 'trial',
          subscription_active: true,
          time_increment_minutes: 30,
          listed_publicly: false,
        });
      }
    });

    it('says accepting_bookings false once the subscription has expired', async () => {
      await t.db
        .updateTable('companies')
        .set({ subscription_expires_at: '2020-01-01T00:00:00.000Z' })
        .where('id', '=', b.companyId)
        .execute();
      const res = await call('GET', `/companies/${b.companyId}`);
      expect(res.body.accepting_bookings).toBe(false);
      const member = await call('GET', `/companies/${b.companyId}`, { token: b.admin.token });
      expect(member.body).toMatchObject({ accepting_bookings: false, subscription_active: false });
      await t.db.updateTable('companies').set({ subscription_expires_at: null }).where('id', '=', b.companyId).execute();
    });

    it('answers 404 for unknown companies and 400 for ids that are not positive integers', async () => {
      expect((await call('GET', '/companies/2000000000')).status).toBe(404);
      expect((await call('GET', '/companies/slug/no-such-company')).status).toBe(404);
      expect((await call('GET', `/companies/slug/${'x'.repeat(300)}`)).status).toBe(400);
      for (const bad of ['0', '-1', '1.5', 'abc', '99999999999']) {
        expect((await call('GET', `/companies/${bad}`)).status, bad).toBe(400);
      }
    });
  });

  describe('GET /companies', () => {
    it('lists for anonymous visitors only companies that chose to be listed and take bookings, with public fields', async () => {
      const c = await companyWithPeople(t, 'Listed Lounge');
      const expired = await companyWithPeople(t, 'Listed But Expired');
      await t.db.updateTable('companies').set({ listed_publicly: 1 }).where('id', 'in', [c.companyId, expired.companyId]).execute();
      await t.db
        .updateTable('companies')
        .set({ subscription_expires_at: '2020-01-01T00:00:00.000Z' })
        .where('id', '=', expired.companyId)
        .execute();
      const res = await call('GET', '/companies');
      expect(res.status).toBe(200);
      expect(res.body.map((x: any) => x.id)).toEqual([c.companyId]);
      expect(Object.keys(res.body[0]).sort()).toEqual(PUBLIC_FIELDS);
      expect((await call('GET', '/companies?search=LOUNGE')).body.map((x: any) => x.id)).toEqual([c.companyId]);
      expect((await call('GET', '/companies?search=spa')).body).toEqual([]);
    });

    it('gives company people their own company and global_admin every company, searchable by name, email or slug', async () => {
      for (const who of [a.admin, a.employee, a.customer]) {
        const res = await call('GET', '/companies', { token: who.token });
        expect(res.body.map((x: any) => x.id)).toEqual([a.companyId]);
        expect(Object.keys(res.body[0]).sort()).toEqual(MEMBER_FIELDS);
      }
      const all = await call('GET', '/companies', { token: root.token });
      expect(all.body.length).toBeGreaterThanOrEqual(4);
      expect(all.body.map((x: any) => x.id)).toEqual(expect.arrayContaining([a.companyId, b.companyId]));
      expect((await call('GET', '/companies?search=beta%20NAILS', { token: root.token })).body.map((x: any) => x.id)).toEqual([
        b.companyId,
      ]);
      const email = (await t.db.selectFrom('companies').select('email').where('id', '=', b.companyId).executeTakeFirstOrThrow()).email!;
      expect(
        (await call('GET', `/companies?search=${encodeURIComponent(email.toUpperCase())}`, { token: root.token })).body.map(
          (x: any) => x.id,
        ),
      ).toEqual([b.companyId]);
      expect((await call('GET', `/companies?search=${'q'.repeat(300)}`, { token: root.token })).status).toBe(400);
    });
  });

  describe('PUT /companies/{id}', () => {
    it("lets the company's admin and manager, and global_admin, change settings partially (PATCH too)", async () => {
      const res = await call('PUT', `/companies/${a.companyId}`, {
        token: a.admin.token,
        body: {
          name: 'Alpha Spa & Wellness',
          email: 'Front@Alpha.Example',
          logo_url: 'https://cdn.example.test/logo.png',
          timezone: 'Europe/Paris',
          enable_employee_booking: true,
          time_increment_minutes: 15,
          listed_publicly: true,
          hide_customer_names_in_feeds: true,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'Alpha Spa & Wellness',
        email: 'front@alpha.example',
        logo_url: 'https://cdn.example.test/logo.png',
        timezone: 'Europe/Paris',
        enable_employee_booking: true,
        time_increment_minutes: 15,
        listed_publicly: true,
        hide_customer_names_in_feeds: true,
      });
      expect(Object.keys(res.body).sort()).toEqual(MEMBER_FIELDS);
      const row = await t.db.selectFrom('companies').selectAll().where('id', '=', a.companyId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ enable_employee_booking: 1, listed_publicly: 1, time_increment_minutes: 15 });

      const partial = await call('PATCH', `/companies/${a.companyId}`, { token: a.manager.token, body: { time_increment_minutes: 60 } });
      expect(partial.status).toBe(200);
      expect(partial.body).toMatchObject({ name: 'Alpha Spa & Wellness', time_increment_minutes: 60, timezone: 'Europe/Paris' });
      const cleared = await call('PUT', `/companies/${a.companyId}`, { token: root.token, body: { logo_url: null, email: '' } });
      expect(cleared.body).toMatchObject({ logo_url: null, email: null, time_increment_minutes: 60 });
      // The slug (the booking link) does not change with the name.
      expect(cleared.body.slug).toBe(row.slug);
    });

    it('keeps the messaging settings: reminder hours (1-168, default 24), notice hours (0-168, default 0), country (default US)', async () => {
      const before = await call('GET', `/companies/${a.companyId}`, { token: a.admin.token });
      expect(before.body).toMatchObject({ reminder_hours_before: 24, cancellation_notice_hours: 0, country: 'US' });
      const res = await call('PUT', `/companies/${a.companyId}`, {
        token: a.admin.token,
        body: { reminder_hours_before: 2, cancellation_notice_hours: 48, country: 'gb' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ reminder_hours_before: 2, cancellation_notice_hours: 48, country: 'GB' });
      for (const [field, value] of [
        ['reminder_hours_before', 0],
        ['reminder_hours_before', 169],
        ['reminder_hours_before', 1.5],
        ['cancellation_notice_hours', -1],
        ['cancellation_notice_hours', 169],
        ['country', 'XX'],
        ['country', 'GBR'],
      ] as const) {
        const bad = await call('PUT', `/companies/${a.companyId}`, { token: a.admin.token, body: { [field]: value } });
        expect(bad.status, `${field}=${value}`).toBe(400);
        expect(JSON.stringify(bad.body)).toContain(field);
      }
      const kept = await call('GET', `/companies/${a.companyId}`, { token: a.admin.token });
      expect(kept.body).toMatchObject({ reminder_hours_before: 2, cancellation_notice_hours: 48, country: 'GB' });
    });

    it('keeps the booking limits: min_notice_minutes (0-10080, default 0), booking_window_days (1-365, default 30)', async () => {
      const c = await companyWithPeople(t, 'Limits Co');
      const before = await call('GET', `/companies/${c.companyId}`, { token: c.manager.token });
      expect(before.body).toMatchObject({ min_notice_minutes: 0, booking_window_days: 30 });
      const res = await call('PUT', `/companies/${c.companyId}`, {
        token: c.admin.token,
        body: { min_notice_minutes: 10080, booking_window_days: 365 },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ min_notice_minutes: 10080, booking_window_days: 365 });
      const low = await call('PATCH', `/companies/${c.companyId}`, {
        token: c.admin.token,
        body: { min_notice_minutes: 0, booking_window_days: 1 },
      });
      expect(low.body).toMatchObject({ min_notice_minutes: 0, booking_window_days: 1 });
      const row = await t.db
        .selectFrom('companies')
        .select(['min_notice_minutes', 'booking_window_days'])
        .where('id', '=', c.companyId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ min_notice_minutes: 0, booking_window_days: 1 });
      for (const [field, value] of [
        ['min_notice_minutes', -1],
        ['min_notice_minutes', 10081],
        ['min_notice_minutes', 2.5],
        ['min_notice_minutes', '60'],
        ['booking_window_days', 0],
        ['booking_window_days', 366],
        ['booking_window_days', 1.5],
        ['booking_window_days', null],
      ] as const) {
        const bad = await call('PUT', `/companies/${c.companyId}`, { token: c.admin.token, body: { [field]: value } });
        expect(bad.status, `${field}=${value}`).toBe(400);
        expect(JSON.stringify(bad.body)).toContain(field);
      }
      // Members' settings: the public profile does not carry them.
      const pub = await call('GET', `/companies/${c.companyId}`);
      expect(pub.body).not.toHaveProperty('booking_window_days');
      expect((await call('GET', `/companies/${c.companyId}`, { token: c.admin.token })).body).toMatchObject({
        min_notice_minutes: 0,
        booking_window_days: 1,
      });
    });

    it("changes the booking link's slug: the new one finds the company, the old one does not; another company's answers 409", async () => {
      const slugOf = async (id: number) => (await call('GET', `/companies/${id}`, { token: root.token })).body.slug as string;
      const old = await slugOf(b.companyId);
      const taken = await slugOf(a.companyId);
      const moved = await call('PUT', `/companies/${b.companyId}`, { token: b.admin.token, body: { slug: '  Beta-Nails-Downtown ' } });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.slug).toBe('beta-nails-downtown');
      expect((await call('GET', '/companies/slug/beta-nails-downtown')).body.id).toBe(b.companyId);
      expect((await call('GET', `/companies/slug/${old}`)).status).toBe(404);
      // Its own slug again is no conflict.
      expect(
        (await call('PATCH', `/companies/${b.companyId}`, { token: b.admin.token, body: { slug: 'beta-nails-downtown' } })).status,
      ).toBe(200);
      const clash = await call('PUT', `/companies/${b.companyId}`, { token: b.admin.token, body: { slug: taken, name: 'Renamed' } });
      expect(clash.status).toBe(409);
      expect(clash.body).toMatchObject({ error: 'This slug is already taken', code: 'conflict' });
      expect(await slugOf(b.companyId)).toBe('beta-nails-downtown');
      expect((await call('GET', `/companies/${b.companyId}`, { token: root.token })).body.name).not.toBe('Renamed');
      expect((await call('PUT', `/companies/${b.companyId}`, { token: b.admin.token, body: { slug: 'no spaces!' } })).status).toBe(400);
      expect((await call('PUT', `/companies/${b.companyId}`, { token: b.admin.token, body: { slug: old } })).status).toBe(200);
    });

    it('refuses other roles (403) and other companies (404), writing nothing', async () => {
      const before = await databaseFingerprint(t.db);
      for (const who of [a.employee, a.user, a.customer]) {
        const res = await call('PUT', `/companies/${a.companyId}`, { token: who.token, body: { name: 'Mine now' } });
        expect(res.status, who.role).toBe(403);
      }
      for (const who of [b.admin, b.manager]) {
        const res = await call('PUT', `/companies/${a.companyId}`, { token: who.token, body: { name: 'Mine now' } });
        expect(res.status).toBe(404);
      }
      expect((await call('PUT', `/companies/${a.companyId}`, { body: { name: 'Anon' } })).status).toBe(401);
      expect((await call('PUT', '/companies/2000000000', { token: root.token, body: { name: 'Ghost' } })).status).toBe(404);
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it('validates every setting: 400 and nothing written', async () => {
      const before = await databaseFingerprint(t.db);
      for (const body of [
        { time_increment_minutes: 20 },
        { time_increment_minutes: '30' },
        { time_increment_minutes: 30.5 },
        { logo_url: 'javascript:alert(1)' },
        { logo_url: 'not a url' },
        { logo_url: `https://x.test/${'l'.repeat(3000)}` },
        { timezone: 'Mars/Olympus' },
        { timezone: 42 },
        { name: '' },
        { name: '   ' },
        { name: 'n'.repeat(500) },
        { email: 'nope' },
        { enable_employee_booking: 'yes' },
        { listed_publicly: 1 },
        { hide_customer_names_in_feeds: null },
        [1, 2],
        'text',
        null,
      ]) {
        const res = await call('PUT', `/companies/${a.companyId}`, { token: a.admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('validation');
      }
      const increment = await call('PUT', `/companies/${a.companyId}`, { token: a.admin.token, body: { time_increment_minutes: 20 } });
      expect(increment.body.error).toBe('Time increment must be 15, 30, 45 or 60 minutes');
      expect((await call('PUT', `/companies/${a.companyId}`, { token: a.admin.token, raw: '{"name": ' })).status).toBe(400);
      for (const bad of ['0', '-1', '1.5', 'abc', '99999999999']) {
        expect((await call('PUT', `/companies/${bad}`, { token: root.token, body: { name: 'X' } })).status).toBe(400);
      }
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it('stores injection-looking names literally', async () => {
      const name = "'; drop table companies; -- <script>alert('x')</script>";
      const res = await call('PUT', `/companies/${b.companyId}`, { token: b.admin.token, body: { name } });
      expect(res.body.name).toBe(name);
      expect((await call('GET', `/companies/${b.companyId}`)).body.name).toBe(name);
    });
  });

  describe('create and delete (global_admin)', () => {
    it('creates a company with a trial, default durations and the given settings; a taken slug answers 409', async () => {
      const res = await call('POST', '/companies', {
        token: root.token,
        body: { name: 'Gamma Clinic', email: 'hello@gamma.test', slug: 'gamma', timezone: 'America/New_York', time_increment_minutes: 45 },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Gamma Clinic',
        slug: 'gamma',
        timezone: 'America/New_York',
        time_increment_minutes: 45,
        subscription_plan: 'trial',
        subscription_active: true,
      });
      expect(Object.keys(res.body).sort()).toEqual(MEMBER_FIELDS);
      const durations = await t.db.selectFrom('company_duration_options').select('id').where('company_id', '=', res.body.id).execute();
      expect(durations).toHaveLength(4);
      const derived = await call('POST', '/companies', { token: root.token, body: { name: 'Gamma Clinic' } });
      expect(derived.body.slug).toBe('gamma-clinic');
      const before = await databaseFingerprint(t.db);
      const taken = await call('POST', '/companies', { token: root.token, body: { name: 'Another', slug: 'GAMMA' } });
      expect(taken.status).toBe(409);
      expect(taken.body.code).toBe('conflict');
      for (const body of [
        {},
        { name: '' },
        { name: 'X', slug: 'Not a slug!' },
        { name: 'X', slug: '-x-' },
        { name: 'X', time_increment_minutes: 7 },
      ]) {
        expect((await call('POST', '/companies', { token: root.token, body })).status, JSON.stringify(body)).toBe(400);
      }
      for (const who of [a.admin, a.manager, a.employee, a.customer]) {
        expect((await call('POST', '/companies', { token: who.token, body: { name: 'Not allowed' } })).status).toBe(403);
      }
      expect((await call('POST', '/companies', { body: { name: 'Anon' } })).status).toBe(401);
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it('deletes a company with all its data; nobody else may', async () => {
      const doomed = await companyWithPeople(t, 'Doomed Diner');
      const iso = new Date().toISOString();
      await t.db
        .insertInto('appointments')
        .values(
          appointmentRow({
            company_id: doomed.companyId,
            user_id: doomed.customer.id,
            employee_id: doomed.employee.id,
            start_time: '2030-01-07T09:00:00.000Z',
            end_time: '2030-01-07T09:30:00.000Z',
            created_by: doomed.admin.id,
            created_at: iso,
            updated_at: iso,
          }),
        )
        .execute();
      const before = await databaseFingerprint(t.db);
      for (const who of [doomed.admin, doomed.manager, doomed.customer]) {
        expect((await call('DELETE', `/companies/${doomed.companyId}`, { token: who.token })).status).toBe(403);
      }
      // Another company's admin: 404, as for any other company's resource (docs/decisions/03-tenancy-and-roles.md).
      expect((await call('DELETE', `/companies/${doomed.companyId}`, { token: a.admin.token })).status).toBe(404);
      expect((await call('DELETE', `/companies/${doomed.companyId}`)).status).toBe(401);
      expect(await databaseFingerprint(t.db)).toBe(before);

      const res = await call('DELETE', `/companies/${doomed.companyId}`, { token: root.token });
      expect(res.status).toBe(204);
      for (const table of ['users', 'appointments', 'company_duration_options', 'company_duration_defaults', 'outbox_messages'] as const) {
        const left = await t.db.selectFrom(table).select('company_id').where('company_id', '=', doomed.companyId).execute();
        expect(left, table).toEqual([]);
      }
      // Its audit entries went too (they named its people); only the deletion's own entry is left.
      const audit = await t.db.selectFrom('audit_log').select(['action', 'entity']).where('company_id', '=', doomed.companyId).execute();
      expect(audit).toEqual([{ action: 'delete', entity: 'company' }]);
      expect((await call('GET', `/companies/${doomed.companyId}`)).status).toBe(404);
      expect((await call('DELETE', `/companies/${doomed.companyId}`, { token: root.token })).status).toBe(404);
      expect((await call('GET', `/companies/${a.companyId}`)).status).toBe(200);
    });
  });

  it('never answered with a password hash, token version or Stripe id', () => {
    expect(bodies.length).toBeGreaterThan(50);
    expect(bodies.filter((x) => SECRET_FIELDS.test(x))).toEqual([]);
  });
});
