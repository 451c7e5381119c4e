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
      { field: 'employee id', text: '1' },
    ]);
    expect(auditTime('2026-11-29T10:48:00.000Z', zone)).toBe('Nov 29, 2026, 5:48 AM');
    // Without a company (the admin panel's log of every company), the zone is named.
    expect(auditTime('2026-11-29T10:48:00.000Z')).toMatch(/^Nov 29, 2026, \d{1,2}:48 [AP]M [A-Z]/);
  });
});
