import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../errors.js';
import type { LimitDecision } from '../../services/limits/limit-decision.js';
import type { LimitedApi } from '../../services/metrics/create-metrics.js';
import type { HttpDeps } from '../http-deps.js';
import { finishStep } from './finish-step.js';

/**
 * docs/interface.md §8: every call made with a passkey counts against its rate limit and quota. Runs after
 * authentication, so a request with a bad token or passkey never consumes anyone's allowance.
 */
export function chargePasskey(deps: HttpDeps, api: LimitedApi) {
  const { metrics } = deps;
  /** Sets the limit fields on the answer; a refusal throws the answer's error. */
  const apply = (decision: LimitDecision, reply: FastifyReply): void => {
    metrics.limitDecided(api, decision.allowed ? 'allowed' : 'refused');
    reply.headers(decision.headers);
    if (!decision.allowed) {
      throw new AppError(decision.exceeded === 'quota' ? 'QUOTA_EXCEEDED' : 'RATE_LIMITED', {
        headers: { ...decision.headers, 'retry-after': String(decision.retryAfterSeconds ?? 1) },
      });
    }
  };
  // Allowance this instance holds is spent within this turn of the event loop (see
  // steps/authenticate-bearer.ts); only a renewal from the store is waited for.
  return function chargePasskey(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const passkey = request.passkey;
    if (!passkey) {
      done();
      return;
    }
    deps.passkeyUsage.used(passkey.id);
    finishStep(
      deps.limiter.consume(passkey),
      (decision) => apply(decision, reply),
      done,
      () =>
        // The shared counters could not be reached and RATE_LIMIT_FAIL_MODE is closed: 503.
        metrics.limitDecided(api, 'unavailable'),
    );
  };
}
