/** asctime-date (RFC 9110 §5.6.7), which names no zone: it is UTC, where Date.parse reads local time. */
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/;

/**
 * Retry-After (RFC 9110 §10.2.3) in milliseconds from `now`: delay-seconds, or an HTTP-date in
 * any of the three forms a recipient must read (§5.6.7; a time already past is 0); null when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(ASCTIME.test(trimmed) ? `${trimmed} GMT` : trimmed);
  if (Number.isNaN(at) || !/[a-z]/i.test(trimmed)) return null;
  return Math.max(0, at - now);
}
