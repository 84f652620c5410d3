import { newTokenId, signAccessToken } from '../../domain/access-token.js';
import type { ServiceDeps } from '../deps.js';
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
 * signing key. Nothing is written; the token is returned once and never kept.
 */
export async function issueAccessToken(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; scope: string; expiresIn?: number },
): Promise<IssuedAccessToken> {
  return signedWith(deps, input, await deps.cache.signingKeys.current());
}

/** issueAccessToken with the signing key held in memory, or undefined when the keys must be read. */
export function issueAccessTokenHeld(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; scope: string; expiresIn?: number },
): IssuedAccessToken | undefined {
  const key = deps.cache.signingKeys.currentHeld();
  return key && signedWith(deps, input, key);
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
