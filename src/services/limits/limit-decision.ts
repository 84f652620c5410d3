import type { FailMode } from '../../config.js';
import type { Passkey } from '../../domain/passkey.js';
import { passkeyPolicies, type QuotaPolicy, secondsUntil } from '../../domain/quota-policy.js';
import { formatRateLimit, formatRateLimitPolicy, type ServiceLimit } from '../../domain/ratelimit-fields.js';
import { AppError, DEPENDENCY_RETRY_AFTER_SECONDS } from '../../errors.js';
import type { CounterStoreUnavailable } from '../../store/counters/counter-store.js';
import type { Lease } from './lease.js';

/** The outcome of charging one call to a passkey's rate limit and quota (docs/interface.md §8). */
export interface LimitDecision {
  readonly allowed: boolean;
  /** IETF RateLimit-Policy / RateLimit fields (and Retry-After when refused). */
  readonly headers: Readonly<Record<string, string>>;
  readonly exceeded?: 'rate' | 'quota';
  readonly retryAfterSeconds?: number;
}

/** A passkey's policies and the RateLimit-Policy field that advertises them. */
export interface Described {
  readonly policies: readonly QuotaPolicy[];
  readonly policyField: string;
}

/**
 * A passkey's policies and their RateLimit-Policy field, made once per passkey object: the
 * tenancy cache hands every call the same (immutable) object until the passkey changes, and
 * formatting the field anew (with its names quoted anew) made a charge about twice as costly,
 * in a loop (bench/results/history.md, GET author).
 */
const descriptions = new WeakMap<Passkey, Described>();
export function describe(passkey: Passkey): Described {
  let found = descriptions.get(passkey);
  if (!found) {
    const policies = passkeyPolicies(passkey);
    found = { policies, policyField: formatRateLimitPolicy(policies) };
    descriptions.set(passkey, found);
  }
  return found;
}

function limitsOf(lease: Lease, policies: readonly QuotaPolicy[], now: number): ServiceLimit[] {
  return policies.map((policy, i) => ({
    policy,
    remaining: policy.quota - lease.hits[i]! + lease.unspent,
    resetSeconds: secondsUntil(lease.windowEnds[i]!, now),
  }));
}

/** A call admitted from the lease, with what remains after it. */
export function admission(lease: Lease, described: Described, now: number): LimitDecision {
  const headers = {
    'ratelimit-policy': described.policyField,
    ratelimit: formatRateLimit(limitsOf(lease, described.policies, now)),
  };
  return { allowed: true, headers };
}

export function refusal(lease: Lease, { policies, policyField }: Described, now: number): LimitDecision {
  const limits = limitsOf(lease, policies, now);
  const headers = {
    'ratelimit-policy': policyField,
    ratelimit: formatRateLimit(limits),
  };
  const exhausted = limits.filter((l) => l.remaining < 1);
  // draft-ietf-httpapi-ratelimit-headers-11 §6: Retry-After no earlier than the end of the
  // effective window, i.e. the latest end among the exhausted policies.
  const retryAfterSeconds = Math.max(1, ...exhausted.map((l) => l.resetSeconds));
  return {
    allowed: false,
    headers: { ...headers, 'retry-after': String(retryAfterSeconds) },
    exceeded: exhausted.some((l) => l.policy.name === 'day') ? 'quota' : 'rate',
    retryAfterSeconds,
  };
}

/** The counters cannot be reached: what RATE_LIMIT_FAIL_MODE says, thrown when it refuses. */
export function outageDecision(
  failMode: FailMode,
  error: CounterStoreUnavailable,
  policyField: string,
): LimitDecision {
  // Open: the call is served uncounted; the policy is still advertised, the remaining
  // allowance (RateLimit) is not, as it is unknown.
  if (failMode === 'open') return { allowed: true, headers: { 'ratelimit-policy': policyField } };
  // Closed (default): the limits are part of the contract with partners, and an outage of
  // the counters must not lift them; 503 says the refusal is the server's, not the caller's.
  throw new AppError('SERVICE_UNAVAILABLE', {
    detail: 'rate limits cannot be checked right now',
    cause: error.cause,
    headers: {
      'ratelimit-policy': policyField,
      'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS),
    },
  });
}
