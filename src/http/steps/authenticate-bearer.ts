import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { HttpDeps } from '../http-deps.js';

const BEARER_RE = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * RFC 6750 §2.1 / §3: the token comes in `Authorization: Bearer`; without one the answer is 401
 * with a bare challenge, with a bad one 401 with error="invalid_token".
 */
export function authenticateBearer(deps: HttpDeps) {
  return async function authenticateBearer(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? BEARER_RE.exec(header) : null;
    if (!match) {
      throw new AppError('UNAUTHORIZED', {
        headers: { 'www-authenticate': 'Bearer realm="api"' },
        ...(header ? { detail: 'The Authorization header must be "Bearer <access token>"' } : {}),
      });
    }
    request.principal = await deps.tokens.verify(match[1] as string, request.site.environment);
  };
}
