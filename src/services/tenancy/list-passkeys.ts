import type { Kysely } from 'kysely';
import { mentionsSecretCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import { findPasskeyListing, type PasskeyListing, pagePasskeys } from '../../store/repositories/passkeys.js';
import type { Database } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';
import { type Page, type PageRequest, readPage } from '../paging/read-page.js';

export type { PasskeyListing };

export const PASSKEY_VALUE_NOT_ID = 'that is a passkey value, not its id; `rpa passkeys list` shows the ids';

/**
 * One environment's passkeys, oldest first, a page at a time; one application's when named. Keys
 * themselves are never kept, only their hints.
 */
export function listPasskeys(
  deps: ServiceDeps,
  input: { environment: Environment; applicationId?: string | undefined } & PageRequest,
): Promise<Page<PasskeyListing>> {
  return readPage(
    input,
    (after, limit) => pagePasskeys(deps.store.db, input, after, limit),
    (p) => ({ at: p.createdAt, id: p.id }),
  );
}

/** A passkey by id, with when it was last used. */
export function findPasskey(
  deps: ServiceDeps,
  input: { passkeyId: string; environment: Environment },
): Promise<PasskeyListing> {
  return requirePasskey(deps.store.db, input.passkeyId, input.environment);
}

/**
 * The passkey an operator names by id; one of another environment than the one named is not found,
 * as if it did not exist (docs/operations.md, Admin API). A passkey value in its place is refused
 * without being repeated, since the refusal may be logged.
 */
export async function requirePasskey(
  db: Kysely<Database>,
  passkeyId: string,
  environment?: Environment,
): Promise<PasskeyListing> {
  if (mentionsSecretCredential(passkeyId))
    throw new AppError('INVALID_REQUEST', { field: 'passkey', detail: PASSKEY_VALUE_NOT_ID });
  const found = await findPasskeyListing(db, passkeyId);
  if (!found || (environment !== undefined && found.environment !== environment))
    throw new AppError('NOT_FOUND', {
      field: 'passkey',
      detail: `no passkey ${JSON.stringify(passkeyId.slice(0, 100))}${environment ? ` in ${environment}` : ''}`,
    });
  return found;
}
