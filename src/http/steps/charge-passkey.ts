import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { LimitedApi } from '../../services/metrics/create-metrics.js';
import type { HttpDeps } from '../http-deps.js';

/**
 * docs/interface.md §8: every call made with a passkey counts against its rate limit and quota. Runs after
 * authentication, so a request with a bad token or passkey never consumes anyone's allowance.
 */
export function chargePasskey(deps: HttpDeps, api: LimitedApi) {
  const { metrics } = deps;
  return async function chargePasskey(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!request.passkey) return;
    let decision: Awaited<ReturnType<typeof deps.limiter.consume>>;
    try {
      decision = await deps.limiter.consume(request.passkey);
    } catch (err) {
      // The shared counters could not be reached and RATE_LIMIT_FAIL_MODE is closed: 503.
      metrics.limitDecided(api, 'unavailable');
      throw err;
    }
    metrics.limitDecided(api, decision.allowed ? 'allowed' : 'refused');
    reply.headers(decision.headers);
    if (!decision.allowed) {
      throw new AppError(decision.exceeded === 'quota' ? 'QUOTA_EXCEEDED' : 'RATE_LIMITED', {
        headers: { ...decision.headers, 'retry-after': String(decision.retryAfterSeconds ?? 1) },
      });
    }
  };
}
