// The audit log's words: what the Activity views print for each entry.
import { describe, expect, it } from 'vitest';
import { auditActor, auditChangeLines, describeAudit } from './audit.ts';

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
});
