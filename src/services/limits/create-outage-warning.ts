import type { Logger } from 'pino';
import type { Clock } from '../deps.js';

/** Long enough not to flood the log during an outage, short enough to show that it lasts. */
const WARNING_INTERVAL_MS = 60_000;

/**
 * Logs that the shared counters are unreachable at most once per interval, with how many calls
 * were affected since the previous warning, instead of once per request.
 */
export function createOutageWarning(logger: Logger, clock: Clock, what: string) {
  let lastAt = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return function warnOutage(err: unknown, failMode: 'open' | 'closed'): void {
    const now = clock();
    if (now - lastAt < WARNING_INTERVAL_MS) {
      suppressed += 1;
      return;
    }
    lastAt = now;
    const message = err instanceof Error ? err.message : String(err);
    logger.warn(
      { err: { message }, failMode, suppressedSinceLastWarning: suppressed },
      failMode === 'open'
        ? `${what}: limit counters unreachable, serving without counting (RATE_LIMIT_FAIL_MODE=open)`
        : `${what}: limit counters unreachable, refusing with 503 (RATE_LIMIT_FAIL_MODE=closed)`,
    );
    suppressed = 0;
  };
}
