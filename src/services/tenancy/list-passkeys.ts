import type { Passkey } from '../../domain/passkey.js';
import { listPasskeys as selectPasskeys } from '../../store/repositories/passkeys.js';
import type { ServiceDeps } from '../deps.js';

/** Passkeys, oldest first; one application's when named. Keys themselves are never kept. */
export async function listPasskeys(deps: ServiceDeps, input: { applicationId?: string }): Promise<Passkey[]> {
  return selectPasskeys(deps.store.db, input.applicationId);
}
