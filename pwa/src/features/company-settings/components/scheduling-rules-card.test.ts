import { describe, expect, it } from 'vitest';
import { NOTICE_LIMITS, WINDOW_LIMITS, wholeIn } from './scheduling-rules-card.tsx';
import { SERVICE_TEXT, serviceProblem } from './services-card.tsx';

describe('Notice and booking window bounds (DECISIONS 11)', () => {
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
