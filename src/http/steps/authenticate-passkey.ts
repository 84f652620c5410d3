import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { PasskeyApi } from '../../domain/passkey.js';
import { AppError } from '../../errors.js';
import { findActivePasskey } from '../../services/tenancy/find-active-passkey.js';
import { requirePrincipal } from '../acting-application.js';
import type { HttpDeps } from '../http-deps.js';
import { finishStep } from './finish-step.js';
import { nulDetail } from './refuse-nul-characters.js';

function passkeyProblem(value: unknown): string {
  if (Array.isArray(value)) return 'the passkey query parameter must be given once';
  // Refused like a NUL anywhere else in a request, before the preValidation step that checks the rest.
  if (typeof value === 'string' && value !== '') return nulDetail('passkey');
  return 'the passkey query parameter is required';
}

/**
 * docs/interface.md §5.6: the Response and Privacy endpoints also require the `passkey` query
 * parameter. A passkey in the cache is answered within this turn of the event loop, like a bearer
 * token checked before (steps/authenticate-bearer.ts).
 */
export function authenticatePasskey(deps: HttpDeps, api: PasskeyApi) {
  return function authenticatePasskey(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const value = (request.query as Record<string, unknown> | undefined)?.passkey;
    if (typeof value !== 'string' || value === '' || value.includes('\u0000')) {
      throw new AppError('INVALID_QUERY_PARAMETER', {
        field: 'passkey',
        detail: passkeyProblem(value),
        source: { parameter: 'passkey' },
      });
    }
    const principal = requirePrincipal(request);
    finishStep(
      findActivePasskey(deps, { value, principal, api }),
      (found) => (request.passkey = found),
      done,
    );
  };
}
