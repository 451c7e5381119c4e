// Calendar feeds end to end (docs/decisions/07-notifications-and-calendar-sync.md, docs/decisions/24-calendar-feeds.md): the URLs their
// owners see, the feed parsed as calendar apps do (ical.js), and who may see or regenerate what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, addPerson, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { appointmentRow } from '../../testing/rows.ts';
import { appointmentUid } from '../notifications/appointment-emails.ts';

// Tuesday 20 October 2026, New York still on daylight time (EDT, UTC-4); it ends on Sunday 1 November.
const NOW = new Date('2026-10-20T12:00:00.000Z');
const ZONE = 'America/New_York';

interface FeedEvent {
  uid: string;
  summary: string;
  description: string | null;
  sequence: number;
  start: string;
  end: string;
  startIsUtc: boolean;
}

function parseFeed(text: string): FeedEvent[] {
  const cal = new ICAL.Component(ICAL.parse(text));
  return cal.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      summary: e.summary,
      description: e.description ?? null,
      sequence: e.sequence,
      start: e.startDate.toJSDate().toISOString(),
      end: e.endDate.toJSDate().toISOString(),
      startIsUtc: e.startDate.zone?.tzid === 'UTC',
    };
  });
}

function localTime(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}

describe.each(testDialects())('calendar feeds on %s', (dialect) => {
  let t: TestServer;
  let a: BookableCompany;
  let b: TestCompany;
  let second: TestPerson;
  let global: TestPerson;
  const ids: Record<string, number> = {};

  /** GETs a feed URL on the test server (the URL's host is APP_URL, the path is what counts). */
  async function fetchFeed(url: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}${new URL(url).pathname}`, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  async function book(start: string, end: string, employeeId: number, name: string): Promise<number> {
    const res = await t.call('POST', '/appointments', {
      token: a.admin.token,
      body: { service_type_ids: [a.serviceId], start_time: start, end_time: end, employee_id: employeeId, customer: customerContact(name) },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  }

  async function urlOf(path: string, token: string): Promise<string> {
    const res = await t.call('GET', path, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.url as string;
  }

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    a = await bookableCompany(t, { name: 'Alpha Salon', timezone: ZONE, capacity: 5 });
    b = await companyWithPeople(t, 'Beta Spa');
    second = await addPerson(t, a.companyId, 'employee', 'Second Employee');
    global = await addGlobalAdmin(t);
    // 10:00 in New York on either side of the end of daylight time: 14:00Z before, 15:00Z after.
    ids.beforeDst = await book('2026-10-30T14:00:00Z', '2026-10-30T14:30:00Z', a.employee.id, 'Dana Rivers');
    ids.afterDst = await book('2026-11-02T15:00:00Z', '2026-11-02T15:30:00Z', a.employee.id, 'Dana Rivers');
    ids.colleague = await book('2026-11-03T16:00:00Z', '2026-11-03T16:30:00Z', second.id, 'Sam Other');
    ids.cancelled = await book('2026-11-04T15:00:00Z', '2026-11-04T15:30:00Z', a.employee.id, 'Cal Cancelled');
    const cancel = await t.call('PUT', `/appointments/${ids.cancelled}`, { token: a.admin.token, body: { status: 'cancelled' } });
    expect(cancel.status, cancel.text).toBe(200);
  }, 60_000);
  afterAll(async () => t?.close());

  it('gives a staff member one lasting URL, stored only as a hash', async () => {
    const url = await urlOf('/me/calendar-feed', a.employee.token);
    expect(url).toMatch(/^http:\/\/localhost(:\d+)?\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await urlOf('/me/calendar-feed', a.employee.token)).toBe(url);
    const token = /calendar\/([^.]+)\.ics$/.exec(url)![1];
    const rows = await t.db.selectFrom('calendar_feeds').selectAll().execute();
    expect(rows.filter((r) => r.user_id === a.employee.id)).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    // Another staff member gets another feed.
    expect(await urlOf('/me/calendar-feed', second.token)).not.toBe(url);
  });

  it('creates one feed when several first requests arrive at once', async () => {
    const fresh = await addPerson(t, a.companyId, 'employee', 'Fresh Employee');
    const urls = await Promise.all(Array.from({ length: 6 }, () => urlOf('/me/calendar-feed', fresh.token)));
    expect(new Set(urls).size).toBe(1);
    const rows = await t.db.selectFrom('calendar_feeds').select('id').where('user_id', '=', fresh.id).execute();
    expect(rows).toHaveLength(1);
    expect((await fetchFeed(urls[0])).status).toBe(200);
  });

  it("serves the staff member's own appointments at the right instants across the end of daylight time", async () => {
    const res = await fetchFeed(await urlOf('/me/calendar-feed', a.employee.token));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(res.headers.get('cache-control')).toMatch(/private/);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('last-modified')).toBeTruthy();
    const events = parseFeed(res.text);
    // Theirs only: not the colleague's, not the cancelled one.
    expect(events.map((e) => e.uid).sort()).toEqual(
      [ids.beforeDst, ids.afterDst].map((id) => appointmentUid(id, t.server.deps.config.APP_URL)).sort(),
    );
    const after = events.find((e) => e.uid === appointmentUid(ids.afterDst, t.server.deps.config.APP_URL))!;
    const before = events.find((e) => e.uid === appointmentUid(ids.beforeDst, t.server.deps.config.APP_URL))!;
    expect(before).toMatchObject({ start: '2026-10-30T14:00:00.000Z', end: '2026-10-30T14:30:00.000Z', startIsUtc: true, sequence: 1 });
    expect(after).toMatchObject({ start: '2026-11-02T15:00:00.000Z', end: '2026-11-02T15:30:00.000Z', startIsUtc: true, sequence: 1 });
    expect([localTime(before.start), localTime(after.start)]).toEqual(['30/10/2026, 10:00', '02/11/2026, 10:00']);
    expect(after.summary).toBe('Haircut - Dana Rivers');
    expect(res.text).toMatch(/DTSTART:20261102T150000Z/);
    expect(res.text).toMatch(/DTSTAMP:\d{8}T\d{6}Z/);
  });

  it('answers 304 to an unchanged feed and raises SEQUENCE after an edit', async () => {
    const url = await urlOf('/me/calendar-feed', a.employee.token);
    const first = await fetchFeed(url);
    const etag = first.headers.get('etag')!;
    const again = await fetchFeed(url, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const moved = await t.call('PUT', `/appointments/${ids.afterDst}`, {
      token: a.admin.token,
      body: { start_time: '2026-11-02T16:00:00Z', end_time: '2026-11-02T16:30:00Z' },
    });
    expect(moved.status, moved.text).toBe(200);
    const changed = await fetchFeed(url, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    const event = parseFeed(changed.text).find((e) => e.uid === appointmentUid(ids.afterDst, t.server.deps.config.APP_URL))!;
    expect(event).toMatchObject({ start: '2026-11-02T16:00:00.000Z', sequence: 2 });
    expect(localTime(event.start)).toBe('02/11/2026, 11:00');
  });

  it('shows the company feed to its admins and managers: every booked appointment', async () => {
    const url = await urlOf(`/companies/${a.companyId}/calendar-feed`, a.admin.token);
    expect(url).not.toBe(await urlOf('/me/calendar-feed', a.admin.token));
    expect(await urlOf(`/companies/${a.companyId}/calendar-feed`, a.manager.token)).toBe(url);
    expect(await urlOf(`/companies/${a.companyId}/calendar-feed`, global.token)).toBe(url);
    const events = parseFeed((await fetchFeed(url)).text);
    expect(events.map((e) => e.uid).sort()).toEqual(
      [ids.beforeDst, ids.afterDst, ids.colleague].map((id) => appointmentUid(id, t.server.deps.config.APP_URL)).sort(),
    );
    expect(events.find((e) => e.summary.includes('Sam Other'))?.description).toBe('With Second Employee');
  });

  it("replaces customer names with 'Booked' when the company hides them", async () => {
    const staffUrl = await urlOf('/me/calendar-feed', a.employee.token);
    const companyUrl = await urlOf(`/companies/${a.companyId}/calendar-feed`, a.admin.token);
    const hide = await t.call('PUT', `/companies/${a.companyId}`, { token: a.admin.token, body: { hide_customer_names_in_feeds: true } });
    expect(hide.status, hide.text).toBe(200);
    for (const url of [staffUrl, companyUrl]) {
      const text = (await fetchFeed(url)).text;
      const events = parseFeed(text);
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.summary === 'Booked')).toBe(true);
      expect(text).not.toMatch(/Dana Rivers|Sam Other/);
    }
    await t.call('PUT', `/companies/${a.companyId}`, { token: a.admin.token, body: { hide_customer_names_in_feeds: false } });
    expect((await fetchFeed(staffUrl)).text).toContain('Dana Rivers');
  });

  it('keeps to the window: 60 days back to a year ahead', async () => {
    const at = (days: number) => new Date(NOW.getTime() + days * 86_400_000).toISOString();
    const insert = async (startDays: number) =>
      (
        await t.db
          .insertInto('appointments')
          .values(
            appointmentRow({
              company_id: a.companyId,
              employee_id: a.employee.id,
              start_time: at(startDays),
              end_time: at(startDays + 0.02),
              customer_name: 'Window Case',
              created_at: NOW.toISOString(),
              updated_at: NOW.toISOString(),
            }),
          )
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const inside = [await insert(-59), await insert(360)];
    const outside = [await insert(-61), await insert(370)];
    const uids = parseFeed((await fetchFeed(await urlOf('/me/calendar-feed', a.employee.token))).text).map((e) => e.uid);
    for (const id of inside) expect(uids).toContain(appointmentUid(id, t.server.deps.config.APP_URL));
    for (const id of outside) expect(uids).not.toContain(appointmentUid(id, t.server.deps.config.APP_URL));
  });

  it('regenerating kills the old URL, for a staff feed and the company feed', async () => {
    for (const [path, token] of [
      ['/me/calendar-feed', a.employee.token],
      [`/companies/${a.companyId}/calendar-feed`, a.manager.token],
    ] as const) {
      const old = await urlOf(path, token);
      const res = await t.call('POST', path, { token });
      expect(res.status, res.text).toBe(200);
      expect(res.body.url).not.toBe(old);
      expect(await urlOf(path, token)).toBe(res.body.url);
      expect((await fetchFeed(old)).status).toBe(404);
      expect((await fetchFeed(res.body.url)).status).toBe(200);
    }
  });

  it('answers who may do what: customers 403, another company 404, unknown tokens 404', async () => {
    const A = a.companyId;
    const status = async (method: string, path: string, token: string | null) => (await t.call(method, path, { token })).status;
    for (const method of ['GET', 'POST']) {
      expect(await status(method, '/me/calendar-feed', null)).toBe(401);
      expect(await status(method, '/me/calendar-feed', a.customer.token)).toBe(403);
      expect(await status(method, '/me/calendar-feed', global.token)).toBe(403);
      expect(await status(method, '/me/calendar-feed', a.user.token)).toBe(200);
      expect(await status(method, `/companies/${A}/calendar-feed`, null)).toBe(401);
      expect(await status(method, `/companies/${A}/calendar-feed`, a.customer.token)).toBe(403);
      expect(await status(method, `/companies/${A}/calendar-feed`, a.employee.token)).toBe(403);
      expect(await status(method, `/companies/${A}/calendar-feed`, b.admin.token)).toBe(404);
      expect(await status(method, '/companies/999999/calendar-feed', global.token)).toBe(404);
      expect(await status(method, '/companies/abc/calendar-feed', a.admin.token)).toBe(400);
    }
    for (const path of [`/calendar/${'x'.repeat(43)}.ics`, '/calendar/abc.ics', '/calendar/nothing', '/calendar/%2e%2e.ics']) {
      const res = await t.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('closes the feed of someone who is no longer staff', async () => {
    const leaver = await addPerson(t, a.companyId, 'employee', 'Leaving Soon');
    const url = await urlOf('/me/calendar-feed', leaver.token);
    expect((await fetchFeed(url)).status).toBe(200);
    await t.db.updateTable('users').set({ role: 'customer' }).where('id', '=', leaver.id).execute();
    expect((await fetchFeed(url)).status).toBe(404);
  });

  it('answers HEAD like GET without a body', async () => {
    const url = await urlOf('/me/calendar-feed', a.employee.token);
    const res = await fetch(`${t.url}${new URL(url).pathname}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(await res.text()).toBe('');
  });

  it("removes a company's feeds with the company", async () => {
    const url = await urlOf(`/companies/${b.companyId}/calendar-feed`, b.admin.token);
    await urlOf('/me/calendar-feed', b.employee.token);
    const removed = await t.call('DELETE', `/companies/${b.companyId}`, { token: global.token });
    expect(removed.status, removed.text).toBe(204);
    expect(await t.db.selectFrom('calendar_feeds').select('id').where('company_id', '=', b.companyId).execute()).toEqual([]);
    expect((await fetchFeed(url)).status).toBe(404);
  });

  it('rate-limits feed requests like other public calls', async () => {
    const limited = await startTestServer(dialect, { now: () => NOW, env: { RATE_LIMIT_PUBLIC: '2' } });
    try {
      const co = await companyWithPeople(limited, 'Limited');
      const url = (await limited.call('GET', '/me/calendar-feed', { token: co.employee.token })).body.url as string;
      const get = async () => (await fetch(`${limited.url}${new URL(url).pathname}`)).status;
      expect([await get(), await get(), await get()]).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
