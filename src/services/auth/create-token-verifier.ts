import {
  type AccessTokenClaims,
  accessTokenSignedWith,
  parseAccessToken,
} from '../../domain/access-token.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { detachedKey } from '../detached-key.js';
import type { TenancyChange } from '../tenancy/announce-tenancy-change.js';
import type { SigningKey } from './create-signing-keys.js';

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
  /** Resolves the application behind a bearer token, or throws INVALID_TOKEN. */
  verify(token: string, environment: Environment): Promise<Principal>;
  /**
   * verify() answered from memory alone, for a token checked before: the principal, or undefined
   * when verify() must be asked (something is due for a re-read, or the token is refused; verify()
   * then names the reason).
   */
  verifyHeld(token: string, environment: Environment): Principal | undefined;
  /** Applies a change made by this process at once (e.g. a revocation answered here). */
  forget(change: TenancyChange): void;
  close(): Promise<void>;
}

const bearerError = (description: string) =>
  new AppError('INVALID_TOKEN', {
    detail: description,
    // RFC 6750 §3: the challenge names the error when a token was presented.
    headers: {
      'www-authenticate': `Bearer realm="api", error="invalid_token", error_description="${description}"`,
    },
  });

/** Like the tenancy caches' bound: enough for every live token of a busy instance. */
const VERIFIED_TOKENS_MAX = 10_000;

const INVALID = 'The access token is invalid';
const REVOKED = 'The access token has been revoked';
const EXPIRED = 'The access token has expired';

type FoundApplication = Awaited<ReturnType<ServiceDeps['cache']['applications']['get']>>;

/** An application that is active in the token's environment (its secret is checked apart). */
function acceptedBy(
  found: FoundApplication,
  claims: AccessTokenClaims,
): found is NonNullable<FoundApplication> {
  return found?.application.status === 'active' && found.application.environment === claims.environment;
}

function principalOf(found: NonNullable<FoundApplication>, claims: AccessTokenClaims): Principal {
  return {
    applicationId: found.application.id,
    applicationName: found.application.name,
    clientId: found.application.clientId,
    environment: claims.environment,
    tokenId: claims.tokenId,
    expiresAt: claims.expiresAt,
  };
}

/**
 * Checks a signed access token (docs/design.md, Access tokens) with no database read on the hot
 * path: the signature against the instance-wide keys, then the in-process deny list (RFC 7009
 * revocations) and the application cache (a revoked application or retired secret ends its
 * tokens). All three are re-read at least every TOKEN_CACHE_TTL_MS and, with Redis, updated at
 * once by announcements; TOKEN_CACHE_TTL_MS=0 reads the deny list and application every time.
 */
export function createTokenVerifier(deps: ServiceDeps): TokenVerifier {
  const { cache } = deps;
  /**
   * Tokens whose signature this process has checked, with the key object that checked it. A
   * client presents the same token on every call until it expires; decoding it and computing its
   * HMAC was a tenth of a Response API call's CPU (bench/results/history.md, GET author). An
   * entry counts only while the signing keys are the ones it was checked against: a re-read of the keys (every
   * TOKEN_CACHE_TTL_MS, on a rotation, on a retirement) makes new key objects, and the next call
   * checks the signature again. The deny list and the application are consulted on every call.
   */
  const verified = new Map<string, { readonly claims: AccessTokenClaims; readonly key: SigningKey }>();

  async function signedClaims(token: string): Promise<AccessTokenClaims | null> {
    const known = verified.get(token);
    if (known) {
      if ((await cache.signingKeys.find(known.claims.keyId)) === known.key) return known.claims;
      verified.delete(token);
    }
    const parsed = parseAccessToken(token);
    if (!parsed) return null;
    const key = await cache.signingKeys.find(parsed.claims.keyId);
    if (!key || !accessTokenSignedWith(parsed, key.key)) return null;
    // Oldest first when full: a Map keeps insertion order.
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value as string);
    // A copy: the token was cut from its request's Authorization header.
    verified.set(detachedKey(token), { claims: parsed.claims, key });
    return parsed.claims;
  }
  return {
    async verify(token, environment) {
      cache.listen();
      const claims = await signedClaims(token);
      if (!claims) throw bearerError(INVALID);
      // A token of the other environment is as unknown here as a made-up one.
      if (claims.environment !== environment) throw bearerError(INVALID);
      if (claims.expiresAt <= deps.clock()) {
        verified.delete(token);
        throw bearerError(EXPIRED);
      }
      if (await cache.denials.isDenied(claims.tokenId)) throw bearerError(REVOKED);
      const found = await cache.applications.get(claims.applicationId);
      if (!acceptedBy(found, claims)) throw bearerError(INVALID);
      // Retiring the secret a token was obtained with ends the token.
      if (!found.activeSecretIds.includes(claims.secretId)) throw bearerError(REVOKED);
      return principalOf(found, claims);
    },
    verifyHeld(token, environment) {
      cache.listen();
      const known = verified.get(token);
      if (!known || cache.signingKeys.findHeld(known.claims.keyId) !== known.key) return undefined;
      const { claims } = known;
      if (claims.environment !== environment || claims.expiresAt <= deps.clock()) return undefined;
      if (cache.denials.isDeniedHeld(claims.tokenId) !== false) return undefined;
      const found = cache.applications.peek(claims.applicationId)?.value;
      if (!acceptedBy(found, claims) || !found.activeSecretIds.includes(claims.secretId)) return undefined;
      return principalOf(found, claims);
    },
    forget(change) {
      cache.apply(change);
    },
    close: () => cache.close(),
  };
}
