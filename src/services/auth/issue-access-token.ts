import { generateCredential, hashCredential } from '../../domain/credentials.js';
import { insertAccessToken } from '../../store/repositories/access-tokens.js';
import type { ServiceDeps } from '../deps.js';
import type { AuthenticatedClient } from './authenticate-client.js';

export interface IssuedAccessToken {
  readonly accessToken: string;
  /** Epoch milliseconds (docs/interface.md §10.4: clients compute `expires_at - Date.now()`). */
  readonly expiresAt: number;
  readonly expiresIn: number;
  readonly scope: string;
}

/**
 * Issues an opaque bearer token (256 random bits) for an authenticated client. Only its hash is
 * stored, with the application, environment and secret it is bound to; the value itself is
 * returned once and never kept.
 */
export async function issueAccessToken(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; scope: string },
): Promise<IssuedAccessToken> {
  const { application, secretId } = input.client;
  const accessToken = generateCredential('accessToken');
  const now = deps.clock();
  const expiresIn = deps.config.tokenTtlSeconds;
  const expiresAt = now + expiresIn * 1000;
  // Shares its commit with concurrent token and counter writes on SQLite (store/group-commit.ts).
  await deps.store.groupCommit((trx) =>
    insertAccessToken(trx, {
      token_hash: hashCredential(accessToken),
      application_id: application.id,
      environment: application.environment,
      secret_id: secretId,
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
    }),
  );
  return { accessToken, expiresAt, expiresIn, scope: input.scope };
}
