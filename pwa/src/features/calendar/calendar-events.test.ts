import { describe, expect, it } from 'vitest';
import {
  STAFF_COLOURS,
  UNASSIGNED_COLOUR,
  eventLabel,
  isPending,
  labelEventElement,
  needsAttention,
  slotBounds,
  staffColours,
  toEvents,
  visibleAppointments,
} from './calendar-events.ts';
import type { Appointment } from '../../data/appointments.ts';
import { appointmentFixture } from '../../data/appointment-fixture.ts';

const zone = 'America/New_York';
const appt = (over: Partial<Appointment>) => appointmentFixture({ customer_name: 'Liam Smith', ...over });

describe('staffColours', () => {
  it('gives colours in id order, whatever order the staff come in', () => {
    const colours = staffColours([{ id: 9 }, { id: 3 }]);
    expect(colours.get(3)).toBe(STAFF_COLOURS[0]);
    expect(colours.get(9)).toBe(STAFF_COLOURS[1]);
  });
});

describe('visibleAppointments', () => {
  const list = [appt({ id: 1, employee_id: 3 }), appt({ id: 2, employee_id: null }), appt({ id: 3, employee_id: 3, status: 'cancelled' })];
  it('filters by employee, no employee, and cancelled', () => {
    expect(visibleAppointments(list, 'all', true).map((a) => a.id)).toEqual([1, 2, 3]);
    expect(visibleAppointments(list, 'all', false).map((a) => a.id)).toEqual([1, 2]);
    expect(visibleAppointments(list, 'none', true).map((a) => a.id)).toEqual([2]);
    expect(visibleAppointments(list, '3', false).map((a) => a.id)).toEqual([1]);
  });
});

describe('toEvents', () => {
  it("places events at the company's wall time, coloured by employee, cancelled ones greyed and fixed", () => {
    const colours = new Map([[3, '#0f766e']]);
    const [assigned, unassigned, cancelled] = toEvents(
      [appt({ id: 1, employee_id: 3 }), appt({ id: 2 }), appt({ id: 3, employee_id: 3, status: 'cancelled' })],
      zone,
      colours,
      true,
    );
    expect(assigned).toMatchObject({
      id: '1',
      title: 'Liam Smith',
      start: '2026-03-02T10:00:00',
      end: '2026-03-02T10:30:00',
      backgroundColor: '#0f766e',
      editable: true,
    });
    expect(unassigned.backgroundColor).toBe(UNASSIGNED_COLOUR);
    expect(cancelled).toMatchObject({ backgroundColor: '#e2e8f0', classNames: ['appt-event', 'is-cancelled'], editable: false });
    expect(toEvents([appt({})], zone, colours, false)[0].editable).toBe(false);
  });

  it('marks appointments with changes waiting to sync', () => {
    const pending = { ...appt({ id: 4 }), pending: true as const };
    const [marked, cancelledMarked, plain] = toEvents(
      [pending, { ...appt({ id: 5, status: 'cancelled' }), pending: true as const }, appt({ id: 6 })],
      zone,
      new Map(),
      true,
    );
    expect(isPending(pending)).toBe(true);
    expect(marked.classNames).toEqual(['appt-event', 'is-pending']);
    expect(cancelledMarked.classNames).toEqual(['appt-event', 'is-cancelled', 'is-pending']);
    expect(plain.classNames).toEqual(['appt-event']);
  });

  it('marks a change the server refused as needing attention, not as waiting to sync, until the choice', () => {
    const refused = { ...appt({ id: 7 }), pending: true as const, needsAttention: true as const };
    const [marked] = toEvents([refused], zone, new Map(), true);
    expect(needsAttention(refused)).toBe(true);
    expect(isPending(refused)).toBe(false);
    expect(marked.classNames).toEqual(['appt-event', 'needs-attention']);
    // After "Apply again" or "Pick another time" it waits to sync; after "Discard" or "Keep theirs" it is plain.
    const [requeued, settled] = toEvents([{ ...appt({ id: 7 }), pending: true as const }, appt({ id: 7 })], zone, new Map(), true);
    expect(requeued.classNames).toEqual(['appt-event', 'is-pending']);
    expect(settled.classNames).toEqual(['appt-event']);
  });
});

