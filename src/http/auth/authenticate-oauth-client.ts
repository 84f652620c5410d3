import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { isAppError } from '../../errors.js';
import { type AuthenticatedClient, authenticateClient } from '../../services/auth/authenticate-client.js';
import type { AuthAttempt } from '../../services/auth/create-auth-failure-throttle.js';
import { isPromise, type MaybePromise, whenReady } from '../../services/maybe-promise.js';
import type { Metrics } from '../../services/metrics/create-metrics.js';
import type { HttpDeps } from '../http-deps.js';
import type { RouteRequest } from '../route-request.js';
import { finishStep } from '../steps/finish-step.js';
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

type ClientInput = Parameters<typeof authenticateClient>[1];

/** The verdict, at once when the credentials are cached. */
function verdictOf(deps: HttpDeps, input: ClientInput): MaybePromise<Verdict> {
  let client: MaybePromise<AuthenticatedClient>;
  try {
    client = authenticateClient(deps, input);
  } catch (error) {
    return { error };
  }
  return isPromise(client)
    ? client.then(
        (c) => ({ client: c }),
        (error: unknown) => ({ error }),
      )
    : { client };
}

/** Counts the throttle's refusals; its 503s are the token endpoint's limit outage answers. */
function throttled(metrics: Metrics, err: unknown): void {
  if (!isAppError(err)) return;
  if (err.status === 429) metrics.clientAuthFailed('throttled');
  else if (err.code === 'SERVICE_UNAVAILABLE') metrics.limitDecided('auth', 'unavailable');
}

/** `then()` once the throttle has settled the attempt, at once when it did so in this turn. */
function after<T>(metrics: Metrics, settle: () => MaybePromise<void>, then: () => T): MaybePromise<T> {
  let settling: MaybePromise<void>;
  try {
    settling = settle();
  } catch (err) {
    throttled(metrics, err);
    throw err;
  }
  if (!isPromise(settling)) return then();
  return settling.then(then, (err: unknown) => {
    throttled(metrics, err);
    throw err;
  });
}

/** The client, or the answer's error thrown, once the throttle has counted the verdict. */
function conclude(
  metrics: Metrics,
  attempt: AuthAttempt,
  verdict: Verdict,
): MaybePromise<AuthenticatedClient> {
  if ('client' in verdict) return after(metrics, attempt.succeeded, () => verdict.client);
  const err = verdict.error;
  if (isAppError(err) && err.code === 'UNAUTHORIZED_CLIENT') {
    return after(metrics, attempt.unauthorized, () => {
      metrics.clientAuthFailed('revoked_application');
      throw err;
    });
  }
  // Not a verdict on the secret (the store failed, say): nothing is counted.
  if (!isAppError(err) || err.code !== 'INVALID_CLIENT') throw err;
  return after(metrics, attempt.failed, () => {
    metrics.clientAuthFailed('invalid_credentials');
    // One answer for an unknown client and a wrong secret (docs/design.md, Token service).
    throw invalidClient('client authentication failed');
  });
}

/**
 * Client authentication for the token and revocation endpoints, behind the brute-force throttle
 * (docs/design.md, Token service): the presented secret is checked, and the verdict is answered
 * only once the throttle has counted it (a wrong secret as a failure; a right one clears the
 * client id's failures from that address), or refused with 429 when the address, or the client id
 * from it, has no failure left at these endpoints, whatever the secret was. The address is the
 * caller's as the listener's trusted proxies name it (proxy-trust.ts).
 *
 * When the throttle's counters and the client's credentials are both in this process's memory,
 * the step finishes within the request's turn of the event loop, like the bearer check
 * (steps/authenticate-bearer.ts); otherwise it waits for what it must.
 */
export function authenticateOAuthClient(deps: HttpDeps) {
  const { metrics } = deps;
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
    let attempt: AuthAttempt;
    try {
      attempt = deps.authThrottle.attempt('token', presented.clientId, request.ip);
    } catch (err) {
      throttled(metrics, err);
      throw err;
    }
    const verdict = verdictOf(deps, {
      environment: request.site.environment,
      clientId: presented.clientId,
      clientSecret: presented.clientSecret,
    });
    const client = whenReady(verdict, (settled) => conclude(metrics, attempt, settled));
    finishStep(client, (found) => (request.oauthClient = found), done);
  };
}
