import { describe, expect, it } from 'vitest';
import { NOTICE_LIMITS, WINDOW_LIMITS, wholeIn } from './scheduling-rules-card.tsx';
import { SERVICE_TEXT, serviceProblem, serviceRules } from './services-card.tsx';
import type { ServiceType } from '../../../data/service-types.ts';

describe('Notice and booking window bounds (docs/decisions/11-scheduling-rules-beyond-spec.md)', () => {
  it('takes whole numbers inside the bounds only', () => {
    expect(wholeIn('0', NOTICE_LIMITS.min, NOTICE_LIMITS.max)).toBe(0);
    expect(wholeIn('10080', NOTICE_LIMITS.min, NOTICE_LIMITS.max)).toBe(10080);
    expect(wholeIn('10081', NOTICE_LIMITS.min, NOTICE_LIMITS.max)).toBeNull();
    expect(wholeIn('0', WINDOW_LIMITS.min, WINDOW_LIMITS.max)).toBeNull();
    expect(wholeIn(' 365 ', WINDOW_LIMITS.min, WINDOW_LIMITS.max)).toBe(365);
    expect(wholeIn('1.5', WINDOW_LIMITS.min, WINDOW_LIMITS.max)).toBeNull();
    expect(wholeIn('', WINDOW_LIMITS.min, WINDOW_LIMITS.max)).toBeNull();
  });
});

describe('service buffers and who performs it', () => {
  const draft = {
    name: 'Colour',
    duration: '90',
    price: '',
    slots: '1',
    hidePrice: false,
    bufferBefore: '',
    bufferAfter: '15',
    employeeIds: [7, 3],
  };
  it('sends buffers (empty is 0) and the employees in order', () => {
    expect(serviceProblem(draft)).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 15, employee_ids: [3, 7] });
  });
  it('refuses buffers outside 0 to 240 whole minutes', () => {
    expect(serviceProblem({ ...draft, bufferAfter: '241' })).toBe(SERVICE_TEXT.buffer);
    expect(serviceProblem({ ...draft, bufferBefore: '-5' })).toBe(SERVICE_TEXT.buffer);
    expect(serviceProblem({ ...draft, bufferBefore: '240' })).toMatchObject({ buffer_before_minutes: 240 });
  });
});

describe('serviceRules (the line under a service in the table)', () => {
  const svc = (patch: Partial<ServiceType>) =>
    ({ buffer_before_minutes: 0, buffer_after_minutes: 0, employee_ids: [], ...patch }) as ServiceType;
  const staff = [
    { id: 3, name: 'Emma Stylist' },
    { id: 5, name: 'Ava Coach' },
  ];
  it('is empty without buffers or assignments', () => {
    expect(serviceRules(svc({}), staff)).toBe('');
  });
  it('names the buffers and the people', () => {
    expect(serviceRules(svc({ buffer_before_minutes: 10, buffer_after_minutes: 15, employee_ids: [5, 3] }), staff)).toBe(
      'Buffers: 10 min before, 15 min after · By Ava Coach, Emma Stylist',
    );
    expect(serviceRules(svc({ employee_ids: [9] }), staff)).toBe('By 1 staff');
  });
});
