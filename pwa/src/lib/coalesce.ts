// Coalescing a burst of calls into a few (docs/decisions/08-offline-pwa.md: the calendar's re-reads
// while the outbox drains).
/**
 * Runs `fn` once a burst of calls has been quiet for `quietMs`, and at least every `maxWaitMs` while
 * the burst goes on: when 200 queued changes drain after a reconnect, the calendar re-reads a few
 * times instead of 200 (each re-read competed with the runner for the same two cores).
 */
export function coalesce(fn: () => void, quietMs = 250, maxWaitMs = 1_000): { call: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let firstAt: number | null = null;
  const run = () => {
    timer = null;
    firstAt = null;
    fn();
  };
  return {
    call: () => {
      const now = Date.now();
      firstAt ??= now;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(run, Math.max(0, Math.min(quietMs, firstAt + maxWaitMs - now)));
    },
    cancel: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      firstAt = null;
    },
  };
}
