// A page whose storage the browser refuses (a third-party iframe) still gets a working Storage.
import { describe, expect, it } from 'vitest';
import { ensureStorage } from './storage-fallback.ts';

describe('ensureStorage', () => {
  it('puts memory in place of storage that throws, and leaves working storage alone', () => {
    const working = { getItem: () => 'kept' };
    const target = {} as typeof globalThis;
    Object.defineProperty(target, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException(
          "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.",
          'SecurityError',
        );
      },
    });
    Object.defineProperty(target, 'sessionStorage', { configurable: true, value: working });

    expect(ensureStorage(target)).toEqual(['localStorage']);
    target.localStorage.setItem('token', 'abc');
    expect(target.localStorage.getItem('token')).toBe('abc');
    expect(target.localStorage.length).toBe(1);
    expect(target.sessionStorage).toBe(working);
  });
});
