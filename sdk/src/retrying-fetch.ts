import { retryAfterSeconds } from './reviews-api-error.js';

interface RetryPolicy {
  /** Retries after a 429 or 503, beyond the first attempt. */
  readonly maxRetries: number;
  /** The longest wait for one retry, whatever Retry-After asks. */
  readonly maxWaitSeconds: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
}

/** How a client retries and what it runs on: each option for tests and other runtimes. */
export interface RetryOptions {
  /** Retries after 429 or 503 (default 2), each waiting what Retry-After asks plus jitter. */
  readonly maxRetries?: number;
  /** The longest wait before one retry, in seconds (default 60). */
  readonly maxWaitSeconds?: number;
  readonly fetch?: (request: Request) => Promise<Response>;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/** The fetch a client sends with, retrying as `options` say. */
export function sendingFetch(options: RetryOptions): (request: Request) => Promise<Response> {
  return retryingFetch(options.fetch ?? ((request) => fetch(request)), {
    maxRetries: options.maxRetries ?? 2,
    maxWaitSeconds: options.maxWaitSeconds ?? 60,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: options.random ?? Math.random,
  });
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
function retryingFetch(fetch: (request: Request) => Promise<Response>, policy: RetryPolicy) {
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
