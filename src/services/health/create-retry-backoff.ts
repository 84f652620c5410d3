/**
 * How long to wait before calling a dependency again after a failure: a little longer after each
 * failure in a row, never longer than `maxMs`, and back to `firstMs` after a success. A worker that
 * retried at once would spin through a whole outage, writing and counting a failure each turn.
 */
export interface RetryBackoff {
  /** The wait before the next attempt; each call counts one more failure. */
  next(): number;
  /** A call succeeded: the next failure waits `firstMs` again. */
  reset(): void;
}

export function createRetryBackoff(options: { firstMs?: number; maxMs?: number } = {}): RetryBackoff {
  const firstMs = options.firstMs ?? 250;
  const maxMs = Math.max(firstMs, options.maxMs ?? 2_000);
  let failures = 0;
  return {
    next() {
      const ms = Math.min(maxMs, Math.round(firstMs * 1.5 ** failures));
      failures++;
      return ms;
    },
    reset() {
      failures = 0;
    },
  };
}
