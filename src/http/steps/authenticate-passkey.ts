import type { FastifyRequest } from 'fastify';
import type { PasskeyApi } from '../../domain/passkey.js';
import { AppError } from '../../errors.js';
import { findActivePasskey } from '../../services/tenancy/find-active-passkey.js';
import type { HttpDeps } from '../http-deps.js';
import { nulDetail } from './refuse-nul-characters.js';

function passkeyProblem(value: unknown): string {
  if (Array.isArray(value)) return 'the passkey query parameter must be given once';
  // Refused like a NUL anywhere else in a request, before the preValidation step that checks the rest.
  if (typeof value === 'string' && value !== '') return nulDetail('passkey');
  return 'the passkey query parameter is required';
}

/** docs/interface.md §5.6: the Response and Privacy endpoints also require the `passkey` query parameter. */
export function authenticatePasskey(deps: HttpDeps, api: PasskeyApi) {
  return async function authenticatePasskey(request: FastifyRequest): Promise<void> {
    const value = (request.query as Record<string, unknown> | undefined)?.passkey;
    if (typeof value !== 'string' || value === '' || value.includes('\u0000')) {
      throw new AppError('INVALID_QUERY_PARAMETER', {
        field: 'passkey',
        detail: passkeyProblem(value),
        source: { parameter: 'passkey' },
      });
    }
    if (!request.principal) throw new AppError('UNAUTHORIZED');
    request.passkey = await findActivePasskey(deps, { value, principal: request.principal, api });
  };
}
