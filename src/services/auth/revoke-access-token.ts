import { hashCredential } from '../../domain/credentials.js';
import {
  findAccessToken,
  revokeAccessToken as markTokenRevoked,
} from '../../store/repositories/access-tokens.js';
import type { ServiceDeps } from '../deps.js';
import { announceTokenRevocation, type TokenRevocation } from './announce-token-revocation.js';
import type { AuthenticatedClient } from './authenticate-client.js';

/**
 * RFC 7009 §2.1: a client revokes one of its own tokens. A token that is unknown, expired,
 * already revoked or issued to another application is left alone and the call still succeeds
 * (§2.2), so the answer tells a caller nothing about tokens that are not its own.
 * Returns what was revoked, for the caller's own token cache, or null.
 */
export async function revokeAccessToken(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; token: string },
): Promise<TokenRevocation | null> {
  const tokenHash = hashCredential(input.token);
  const row = await findAccessToken(deps.store.db, tokenHash);
  const { application } = input.client;
  if (!row || row.application_id !== application.id || row.environment !== application.environment) {
    return null;
  }
  if (row.revoked_at === null) await markTokenRevoked(deps.store.db, tokenHash, deps.clock());
  const revocation = { tokenHash };
  await announceTokenRevocation(deps, revocation);
  return revocation;
}
