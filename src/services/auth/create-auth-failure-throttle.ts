import { createHash } from 'node:crypto';
import { secondsUntil } from '../../domain/quota-policy.js';
import { AppError } from '../../errors.js';
import { type CounterStore, CounterStoreUnavailable } from '../../store/counters/counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { createCounterStore } from '../limits/create-counter-store.js';
import { createOutageWarning } from '../limits/create-outage-warning.js';

/**
 * Brute-force protection for client authentication (docs/design.md, Token service): after too many
 * failed attempts for one client id, or from one source address, further attempts are refused
 * with 429 and Retry-After until the window passes.
 */
export interface AuthFailureThrottle {
  /** Throws AppError TOO_MANY_FAILED_ATTEMPTS (with a Retry-After header) when blocked. */
  assertAllowed(clientId: string | null, address: string): Promise<void>;
  recordFailure(clientId: string | null, address: string): Promise<void>;
  /** A successful authentication clears the client id's failures (not the address's). */
  recordSuccess(clientId: string): Promise<void>;
}

const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Keys hold digests: client ids and addresses are caller-supplied and of any length. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 32);
}

const clientKey = (clientId: string) => `{af:client:${digest(clientId)}}`;
const addressKey = (address: string) => `{af:address:${digest(address)}}`;

/**
 * Brute-force protection of client authentication (docs/design.md, Token service; CWE-307):
 * AUTH_FAILURE_LIMIT failures per client id,
 * and separately per source address, within AUTH_FAILURE_WINDOW_SECONDS of the first failure
 * refuse further attempts with 429 and Retry-After until that window ends. Counters live with the
 * passkey limits' (Redis or the embedded store), so every instance sees every failure.
 *
 * Attempts already in flight when the limit is reached still complete: failures are counted when
 * they happen, not reserved ahead, so a burst may exceed the limit by its concurrency. Client
 * secrets are 256-bit random values; the throttle keeps guessing out of logs and CPU, it is not
 * what makes the secrets hard to guess.
 */
export async function createAuthFailureThrottle(deps: ServiceDeps): Promise<AuthFailureThrottle> {
  const counters: CounterStore = await createCounterStore(deps);
  const warnOutage = createOutageWarning(deps.logger, deps.clock, 'client authentication throttle');
  const { authFailureLimit: limit, authFailureWindowSeconds: windowSeconds, rateLimitFailMode } = deps.config;
  const keysOf = (clientId: string | null, address: string) =>
    clientId === null ? [addressKey(address)] : [clientKey(clientId), addressKey(address)];

  /** Recording is best effort: the attempt has been answered on its merits already. */
  async function record(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (err) {
      if (!(err instanceof CounterStoreUnavailable)) throw err;
      warnOutage(err, rateLimitFailMode);
    }
  }

  return {
    async assertAllowed(clientId, address) {
      const now = deps.clock();
      let states: Awaited<ReturnType<CounterStore['peek']>>[];
      try {
        states = await Promise.all(keysOf(clientId, address).map((key) => counters.peek(key, now)));
      } catch (err) {
        if (!(err instanceof CounterStoreUnavailable)) throw err;
        warnOutage(err, rateLimitFailMode);
        if (rateLimitFailMode === 'open') return;
        throw new AppError('SERVICE_UNAVAILABLE', {
          detail: 'client authentication cannot be checked right now',
          headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
        });
      }
      const blocked = states.filter((s) => s.hits >= limit);
      if (blocked.length === 0) return;
      const seconds = Math.max(1, ...blocked.map((s) => secondsUntil(s.windowEnd, now)));
      throw new AppError('TOO_MANY_FAILED_ATTEMPTS', { headers: { 'retry-after': String(seconds) } });
    },

    async recordFailure(clientId, address) {
      const now = deps.clock();
      // One take per key: the client and the address are unrelated counters (and, in a Redis
      // Cluster, may live on different nodes).
      await record(() =>
        Promise.all(
          keysOf(clientId, address).map((key) =>
            counters.take([{ key, limit: null, freshWindowEnd: now + windowSeconds * 1000 }], now),
          ),
        ),
      );
    },

    async recordSuccess(clientId) {
      await record(() => counters.clear(clientKey(clientId)));
    },
  };
}