describe('slotBounds', () => {
  it('shows 7:00 to 21:00, widened to whole hours around appointments outside it', () => {
    expect(slotBounds([appt({})], zone)).toEqual({ slotMinTime: '07:00:00', slotMaxTime: '21:00:00' });
    // 6:30 to 21:15 New York time.
    const early = appt({ start_time: '2026-03-02T11:30:00Z', end_time: '2026-03-02T12:00:00Z' });
    const late = appt({ start_time: '2026-03-03T01:45:00Z', end_time: '2026-03-03T02:15:00Z' });
    expect(slotBounds([early, late], zone)).toEqual({ slotMinTime: '06:00:00', slotMaxTime: '22:00:00' });
    // Past midnight: the grid ends at 24:00.
    const overnight = appt({ start_time: '2026-03-03T03:00:00Z', end_time: '2026-03-03T06:00:00Z' });
    expect(slotBounds([overnight], zone).slotMaxTime).toBe('24:00:00');
  });
});

describe('eventLabel', () => {
  it('reads the title, the time, the employee and whether cancelled', () => {
    expect(eventLabel('Liam Smith', appt({ employee_name: 'Ava' }), zone)).toBe(
      'Liam Smith, Mon, Mar 2, 2026 10:00 AM to 10:30 AM, with Ava',
    );
    expect(eventLabel('Liam Smith', appt({ status: 'cancelled' }), zone)).toBe(
      'Liam Smith, Mon, Mar 2, 2026 10:00 AM to 10:30 AM, cancelled',
    );
    expect(eventLabel('Liam Smith', { ...appt({}), pending: true as const }, zone)).toBe(
      'Liam Smith, Mon, Mar 2, 2026 10:00 AM to 10:30 AM, waiting to sync',
    );
    expect(eventLabel('Liam Smith', { ...appt({}), pending: true as const, needsAttention: true as const }, zone)).toBe(
      'Liam Smith, Mon, Mar 2, 2026 10:00 AM to 10:30 AM, needs attention',
    );
  });
});

describe('labelEventElement', () => {
  /** Just the attributes of an element: FullCalendar's element is kept, only its attributes change. */
  const element = () => {
    const attrs = new Map<string, string>();
    return {
      attrs,
      getAttribute: (name: string) => attrs.get(name) ?? null,
      setAttribute: (name: string, value: string) => void attrs.set(name, value),
    };
  };

  it('follows the appointment after an edit in place, pending mark included', () => {
    const el = element();
    labelEventElement(el as unknown as HTMLElement, appt({ description: 'Trim' }), zone);
    expect(el.attrs.get('aria-label')).toBe('Liam Smith, Trim, Mon, Mar 2, 2026 10:00 AM to 10:30 AM');
    labelEventElement(el as unknown as HTMLElement, { ...appt({ description: 'Colour' }), pending: true as const }, zone);
    expect(el.attrs.get('aria-label')).toBe('Liam Smith, Colour, Mon, Mar 2, 2026 10:00 AM to 10:30 AM, waiting to sync');
    expect(el.attrs.get('title')).toBe(el.attrs.get('aria-label'));
    labelEventElement(el as unknown as HTMLElement, { ...appt({ description: 'Colour' }), pending: true, needsAttention: true }, zone);
    expect(el.attrs.get('aria-label')).toBe('Liam Smith, Colour, Mon, Mar 2, 2026 10:00 AM to 10:30 AM, needs attention');
    labelEventElement(el as unknown as HTMLElement, appt({ description: 'Colour' }), zone);
    expect(el.attrs.get('aria-label')).toBe('Liam Smith, Colour, Mon, Mar 2, 2026 10:00 AM to 10:30 AM');
  });
});
