import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesce } from './coalesce.ts';

describe('coalesce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once after a quiet spell, and at least every maxWait during a long burst', () => {
    const fn = vi.fn();
    const { call } = coalesce(fn, 250, 1_000);
    call();
    call();
    vi.advanceTimersByTime(249);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);

    // 200 calls 10 ms apart (2 s): a few runs, not 200.
    for (let i = 0; i < 200; i++) {
      call();
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(250);
    expect(fn.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(fn.mock.calls.length).toBeLessThanOrEqual(4);
  });

  it('cancel drops a pending run', () => {
    const fn = vi.fn();
    const { call, cancel } = coalesce(fn);
    call();
    cancel();
    vi.advanceTimersByTime(5_000);
    expect(fn).not.toHaveBeenCalled();
  });
});
