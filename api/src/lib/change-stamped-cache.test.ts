// The change-stamped cache's rules: an answer lasts while the stamp is unchanged and its time has not come.
import { describe, expect, it } from 'vitest';
import { ChangeStampedCache } from './change-stamped-cache.ts';

describe('ChangeStampedCache', () => {
  it('answers while the stamp is unchanged and the time has not come, and forgets everything on a change', () => {
    let stamp = 's1';
    const cache = new ChangeStampedCache(() => stamp);
    const taken = cache.stamp();
    cache.set('a', taken, '{"slots":[]}', 2_000, 1_000);
    cache.set('b', taken, '{"dates":[]}', 5_000, 1_000);
    expect(cache.get('a', 1_500)).toBe('{"slots":[]}');
    expect(cache.get('a', 2_000)).toBeUndefined();
    expect(cache.get('b', 2_000)).toBe('{"dates":[]}');
    stamp = 's2';
    expect(cache.get('b', 2_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('refuses an answer computed across a write, or one already out of date', () => {
    let stamp = 's1';
    const cache = new ChangeStampedCache(() => stamp);
    const before = cache.stamp();
    stamp = 's2'; // a booking committed while the answer was being computed
    cache.set('a', before, 'old', 10_000, 1_000);
    expect(cache.get('a', 1_000)).toBeUndefined();
    cache.set('b', cache.stamp(), 'late', 1_000, 1_000);
    expect(cache.get('b', 1_000)).toBeUndefined();
  });

  it('keeps at most its limit, dropping the oldest', () => {
    const cache = new ChangeStampedCache(() => 's', 2);
    for (const k of ['a', 'b', 'c']) cache.set(k, cache.stamp(), k, 10, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, 'b', 'c']);
  });
});
