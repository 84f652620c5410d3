import { accessTokenSignedWith, parseAccessToken } from '../../domain/access-token.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import type { TenancyChange } from '../tenancy/announce-tenancy-change.js';

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

const INVALID = 'The access token is invalid';
const REVOKED = 'The access token has been revoked';
const EXPIRED = 'The access token has expired';

/**
 * Checks a signed access token (docs/design.md, Access tokens) with no database read on the hot
 * path: the signature against the instance-wide keys, then the in-process deny list (RFC 7009
 * revocations) and the application cache (a revoked application or retired secret ends its
 * tokens). All three are re-read at least every TOKEN_CACHE_TTL_MS and, with Redis, updated at
 * once by announcements; TOKEN_CACHE_TTL_MS=0 reads the deny list and application every time.
 */
export function createTokenVerifier(deps: ServiceDeps): TokenVerifier {
  const { cache } = deps;
  return {
    async verify(token, environment) {
      cache.listen();
      const parsed = parseAccessToken(token);
      if (!parsed) throw bearerError(INVALID);
      const key = await cache.signingKeys.find(parsed.claims.keyId);
      if (!key || !accessTokenSignedWith(parsed, key.key)) throw bearerError(INVALID);
      const { claims } = parsed;
      // A token of the other environment is as unknown here as a made-up one.
      if (claims.environment !== environment) throw bearerError(INVALID);
      if (claims.expiresAt <= deps.clock()) throw bearerError(EXPIRED);
      if (await cache.denials.isDenied(claims.tokenId)) throw bearerError(REVOKED);
      const found = await cache.applications.get(claims.applicationId);
      if (found?.application.status !== 'active' || found.application.environment !== claims.environment) {
        throw bearerError(INVALID);
      }
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
    },
    forget(change) {
      cache.apply(change);
    },
    close: () => cache.close(),
  };
}
