import type { Passkey } from '../../domain/passkey.js';
import { alignedWindowEnd, passkeyPolicies, secondsUntil } from '../../domain/quota-policy.js';
import { formatRateLimit, formatRateLimitPolicy, type ServiceLimit } from '../../domain/ratelimit-fields.js';
import { AppError } from '../../errors.js';
import { CounterStoreUnavailable } from '../../store/counters/counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { createCounterStore } from './create-counter-store.js';
import { createOutageWarning } from './create-outage-warning.js';

/** The outcome of charging one call to a passkey's rate limit and quota (docs/interface.md §8). */
export interface LimitDecision {
  readonly allowed: boolean;
  /** IETF RateLimit-Policy / RateLimit fields (and Retry-After when refused). */
  readonly headers: Readonly<Record<string, string>>;
  readonly exceeded?: 'rate' | 'quota';
  readonly retryAfterSeconds?: number;
}

export interface PasskeyLimiter {
  consume(passkey: Passkey): Promise<LimitDecision>;
  close(): Promise<void>;
}

/** Retry-After of the 503 answered while the counters are unreachable in closed mode. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * docs/interface.md §8 and §5.5: every call made with a passkey is charged to its rate limit (per minute) and
 * its quota (per day), with the numbers of the passkey row the request just loaded, so a change
 * made with `rpa passkeys update` applies from the next request on every instance. Counters are
 * keyed by passkey id (never the passkey itself) and policy, not by the numbers: a changed limit
 * is compared with what the current window already holds.
 *
 * One call takes from both policies or from neither (see CounterStore.take): a call refused by the
 * minute limit does not use up the day's quota, nor the reverse, and no policy ever admits more
 * calls than its number, whatever the concurrency across instances.
 */
export async function createPasskeyLimiter(deps: ServiceDeps): Promise<PasskeyLimiter> {
  const counters = await createCounterStore(deps, { housekeeping: true });
  const warnOutage = createOutageWarning(deps.logger, deps.clock, 'passkey limits');
  const failMode = deps.config.rateLimitFailMode;

  return {
    async consume(passkey): Promise<LimitDecision> {
      const now = deps.clock();
      const policies = passkeyPolicies(passkey);
      const policyField = formatRateLimitPolicy(policies);
      let outcome: Awaited<ReturnType<typeof counters.take>>;
      try {
        outcome = await counters.take(
          policies.map((p) => ({
            key: `{pk:${passkey.id}}:${p.name}`,
            limit: p.quota,
            freshWindowEnd: alignedWindowEnd(now, p.windowSeconds),
          })),
          now,
        );
      } catch (err) {
        if (!(err instanceof CounterStoreUnavailable)) throw err;
        warnOutage(err, failMode);
        // Open: the call is served uncounted; the policy is still advertised, the remaining
        // allowance (RateLimit) is not, as it is unknown.
        if (failMode === 'open') return { allowed: true, headers: { 'ratelimit-policy': policyField } };
        // Closed (default): the limits are part of the contract with partners, and an outage of
        // the counters must not lift them; 503 says the refusal is the server's, not the caller's.
        throw new AppError('SERVICE_UNAVAILABLE', {
          detail: 'rate limits cannot be checked right now',
          headers: {
            'ratelimit-policy': policyField,
            'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
          },
        });
      }

      const limits: ServiceLimit[] = policies.map((policy, i) => {
        const state = outcome.counters[i]!;
        return {
          policy,
          remaining: policy.quota - state.hits,
          resetSeconds: secondsUntil(state.windowEnd, now),
        };
      });
      const headers = { 'ratelimit-policy': policyField, ratelimit: formatRateLimit(limits) };
      if (outcome.taken) return { allowed: true, headers };

      // Refused: the counts are those before this call, so an exhausted policy has remaining < 1.
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
    },

    close: () => counters.close(),
  };
}
