import { newTokenId, signAccessToken } from '../../domain/access-token.js';
import type { ServiceDeps } from '../deps.js';
import { type MaybePromise, whenReady } from '../maybe-promise.js';
import type { AuthenticatedClient } from './authenticate-client.js';
import type { SigningKey } from './create-signing-keys.js';

export interface IssuedAccessToken {
  readonly accessToken: string;
  /** Epoch milliseconds (docs/interface.md §10.4: clients compute `expires_at - Date.now()`). */
  readonly expiresAt: number;
  readonly expiresIn: number;
  readonly scope: string;
}

/**
 * Issues a signed bearer token for an authenticated client (docs/design.md, Access tokens): the
 * application, environment, secret, expiry and a random token id under an HMAC with the newest
 * signing key. Nothing is written; the token is returned once and never kept. Signed at once when
 * the signing key is in memory.
 */
export function issueAccessToken(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; scope: string; expiresIn?: number },
): MaybePromise<IssuedAccessToken> {
  const key = deps.cache.signingKeys.current();
  return whenReady(key, (k) => signedWith(deps, input, k));
}

function signedWith(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; scope: string; expiresIn?: number },
  key: SigningKey,
): IssuedAccessToken {
  const { application, secretId } = input.client;
  const expiresIn = input.expiresIn ?? deps.config.tokenTtlSeconds;
  const expiresAt = deps.clock() + expiresIn * 1000;
  const accessToken = signAccessToken(
    {
      keyId: key.id,
      applicationId: application.id,
      environment: application.environment,
      secretId,
      expiresAt,
      tokenId: newTokenId(),
    },
    key.key,
  );
  deps.metrics.tokenIssued();
  return { accessToken, expiresAt, expiresIn, scope: input.scope };
}
