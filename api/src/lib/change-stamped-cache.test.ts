// The change-stamped cache's rules: an answer is served only for the stamp it was computed at and
// before its own deadline; entries of other keys (other companies) are not touched by a new stamp.
import { describe, expect, it } from 'vitest';
import { ChangeStampedCache } from './change-stamped-cache.ts';

describe('ChangeStampedCache', () => {
  it('answers for the same stamp until its time has come, and never for another stamp', () => {
    const cache = new ChangeStampedCache();
    cache.set('a', 1, '{"slots":[]}', 2_000, 1_000);
    cache.set('b', 7, '{"dates":[]}', 5_000, 1_000);
    expect(cache.get('a', 1, 1_500)).toBe('{"slots":[]}');
    expect(cache.get('a', 1, 2_000)).toBeUndefined();
    expect(cache.get('b', 7, 2_000)).toBe('{"dates":[]}');
    // Company of 'b' written: its generation moved.
    expect(cache.get('b', 8, 2_000)).toBeUndefined();
    expect(cache.get('b', 7, 2_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps other keys when one stamp moves', () => {
    const cache = new ChangeStampedCache();
    cache.set('company-1', 3, 'one', 10_000, 0);
    cache.set('company-2', 5, 'two', 10_000, 0);
    expect(cache.get('company-1', 4, 1)).toBeUndefined();
    expect(cache.get('company-2', 5, 1)).toBe('two');
  });

  it('never serves an answer computed across a write, nor one already out of date', () => {
    const cache = new ChangeStampedCache();
    // Stamp 1 read, a booking committed (stamp 2) while the answer was computed: kept under 1, refused at 2.
    cache.set('a', 1, 'maybe old', 10_000, 1_000);
    expect(cache.get('a', 2, 1_000)).toBeUndefined();
    cache.set('b', 2, 'late', 1_000, 1_000);
    expect(cache.get('b', 2, 1_000)).toBeUndefined();
  });

  it('keeps at most its limit, dropping the least recently used', () => {
    const cache = new ChangeStampedCache(2);
    cache.set('a', 0, 'a', 10, 0);
    cache.set('b', 0, 'b', 10, 0);
    expect(cache.get('a', 0, 1)).toBe('a');
    cache.set('c', 0, 'c', 10, 0);
    expect([cache.get('a', 0, 1), cache.get('b', 0, 1), cache.get('c', 0, 1)]).toEqual(['a', undefined, 'c']);
  });

  it('gives an answer served since it was last passed over one more turn, not two', () => {
    const cache = new ChangeStampedCache(3);
    for (const k of ['a', 'b', 'c']) cache.set(k, 0, k, 10, 0);
    expect(cache.get('a', 0, 1)).toBe('a');
    cache.set('d', 0, 'd', 10, 0); // 'a' moves behind 'c' unmarked; 'b' goes
    cache.set('e', 0, 'e', 10, 0); // 'c' goes
    cache.set('f', 0, 'f', 10, 0); // 'a' was not served again: it goes
    expect(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => cache.get(k, 0, 1))).toEqual([undefined, undefined, undefined, 'd', 'e', 'f']);
  });

  it('keeps its keys and bodies under its size bound, dropping the least recently used', () => {
    // Room for two 1-character keys with 4-character bodies (5 characters each).
    const cache = new ChangeStampedCache(100, 10);
    cache.set('a', 0, 'aaaa', 10, 0);
    cache.set('b', 0, 'bbbb', 10, 0);
    expect(cache.get('a', 0, 1)).toBe('aaaa');
    cache.set('c', 0, 'cccc', 10, 0);
    expect([cache.get('a', 0, 1), cache.get('b', 0, 1), cache.get('c', 0, 1)]).toEqual(['aaaa', undefined, 'cccc']);
    expect(cache.heldChars).toBe(10);
    // A body larger than the whole bound is not kept, and evicts nothing.
    cache.set('d', 0, 'x'.repeat(20), 10, 0);
    expect([cache.get('d', 0, 1), cache.get('a', 0, 1), cache.get('c', 0, 1)]).toEqual([undefined, 'aaaa', 'cccc']);
    // Replacing and refusing stale entries give their room back.
    cache.set('a', 1, 'a', 10, 0);
    expect(cache.get('c', 1, 1)).toBeUndefined();
    expect(cache.heldChars).toBe(2);
  });
});
