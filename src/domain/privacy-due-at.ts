/**
 * GDPR Art. 12(3): a request is answered "within one month of receipt". One calendar month later,
 * on the same day of the month and time of day (UTC); when that month is shorter the due date is
 * its last day (31 January -> 28 or 29 February).
 */
export function privacyDueAt(submittedAt: number): number {
  const d = new Date(submittedAt);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  // Day 0 of the month after the target month is the target month's last day.
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}
