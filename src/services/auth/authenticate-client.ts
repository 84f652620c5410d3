import { type Application, MAX_ACTIVE_SECRETS } from '../../domain/application.js';
import {
  credentialMatches,
  hashCredential,
  presentedCredential,
  storedCredentialDigest,
} from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import type { ApplicationCredentials } from '../../store/repositories/applications.js';
import type { ServiceDeps } from '../deps.js';
import { type MaybePromise, whenReady } from '../maybe-promise.js';

export interface AuthenticatedClient {
  readonly application: Application;
  /** The secret that matched: tokens remember it, so retiring a leaked secret ends them. */
  readonly secretId: string;
}

// Stands in for the secrets a client does not have, so every check compares as many digests.
const NO_SECRET_DIGEST = storedCredentialDigest(hashCredential('no client has this secret'));

/**
 * RFC 6749 §2.3.1: checks a client id and secret in the environment of the request's host.
 * An unknown client, a client of the other environment and a wrong secret all fail with the
 * same INVALID_CLIENT, so a caller cannot tell which client ids exist. A revoked application is
 * told so (UNAUTHORIZED_CLIENT) only when its secret was right.
 *
 * Every check costs the same (docs/design.md, Token service: an unknown client id takes as long
 * as a wrong secret): one cached lookup that finds the application and its active secrets together
 * (unknown client ids are cached as such, so a miss costs one query either way), then
 * MAX_ACTIVE_SECRETS comparisons, padded with a digest no secret has, never stopping at a match.
 *
 * Answered at once when the credentials are cached, refusals thrown then; otherwise a promise.
 */
export function authenticateClient(
  deps: ServiceDeps,
  input: { environment: Environment; clientId: string; clientSecret: string },
): MaybePromise<AuthenticatedClient> {
  deps.cache.listen();
  const found = deps.cache.credentials.get(credentialsKey(input));
  return whenReady(found, (f) => checkClient(f, input.clientSecret));
}

const credentialsKey = (input: { environment: Environment; clientId: string }) =>
  `${input.environment}:${input.clientId}`;

/**
 * The digests each check compares the presented one with: the client's secrets, padded to
 * MAX_ACTIVE_SECRETS. Decoded once per cached credentials, not per request.
 */
const digestsOf = new WeakMap<ApplicationCredentials, readonly Buffer[]>();
const NO_CLIENT_DIGESTS: readonly Buffer[] = Array.from(
  { length: MAX_ACTIVE_SECRETS },
  () => NO_SECRET_DIGEST,
);

function comparedDigests(found: ApplicationCredentials | undefined): readonly Buffer[] {
  if (!found) return NO_CLIENT_DIGESTS;
  let digests = digestsOf.get(found);
  if (!digests) {
    const { secrets } = found;
    digests = Array.from({ length: Math.max(MAX_ACTIVE_SECRETS, secrets.length) }, (_, i) => {
      const secret = secrets[i];
      return secret ? storedCredentialDigest(secret.secretHash) : NO_SECRET_DIGEST;
    });
    digestsOf.set(found, digests);
  }
  return digests;
}

function checkClient(found: ApplicationCredentials | undefined, clientSecret: string): AuthenticatedClient {
  const secrets = found?.secrets ?? [];
  const presented = presentedCredential(clientSecret);
  const digests = comparedDigests(found);
  let secretId: string | null = null;
  for (let i = 0; i < digests.length; i += 1) {
    const matches = credentialMatches(presented, digests[i] as Buffer);
    const secret = secrets[i];
    if (matches && secret) secretId = secret.id;
  }
  if (!found || secretId === null) {
    throw new AppError('INVALID_CLIENT', { detail: 'client authentication failed' });
  }
  if (found.application.status !== 'active') {
    throw new AppError('UNAUTHORIZED_CLIENT', { detail: 'the application has been revoked' });
  }
  return { application: found.application, secretId };
}
