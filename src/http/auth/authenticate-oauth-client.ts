import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { isAppError } from '../../errors.js';
import {
  type AuthenticatedClient,
  authenticateClient,
  authenticateClientHeld,
} from '../../services/auth/authenticate-client.js';
import type { AuthAttempt } from '../../services/auth/create-auth-failure-throttle.js';
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

/** What checking the presented secret came to: the client, or the error that refused it. */
type Verdict = { readonly client: AuthenticatedClient } | { readonly error: unknown };

/**
 * Client authentication for the token and revocation endpoints, behind the brute-force throttle
 * (docs/design.md, Token service): an attempt is reserved against the source address, and the
 * client id from that address, before the secret is even compared (429 when either is used up);
 * a wrong secret keeps the reservation as its failure, a right one clears the client id's
 * failures from that address.
 *
 * When the throttle's counters and the client's credentials are both in this process's memory,
 * the step finishes within the request's turn of the event loop, like the bearer check
 * (steps/authenticate-bearer.ts); otherwise it waits for what it must.
 */
export function authenticateOAuthClient(deps: HttpDeps) {
  const { metrics } = deps;

  /**
   * Settles the attempt by the verdict: the client, or the answer's error thrown, at once where the
   * throttle's counters are in this process, otherwise once the store has it.
   */
  function conclude(
    attempt: AuthAttempt,
    verdict: Verdict,
  ): AuthenticatedClient | Promise<AuthenticatedClient> {
    if ('client' in verdict) {
      const { client } = verdict;
      const settling = attempt.succeeded();
      return settling ? settling.then(() => client) : client;
    }
    const err = verdict.error;
    if (!isAppError(err) || err.code !== 'INVALID_CLIENT') {
      if (isAppError(err) && err.code === 'UNAUTHORIZED_CLIENT')
        metrics.clientAuthFailed('revoked_application');
      return refuse(attempt.abandoned(), err);
    }
    metrics.clientAuthFailed('invalid_credentials');
    // One answer for an unknown client and a wrong secret (docs/design.md, Token service).
    return refuse(attempt.failed(), invalidClient('client authentication failed'));
  }

  function reserveHeld(clientId: string, address: string): AuthAttempt | undefined {
    try {
      return deps.authThrottle.reserveHeld(clientId, address);
    } catch (err) {
      throttled(err);
      throw err;
    }
  }

  async function reserve(clientId: string, address: string): Promise<AuthAttempt> {
    try {
      return await deps.authThrottle.reserve(clientId, address);
    } catch (err) {
      throttled(err);
      throw err;
    }
  }

  function throttled(err: unknown): void {
    if (isAppError(err) && err.status === 429) metrics.clientAuthFailed('throttled');
  }

  /** The verdict from the cached credentials, or undefined when they must be loaded. */
  function heldVerdict(input: Parameters<typeof authenticateClient>[1]): Verdict | undefined {
    try {
      const client = authenticateClientHeld(deps, input);
      return client && { client };
    } catch (error) {
      return { error };
    }
  }

  async function check(input: Parameters<typeof authenticateClient>[1]): Promise<Verdict> {
    try {
      return { client: await authenticateClient(deps, input) };
    } catch (error) {
      return { error };
    }
  }

  return function authenticateOAuthClient(
    request: RouteRequest<typeof S.AuthenticateClient>,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    let presented: ReturnType<typeof readClientCredentials>;
    try {
      presented = readClientCredentials(request.headers.authorization, request.body);
    } catch (err) {
      metrics.clientAuthFailed('malformed');
      throw err;
    }
    const input = {
      environment: request.site.environment,
      clientId: presented.clientId,
      clientSecret: presented.clientSecret,
    };
    const authenticated = (client: AuthenticatedClient) => {
      request.oauthClient = client;
      done();
    };
    const attempt = reserveHeld(presented.clientId, request.ip);
    const verdict = attempt && heldVerdict(input);
    if (attempt && verdict) {
      const client = conclude(attempt, verdict);
      if (client instanceof Promise) client.then(authenticated, done);
      else authenticated(client);
      return;
    }
    // Whatever memory could not answer is waited for: the reservation, the credentials, or both.
    (attempt ? Promise.resolve(attempt) : reserve(presented.clientId, request.ip))
      .then(async (reserved) => conclude(reserved, await check(input)))
      .then(authenticated, done);
  };
}

/** Throws `err`, once `settling` is done when there is something to wait for. */
function refuse(settling: Promise<void> | undefined, err: unknown): Promise<never> {
  if (!settling) throw err;
  return settling.then(() => {
    throw err;
  });
}
