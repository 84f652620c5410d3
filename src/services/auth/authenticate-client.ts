import type { Application } from '../../domain/application.js';
import { credentialMatches, hashCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import { findApplicationByClientId, listActiveSecrets } from '../../store/repositories/applications.js';
import type { ServiceDeps } from '../deps.js';

export interface AuthenticatedClient {
  readonly application: Application;
  /** The secret that matched: tokens remember it, so retiring a leaked secret ends them. */
  readonly secretId: string;
}

// Compared against when the client is unknown, so both failures cost the same work.
const NO_SECRET_HASH = hashCredential('no client has this secret');

/**
 * RFC 6749 §2.3.1: checks a client id and secret in the environment of the request's host.
 * An unknown client, a client of the other environment and a wrong secret all fail with the
 * same INVALID_CLIENT, so a caller cannot tell which client ids exist. A revoked application is
 * told so (UNAUTHORIZED_CLIENT) only when its secret was right.
 */
export async function authenticateClient(
  deps: ServiceDeps,
  input: { environment: Environment; clientId: string; clientSecret: string },
): Promise<AuthenticatedClient> {
  const found = await findApplicationByClientId(deps.store.db, input.clientId);
  const application = found?.environment === input.environment ? found : undefined;
  const secrets = application ? await listActiveSecrets(deps.store.db, application.id) : [];
  // Every active secret is compared (two during a rotation), never stopping at the first match.
  let secretId: string | null = null;
  for (const secret of secrets) {
    if (credentialMatches(input.clientSecret, secret.secretHash)) secretId = secret.id;
  }
  if (secrets.length === 0) credentialMatches(input.clientSecret, NO_SECRET_HASH);
  if (!application || secretId === null) {
    throw new AppError('INVALID_CLIENT', { detail: 'client authentication failed' });
  }
  if (application.status !== 'active') {
    throw new AppError('UNAUTHORIZED_CLIENT', { detail: 'the application has been revoked' });
  }
  return { application, secretId };
}
