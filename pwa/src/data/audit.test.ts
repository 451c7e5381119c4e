// The audit log's words: what the Activity views print for each entry.
import { describe, expect, it } from 'vitest';
import { auditActor, auditChangeLines, auditTime, describeAudit } from './audit.ts';

describe('audit log words', () => {
  it('describes the action on its entity', () => {
    expect(describeAudit({ action: 'update', entity: 'appointment', entity_id: 12 })).toBe('changed appointment #12');
    expect(describeAudit({ action: 'login_failed', entity: 'user', entity_id: null })).toBe('failed sign-in for person');
    expect(describeAudit({ action: 'export', entity: 'user', entity_id: 7 })).toBe('exported the data of person #7');
    expect(describeAudit({ action: 'something_new', entity: 'odd_thing', entity_id: 3 })).toBe('something new odd thing #3');
  });

  it('names the actor, or says who was not signed in', () => {
    expect(auditActor({ actor_user_id: 4, actor_name: 'Ann', actor_role: 'admin' })).toBe('Ann');
    expect(auditActor({ actor_user_id: 4, actor_name: null, actor_role: 'admin' })).toBe('User #4');
    expect(auditActor({ actor_user_id: null, actor_name: null, actor_role: null })).toBe('Someone not signed in');
  });

  it('names the people, services and weekdays an entry holds by id, where the screen knows them', () => {
    const names = {
      person: (id: number) => ({ 5: 'Noah Barber', 38: 'Quinn Walkin' })[id],
      service: (id: number) => ({ 6: 'Haircut' })[id],
      day: (day: number) => (day === 1 ? 'Monday' : undefined),
    };
    expect(
      auditChangeLines(
        {
          employee_id: { new: 5 },
          user_id: { new: 38 },
          employee_ids: { old: [4, 5], new: [5] },
          service_type_ids: { new: [6] },
          day_of_week: { new: 1 },
          appointment_duration_option_id: { new: 3 },
        },
        undefined,
        names,
      ),
    ).toEqual([
      { field: 'employee', text: 'Noah Barber' },
      { field: 'person', text: 'Quinn Walkin' },
      { field: 'employees', text: '#4, Noah Barber → Noah Barber' },
      { field: 'services', text: 'Haircut' },
      { field: 'day', text: 'Monday' },
      { field: 'duration option', text: '3' },
    ]);
    expect(describeAudit({ action: 'change_role', entity: 'user', entity_id: 37 }, { person: () => 'Liam Newhire' })).toBe(
      'changed the role of Liam Newhire',
    );
    expect(describeAudit({ action: 'update', entity: 'service_type', entity_id: 6 }, names)).toBe('changed service Haircut');
    expect(describeAudit({ action: 'update', entity: 'appointment', entity_id: 12 }, names)).toBe('changed appointment #12');
    expect(describeAudit({ action: 'change_role', entity: 'user', entity_id: 99 }, names)).toBe('changed the role of person #99');
  });

  it('prints old → new, new only and old only', () => {
    expect(
      auditChangeLines({
        start_time: { old: 'a', new: 'b' },
        customer_name: { new: 'Pat' },
        duration_minutes: { old: 45 },
        ids: { new: [1, 2] },
      }),
    ).toEqual([
      { field: 'start time', text: 'a → b' },
      { field: 'customer name', text: 'Pat' },
      { field: 'duration minutes', text: 'was 45' },
      { field: 'ids', text: '1, 2' },
    ]);
    expect(auditChangeLines(null)).toEqual([]);
  });

  it("reads instants in the company's zone and flags (booleans from the server) as yes or no", () => {
    const zone = 'America/New_York';
    expect(
      auditChangeLines(
        {
          start_time: { old: '2026-12-10T17:00:00.000Z', new: '2026-12-10T13:00:00.000Z' },
          sms_consent: { new: false },
          hide_price: { old: false, new: true },
          employee_id: { new: 1 },
        },
        zone,
      ),
    ).toEqual([
      { field: 'start time', text: 'Dec 10, 2026, 12:00 PM → Dec 10, 2026, 8:00 AM' },
      { field: 'sms consent', text: 'no' },
      { field: 'hide price', text: 'no → yes' },
      { field: 'employee', text: '1' },
    ]);
    expect(auditTime('2026-11-29T10:48:00.000Z', zone)).toBe('Nov 29, 2026, 5:48 AM');
    // Wall times and a date's hours as the screens show them, not the API's '12:00:00' or raw JSON.
    expect(
      auditChangeLines({
        open_time: { old: '09:00:00', new: '13:30:00' },
        intervals: {
          new: [
            { open_time: '10:00:00', close_time: '12:00:00' },
            { open_time: '14:00:00', close_time: '00:00:00' },
          ],
        },
      }),
    ).toEqual([
      { field: 'open time', text: '9:00 AM → 1:30 PM' },
      { field: 'hours', text: '10:00 AM – 12:00 PM, 2:00 PM – 12:00 AM' },
    ]);
    // Without a company (the admin panel's log of every company), the zone is named.
    expect(auditTime('2026-11-29T10:48:00.000Z')).toMatch(/^Nov 29, 2026, \d{1,2}:48 [AP]M [A-Z]/);
  });
});
