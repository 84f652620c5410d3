import type { QuotaPolicy } from './quota-policy.js';

/**
 * Header fields of draft-ietf-httpapi-ratelimit-headers-11 (May 2026), both Structured Field
 * Lists (RFC 9651): `RateLimit-Policy` (§3) names each quota policy with its quota `q` and window
 * `w` in seconds; `RateLimit` (§4) gives, per policy, the available quota `r` and the seconds `t`
 * until its window ends. No partition key (`pk`) is sent: it would identify the passkey.
 */

export interface ServiceLimit {
  readonly policy: QuotaPolicy;
  /** Requests still available in the current window. */
  readonly remaining: number;
  /** Seconds until the current window ends. */
  readonly resetSeconds: number;
}

/** RFC 9651 §4.1.6: sf-string, with `"` and `\` escaped. */
function sfString(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** The policy names, quoted once: every answer carries them. */
const QUOTED_NAMES: Readonly<Record<QuotaPolicy['name'], string>> = {
  minute: sfString('minute'),
  day: sfString('day'),
};

export function formatRateLimitPolicy(policies: readonly QuotaPolicy[]): string {
  return policies.map((p) => `${QUOTED_NAMES[p.name]};q=${p.quota};w=${p.windowSeconds}`).join(', ');
}

export function formatRateLimit(limits: readonly ServiceLimit[]): string {
  return limits
    .map((l) => `${QUOTED_NAMES[l.policy.name]};r=${Math.max(0, l.remaining)};t=${l.resetSeconds}`)
    .join(', ');
}
