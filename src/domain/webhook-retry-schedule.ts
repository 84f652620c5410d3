const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * How long to wait after each failed attempt: the first attempt goes at once, the last one
 * about 27.6 hours after the event, so a receiver that is down for a whole day still gets it.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  5 * SECOND,
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
]);

/** Attempts in all before a delivery is given up. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** The longest wait a receiver's Retry-After is honoured with; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * When to try again after `attempts` failed attempts, or null to give up. A receiver's
 * Retry-After (RFC 9110 §10.2.3) pushes the next attempt later, never earlier than the schedule.
 */
export function nextAttemptAt(now: number, attempts: number, retryAfterMs: number | null): number | null {
  if (attempts >= WEBHOOK_MAX_ATTEMPTS) return null;
  const scheduled = WEBHOOK_RETRY_DELAYS_MS[attempts - 1] ?? 0;
  return now + Math.max(scheduled, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}
