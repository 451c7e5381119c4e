// The update prompt waits for the reload guards (the offline outbox registers one): accepting the
// update while a guard refuses marks it waiting, and it goes ahead by itself once they all agree.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acceptUpdate, addReloadGuard, reloadToUpdate, updateWaiting } from './pwa-update.ts';

describe('update prompt and reload guards', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reloads at once when no guard refuses', async () => {
    expect(await reloadToUpdate()).toBe(true);
  });

  it('waits while a guard refuses and asks again until it agrees', async () => {
    let outboxEmpty = false;
    const guard = vi.fn(() => outboxEmpty);
    const remove = addReloadGuard(guard);
    try {
      await acceptUpdate();
      expect(updateWaiting.get()).toBe(true);
      expect(guard).toHaveBeenCalledTimes(1);

      await vi.advanceTimersByTimeAsync(2_000);
      expect(guard).toHaveBeenCalledTimes(2);

      outboxEmpty = true;
      await vi.advanceTimersByTimeAsync(2_000);
      expect(guard).toHaveBeenCalledTimes(3);
      // Allowed: the retrying stops (the real app reloads into the new version here).
      await vi.advanceTimersByTimeAsync(10_000);
      expect(guard).toHaveBeenCalledTimes(3);
    } finally {
      remove();
    }
  });
});
