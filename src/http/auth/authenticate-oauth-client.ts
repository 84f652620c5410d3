import type { FastifyRequest } from 'fastify';
import { isAppError } from '../../errors.js';
import { type AuthenticatedClient, authenticateClient } from '../../services/auth/authenticate-client.js';
import type { HttpDeps } from '../http-deps.js';
import type { RouteRequest } from '../route-request.js';
import type * as S from './auth-schemas.js';
import { invalidClient, readClientCredentials } from './client-credentials.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The OAuth client authenticated by the token and revocation endpoints. */
    oauthClient: AuthenticatedClient | null;
  }
}

/** The authenticated client of a request that ran authenticateOAuthClient. */
export function oauthClientOf(request: FastifyRequest): AuthenticatedClient {
  if (!request.oauthClient) throw new Error('authenticateOAuthClient did not run for this route');
  return request.oauthClient;
}

/**
 * Client authentication for the token and revocation endpoints, behind the brute-force throttle:
 * a client id or source address with too many recent failures is refused (429) before its
 * secret is even compared; each failure is counted against both, a success clears the client's.
 */
export function authenticateOAuthClient(deps: HttpDeps) {
  return async function authenticateOAuthClient(
    request: RouteRequest<typeof S.AuthenticateClient>,
  ): Promise<void> {
    const presented = readClientCredentials(request.headers.authorization, request.body);
    await deps.authThrottle.assertAllowed(presented.clientId, request.ip);
    try {
      request.oauthClient = await authenticateClient(deps, {
        environment: request.site.environment,
        clientId: presented.clientId,
        clientSecret: presented.clientSecret,
      });
    } catch (err) {
      if (!isAppError(err) || err.code !== 'INVALID_CLIENT') throw err;
      await deps.authThrottle.recordFailure(presented.clientId, request.ip);
      // One answer for an unknown client and a wrong secret (docs/design.md, Token service).
      throw invalidClient('client authentication failed');
    }
    await deps.authThrottle.recordSuccess(presented.clientId);
  };
}
