import { retryAfterSeconds } from './reviews-api-error.js';

export interface RetryPolicy {
  /** Retries after a 429 or 503, beyond the first attempt. */
  readonly maxRetries: number;
  /** The longest wait for one retry, whatever Retry-After asks. */
  readonly maxWaitSeconds: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
}

/**
 * How long to wait before retry number `attempt` (0 first): what Retry-After asked (capped),
 * else an exponential backoff from half a second, plus up to one second of jitter so clients
 * refused together do not come back together. Never less than the server asked.
 */
function retryDelayMs(retryAfter: number | undefined, attempt: number, policy: RetryPolicy): number {
  const base = Math.min(retryAfter ?? 0.5 * 2 ** attempt, policy.maxWaitSeconds) * 1000;
  return base + policy.random() * Math.min(base, 1000);
}

/**
 * `fetch` that tries again when the API is over a limit (429) or briefly unavailable (503), as
 * its answers ask (RFC 6585 §4, RFC 9110 §15.6.4), at most `maxRetries` times. The last answer
 * is returned as it is, for the caller to turn into an error.
 */
export function retryingFetch(fetch: (request: Request) => Promise<Response>, policy: RetryPolicy) {
  return async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(request.clone());
      if ((response.status !== 429 && response.status !== 503) || attempt >= policy.maxRetries)
        return response;
      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'), policy.now());
      await response.body?.cancel();
      await policy.sleep(retryDelayMs(retryAfter, attempt, policy));
    }
  };
}
