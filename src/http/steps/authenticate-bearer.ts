import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../errors.js';
import type { Principal } from '../../services/auth/create-token-verifier.js';
import { isPromise } from '../../services/maybe-promise.js';
import type { HttpDeps } from '../http-deps.js';
import { finishStep } from './finish-step.js';

/** RFC 6750 §2.1: `Bearer`, then the token as a b64token. */
export const BEARER_RE = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * RFC 6750 §2.1 / §3: the token comes in `Authorization: Bearer`; without one the answer is 401
 * with a bare challenge, with a bad one 401 with error="invalid_token".
 *
 * A token checked before is answered from memory within this turn of the event loop; only when
 * something must be read does the step wait. With a promise per step and an await per lookup,
 * this step, the passkey's and the charge took half as much CPU again (in a loop;
 * bench/results/history.md, GET author).
 */
export function authenticateBearer(deps: HttpDeps) {
  return function authenticateBearer(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const header = request.headers.authorization;
    const environment = request.site.environment;
    // What clients send: `Bearer`, one space, a token this instance has checked before. Only a
    // token the verifier remembers is answered here, so it is a b64token already; anything else
    // is read by the grammar below. The grammar's scan of a 230-character token was 1.5 % of an
    // author call's instructions (bench/instructions.ts).
    let checking: Promise<Principal> | undefined;
    if (typeof header === 'string' && header.startsWith('Bearer ')) {
      const principal = deps.tokens.verify(header.slice(7), environment);
      if (!isPromise(principal)) {
        request.principal = principal;
        done();
        return;
      }
      checking = principal;
    }
    const match = typeof header === 'string' ? BEARER_RE.exec(header) : null;
    // The check started above stands when the grammar reads the same token (one space, nothing after).
    const token = match?.[1];
    if (checking && token?.length !== (header as string).length - 7) {
      checking.catch(ignoreRefusal);
      checking = undefined;
    }
    if (token === undefined) {
      throw new AppError('UNAUTHORIZED', {
        headers: { 'www-authenticate': 'Bearer realm="api"' },
        ...(header ? { detail: 'The Authorization header must be "Bearer <access token>"' } : {}),
      });
    }
    const principal = checking ?? deps.tokens.verify(token, environment);
    finishStep(principal, (checked) => (request.principal = checked), done);
  };
}

/** A check started on what turned out not to be the token: its answer is not the request's. */
function ignoreRefusal(): void {}
