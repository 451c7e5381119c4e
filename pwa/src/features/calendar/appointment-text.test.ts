import { describe, expect, it } from 'vitest';
import { eventTitle } from './appointment-text.ts';
import type { CalendarAppointment } from './types.ts';

const base: CalendarAppointment = {
  id: 1, company_id: 1, user_id: 7, employee_id: null, start_time: '2026-01-01T10:00:00Z', end_time: '2026-01-01T10:30:00Z',
  description: null, status: 'booked', version: 1, service_types: [],
};

describe('eventTitle', () => {
  it('joins name, description and services with commas', () => {
    expect(eventTitle({ ...base, customer_name: 'Liam Smith', description: 'Prefers a quiet chair', service_types: [{ id: 1, name: 'Haircut' }, { id: 2, name: 'Beard Trim' }] }))
      .toBe('Liam Smith, Prefers a quiet chair, Haircut, Beard Trim');
  });
  it('falls back to Customer #id and skips empty parts', () => {
    expect(eventTitle({ ...base, customer_name: null, description: '  ', service_types: [{ id: 1, name: 'Haircut' }] })).toBe('Customer #7, Haircut');
  });
});
