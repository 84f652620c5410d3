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
 * Client authentication for the token and revocation endpoints, behind the brute-force throttle
 * (docs/design.md, Token service): an attempt is reserved against the source address, and the
 * client id from that address, before the secret is even compared (429 when either is used up);
 * a wrong secret keeps the reservation as its failure, a right one clears the client id's
 * failures from that address.
 */
export function authenticateOAuthClient(deps: HttpDeps) {
  return async function authenticateOAuthClient(
    request: RouteRequest<typeof S.AuthenticateClient>,
  ): Promise<void> {
    const { metrics } = deps;
    let presented: ReturnType<typeof readClientCredentials>;
    try {
      presented = readClientCredentials(request.headers.authorization, request.body);
    } catch (err) {
      metrics.clientAuthFailed('malformed');
      throw err;
    }
    let attempt: Awaited<ReturnType<typeof deps.authThrottle.reserve>>;
    try {
      attempt = await deps.authThrottle.reserve(presented.clientId, request.ip);
    } catch (err) {
      if (isAppError(err) && err.status === 429) metrics.clientAuthFailed('throttled');
      throw err;
    }
    let client: AuthenticatedClient;
    try {
      client = await authenticateClient(deps, {
        environment: request.site.environment,
        clientId: presented.clientId,
        clientSecret: presented.clientSecret,
      });
    } catch (err) {
      if (!isAppError(err) || err.code !== 'INVALID_CLIENT') {
        if (isAppError(err) && err.code === 'UNAUTHORIZED_CLIENT')
          metrics.clientAuthFailed('revoked_application');
        await attempt.abandoned();
        throw err;
      }
      metrics.clientAuthFailed('invalid_credentials');
      await attempt.failed();
      // One answer for an unknown client and a wrong secret (docs/design.md, Token service).
      throw invalidClient('client authentication failed');
    }
    await attempt.succeeded();
    request.oauthClient = client;
  };
}
