/**
 * The quota policies of a passkey (docs/interface.md §8; docs/design.md, Limits): a rate limit per minute and a
 * quota per day, each counted in fixed windows aligned to the epoch, so the minute resets on the
 * minute and the day at 00:00 UTC for every instance alike.
 */
export interface QuotaPolicy {
  /** Policy name as advertised in RateLimit-Policy and RateLimit. */
  readonly name: 'minute' | 'day';
  /** Requests allowed per window. */
  readonly quota: number;
  readonly windowSeconds: number;
}

export function passkeyPolicies(passkey: {
  readonly ratePerMinute: number;
  readonly quotaPerDay: number;
}): readonly [QuotaPolicy, QuotaPolicy] {
  return [
    { name: 'minute', quota: passkey.ratePerMinute, windowSeconds: 60 },
    { name: 'day', quota: passkey.quotaPerDay, windowSeconds: 86_400 },
  ];
}

/** End (epoch ms, exclusive) of the aligned window of `windowSeconds` that contains `now`. */
export function alignedWindowEnd(now: number, windowSeconds: number): number {
  const size = windowSeconds * 1000;
  return (Math.floor(now / size) + 1) * size;
}

/** Whole seconds until `end`, rounded up so a client that waits them finds the window over. */
export function secondsUntil(end: number, now: number): number {
  return Math.max(0, Math.ceil((end - now) / 1000));
}
