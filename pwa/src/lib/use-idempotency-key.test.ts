import { describe, expect, it } from 'vitest';
import { IdempotencyAttempts } from './use-idempotency-key.ts';

describe('IdempotencyAttempts', () => {
  it('gives a new key to every send unless the last one may be resent', () => {
    const a = new IdempotencyAttempts();
    const first = a.keyFor({ x: 1 });
    expect(a.keyFor({ x: 1 })).not.toBe(first);
  });

  it('reuses the key for the same request after an unknown outcome, not for a changed one', () => {
    const a = new IdempotencyAttempts();
    const first = a.keyFor('{"x":1}');
    a.failed(true);
    expect(a.keyFor('{"x":1}')).toBe(first);
    a.failed(true);
    const changed = a.keyFor('{"x":2}');
    expect(changed).not.toBe(first);
  });

  it('starts a new attempt after a refusal or a success', () => {
    const a = new IdempotencyAttempts();
    const first = a.keyFor({ x: 1 });
    a.failed(false);
    const second = a.keyFor({ x: 1 });
    expect(second).not.toBe(first);
    a.failed(true);
    a.succeeded();
    expect(a.keyFor({ x: 1 })).not.toBe(second);
  });

  it('lets one send out at a time: a second click in the same instant sends nothing until an answer', () => {
    const a = new IdempotencyAttempts();
    expect(a.begin()).toBe(true);
    expect(a.begin()).toBe(false);
    a.succeeded();
    expect(a.begin()).toBe(true);
    a.failed(true);
    expect(a.begin()).toBe(true);
    a.failed(false);
    expect(a.begin()).toBe(true);
  });
});
