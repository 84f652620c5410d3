import { accessTokenSignedWith, parseAccessToken } from '../../domain/access-token.js';
import { insertTokenDenial } from '../../store/repositories/token-denials.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange, type TenancyChange } from '../tenancy/announce-tenancy-change.js';
import type { AuthenticatedClient } from './authenticate-client.js';

/**
 * RFC 7009 §2.1: a client revokes one of its own tokens. A token that is malformed, forged,
 * expired or issued to another application is left alone and the call still succeeds (§2.2), so
 * the answer tells a caller nothing about tokens that are not its own. A deny entry is written
 * that lives until the token would have expired, and announced to every instance.
 * Returns what was revoked, for the caller's own caches, or null.
 */
export async function revokeAccessToken(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; token: string },
): Promise<TenancyChange | null> {
  const parsed = parseAccessToken(input.token);
  if (!parsed) return null;
  const key = await deps.cache.signingKeys.find(parsed.claims.keyId);
  if (!key || !accessTokenSignedWith(parsed, key.key)) return null;
  const { claims } = parsed;
  const { application } = input.client;
  if (
    claims.applicationId !== application.id ||
    claims.environment !== application.environment ||
    claims.expiresAt <= deps.clock()
  ) {
    return null;
  }
  await insertTokenDenial(deps.store.db, {
    token_id: claims.tokenId,
    application_id: claims.applicationId,
    expires_at: claims.expiresAt,
  });
  const change = { denied: { tokenId: claims.tokenId, expiresAt: claims.expiresAt } };
  await announceTenancyChange(deps, change);
  return change;
}
