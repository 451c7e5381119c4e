import { describe, expect, it } from 'vitest';
import { eventTitle } from './appointment-text.ts';
import { appointmentFixture } from '../data/appointment-fixture.ts';

const base = appointmentFixture();

describe('eventTitle', () => {
  it('joins name, description and services with commas', () => {
    expect(
      eventTitle({
        ...base,
        customer_name: 'Liam Smith',
        description: 'Prefers a quiet chair',
        service_types: [
          { id: 1, name: 'Haircut' },
          { id: 2, name: 'Beard Trim' },
        ],
      }),
    ).toBe('Liam Smith, Prefers a quiet chair, Haircut, Beard Trim');
  });
  it('falls back to Customer #id and skips empty parts', () => {
    expect(eventTitle({ ...base, customer_name: null, description: '  ', service_types: [{ id: 1, name: 'Haircut' }] })).toBe(
      'Customer #7, Haircut',
    );
  });
});
