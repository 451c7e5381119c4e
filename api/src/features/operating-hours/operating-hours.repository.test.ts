// hoursForDay and hoursForWeek, the reading of hours that scheduling builds on, on every test dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addPerson, companyWithPeople, type TestCompany } from '../../testing/company-people.ts';
import { hoursForDay, hoursForWeek, intervalsForDay, intervalsForWeek, staffIntervalsForWeek } from './operating-hours.repository.ts';

describe.each(testDialects())('hoursForDay and hoursForWeek on %s', (dialect) => {
  let t: TestServer;
  let c: TestCompany;
  let other: TestCompany;

  async function hours(companyId: number, userId: number | null, day: number, open: string | null, close: string | null, closed = false) {
    await t.db
      .insertInto('operating_hours')
      .values({ company_id: companyId, user_id: userId, day_of_week: day, open_time: open, close_time: close, is_closed: closed ? 1 : 0 })
      .execute();
  }

  beforeAll(async () => {
    t = await startTestServer(dialect);
    c = await companyWithPeople(t, 'Hours Co');
    other = await companyWithPeople(t, 'Other Co');
    // Company: Mon-Fri 09-17, Saturday an evening to midnight, Sunday explicitly closed.
    for (let d = 1; d <= 5; d++) await hours(c.companyId, null, d, '09:00:00', '17:00:00');
    await hours(c.companyId, null, 6, '18:00:00', '00:00:00');
    await hours(c.companyId, null, 7, '10:00:00', '12:00:00', true);
    // The employee works Monday afternoons, is off on Tuesday, and has no row for the other days.
    await hours(c.companyId, c.employee.id, 1, '13:00:00', '17:00:00');
    await hours(c.companyId, c.employee.id, 2, null, null, true);
    // Another company's hours never leak in.
    await hours(other.companyId, null, 3, '06:00:00', '07:00:00');
    await hours(other.companyId, other.employee.id, 3, '06:00:00', '07:00:00');
  });
  afterAll(async () => t?.close());

  it('gives the company interval, or null when closed or without a row', async () => {
    expect(await hoursForDay(t.db, c.companyId, 1)).toEqual({ company: { open: '09:00:00', close: '17:00:00' }, employee: undefined });
    expect((await hoursForDay(t.db, c.companyId, 7)).company).toBeNull();
    expect((await hoursForDay(t.db, other.companyId, 1)).company).toBeNull();
  });

  it('reports a midnight close as 24:00:00', async () => {
    expect((await hoursForDay(t.db, c.companyId, 6)).company).toEqual({ open: '18:00:00', close: '24:00:00' });
  });

  it('tells "works company hours" (undefined) from "off that day" (null) for an employee', async () => {
    expect(await hoursForDay(t.db, c.companyId, 1, c.employee.id)).toEqual({
      company: { open: '09:00:00', close: '17:00:00' },
      employee: { open: '13:00:00', close: '17:00:00' },
    });
    expect((await hoursForDay(t.db, c.companyId, 2, c.employee.id)).employee).toBeNull();
    expect((await hoursForDay(t.db, c.companyId, 3, c.employee.id)).employee).toBeNull();
    expect((await hoursForDay(t.db, c.companyId, 3, c.manager.id)).employee).toBeUndefined();
    expect((await hoursForDay(t.db, c.companyId, 3, null)).employee).toBeUndefined();
    // Someone of another company has no hours here.
    expect((await hoursForDay(t.db, c.companyId, 3, other.employee.id)).employee).toBeUndefined();
  });

  it('gives the whole week in one call, matching hoursForDay day by day', async () => {
    for (const employee of [undefined, null, c.employee.id, c.manager.id]) {
      const week = await hoursForWeek(t.db, c.companyId, employee);
      expect(Object.keys(week).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      for (let d = 1; d <= 7; d++)
        expect(week[d], `day ${d}, employee ${employee}`).toEqual(await hoursForDay(t.db, c.companyId, d, employee));
    }
    const fresh = await addPerson(t, other.companyId, 'employee');
    const empty = await hoursForWeek(t.db, other.companyId, fresh.id);
    expect(empty[3]).toEqual({ company: { open: '06:00:00', close: '07:00:00' }, employee: undefined });
    expect(empty[1]).toEqual({ company: null, employee: undefined });
  });

  it('refuses a weekday outside 1..7', async () => {
    for (const bad of [0, 8, 1.5, Number.NaN]) await expect(hoursForDay(t.db, c.companyId, bad)).rejects.toThrow(RangeError);
  });

  it('gives every interval of a day with breaks, sorted, for the company and a person (intervalsForDay/Week)', async () => {
    const b = await companyWithPeople(t, 'Breaks Co');
    await hours(b.companyId, null, 1, '13:00:00', '17:00:00');
    await hours(b.companyId, null, 1, '09:00:00', '12:00:00');
    await hours(b.companyId, null, 2, '09:00:00', '17:00:00', true);
    await hours(b.companyId, b.employee.id, 1, '15:00:00', '00:00:00');
    await hours(b.companyId, b.employee.id, 1, '09:00:00', '10:00:00');
    const monday = [
      { open: '09:00:00', close: '12:00:00' },
      { open: '13:00:00', close: '17:00:00' },
    ];
    expect(await intervalsForDay(t.db, b.companyId, 1)).toEqual({ company: monday, employee: undefined });
    expect(await intervalsForDay(t.db, b.companyId, 1, b.employee.id)).toEqual({
      company: monday,
      employee: [
        { open: '09:00:00', close: '10:00:00' },
        { open: '15:00:00', close: '24:00:00' },
      ],
    });
    expect(await intervalsForDay(t.db, b.companyId, 2, b.employee.id)).toEqual({ company: [], employee: [] });
    expect((await intervalsForDay(t.db, b.companyId, 1, b.manager.id)).employee).toBeUndefined();
    for (const employee of [undefined, b.employee.id, b.manager.id]) {
      const week = await intervalsForWeek(t.db, b.companyId, employee);
      for (let d = 1; d <= 7; d++) expect(week[d]).toEqual(await intervalsForDay(t.db, b.companyId, d, employee));
    }
    const staff = await staffIntervalsForWeek(t.db, b.companyId, [b.employee.id, b.manager.id, c.employee.id]);
    expect(staff.get(b.manager.id)).toBeUndefined();
    expect(staff.has(b.manager.id)).toBe(true);
    expect(staff.get(c.employee.id)).toBeUndefined();
    expect(staff.get(b.employee.id)![1]).toEqual((await intervalsForDay(t.db, b.companyId, 1, b.employee.id)).employee);
    expect(staff.get(b.employee.id)![3]).toEqual([]);
    await expect(intervalsForDay(t.db, b.companyId, 0)).rejects.toThrow(RangeError);
  });
});
