import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { HttpDeps } from '../http-deps.js';

/**
 * docs/interface.md §8: every call made with a passkey counts against its rate limit and quota. Runs after
 * authentication, so a request with a bad token or passkey never consumes anyone's allowance.
 */
export function chargePasskey(deps: HttpDeps) {
  return async function chargePasskey(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!request.passkey) return;
    const decision = await deps.limiter.consume(request.passkey);
    reply.headers(decision.headers);
    if (!decision.allowed) {
      throw new AppError(decision.exceeded === 'quota' ? 'QUOTA_EXCEEDED' : 'RATE_LIMITED', {
        headers: { ...decision.headers, 'retry-after': String(decision.retryAfterSeconds ?? 1) },
      });
    }
  };
}
