import type { AccessTokenClaims } from '../../domain/access-token.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { type MaybePromise, whenReady } from '../maybe-promise.js';
import type { TenancyChange } from '../tenancy/announce-tenancy-change.js';
import type { TenancyCache } from '../tenancy/create-tenancy-cache.js';
import { createVerifiedTokens } from './create-verified-tokens.js';

/** The application an access token was issued to. */
export interface Principal {
  readonly applicationId: string;
  readonly applicationName: string;
  readonly clientId: string;
  readonly environment: Environment;
  /** Names this token alone (RFC 7009 revocation). */
  readonly tokenId: string;
  readonly expiresAt: number;
}

export interface TokenVerifier {
  /**
   * The application behind a bearer token: at once for a token checked before when every check
   * can be made in memory, otherwise a promise. A refusal (INVALID_TOKEN) always comes as a
   * rejected promise, never thrown.
   */
  verify(token: string, environment: Environment): MaybePromise<Principal>;
  /** Applies a change made by this process at once (e.g. a revocation answered here). */
  forget(change: TenancyChange): void;
}

const bearerError = (description: string) =>
  new AppError('INVALID_TOKEN', {
    detail: description,
    // RFC 6750 §3: the challenge names the error when a token was presented.
    headers: {
      'www-authenticate': `Bearer realm="api", error="invalid_token", error_description="${description}"`,
    },
  });

const INVALID = 'The access token is invalid';
const REVOKED = 'The access token has been revoked';
const EXPIRED = 'The access token has expired';

type FoundApplication = Awaited<ReturnType<TenancyCache['applications']['get']>>;

/** An application that is active in the token's environment (its secret is checked apart). */
function acceptedBy(
  found: FoundApplication,
  claims: AccessTokenClaims,
): found is NonNullable<FoundApplication> {
  return found?.application.status === 'active' && found.application.environment === claims.environment;
}

/** The last check: the application behind the token, which must accept it. */
function principalOf(found: FoundApplication, claims: AccessTokenClaims): Principal {
  if (!acceptedBy(found, claims)) throw bearerError(INVALID);
  // Retiring the secret a token was obtained with ends the token.
  if (!found.activeSecretIds.includes(claims.secretId)) throw bearerError(REVOKED);
  return {
    applicationId: found.application.id,
    applicationName: found.application.name,
    clientId: found.application.clientId,
    environment: claims.environment,
    tokenId: claims.tokenId,
    expiresAt: claims.expiresAt,
  };
}

/** After the signature: the deny list, then the application, which must accept the token. */
function notDenied(cache: TenancyCache, claims: AccessTokenClaims, denied: boolean): MaybePromise<Principal> {
  if (denied) throw bearerError(REVOKED);
  const found = cache.applications.get(claims.applicationId);
  return whenReady(found, (f) => principalOf(f, claims));
}

/**
 * Checks a signed access token (docs/design.md, Access tokens) with no database read on the hot
 * path: the signature against the instance-wide keys, then the in-process deny list (RFC 7009
 * revocations) and the application cache (a revoked application or retired secret ends its
 * tokens). All three are re-read at least every TOKEN_CACHE_TTL_MS and, with Redis, updated at
 * once by announcements; TOKEN_CACHE_TTL_MS=0 reads the deny list and application every time.
 * The deny list and the application are consulted on every call, a remembered signature is not.
 * It holds nothing to close: the tenancy cache it reads is `deps.cache`, which its maker closes.
 */
export function createTokenVerifier(deps: ServiceDeps): TokenVerifier {
  const { cache } = deps;
  const tokens = createVerifiedTokens(cache.signingKeys);

  function admitted(
    token: string,
    environment: Environment,
    claims: AccessTokenClaims | null,
  ): MaybePromise<Principal> {
    if (!claims) throw bearerError(INVALID);
    // A token of the other environment is as unknown here as a made-up one.
    if (claims.environment !== environment) throw bearerError(INVALID);
    if (claims.expiresAt <= deps.clock()) {
      tokens.forget(token);
      throw bearerError(EXPIRED);
    }
    const denied = cache.denials.isDenied(claims.tokenId);
    return whenReady(denied, (d) => notDenied(cache, claims, d));
  }

  return {
    verify(token, environment) {
      cache.listen();
      try {
        return whenReady(tokens.signedClaims(token), (c) => admitted(token, environment, c));
      } catch (err) {
        return Promise.reject(err);
      }
    },
    forget(change) {
      cache.apply(change);
    },
  };
}
