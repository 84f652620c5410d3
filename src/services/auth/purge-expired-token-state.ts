import { deleteExpiredTokenDenials } from '../../store/repositories/token-denials.js';
import { deleteRetiredSigningKeys } from '../../store/repositories/token-signing-keys.js';
import type { ServiceDeps } from '../deps.js';
import { DEFAULT_PURGE_BOUNDS, type PurgeBounds } from '../privacy/purge-privacy-data.js';

/**
 * Housekeeping of what token checks no longer need: deny entries of revoked tokens that have
 * expired on their own (RFC 7009 only asks that a revoked token stay refused while it would have
 * been valid) and signing keys past retirement, which can verify nothing. Bounded like the privacy
 * purge: `maxBatches` deletes of `batchSize` entries a pass.
 */
export async function purgeExpiredTokenState(
  deps: Pick<ServiceDeps, 'store' | 'clock'>,
  bounds: PurgeBounds = DEFAULT_PURGE_BOUNDS,
): Promise<{ tokenDenials: number; signingKeys: number }> {
  let tokenDenials = 0;
  for (let batch = 0; batch < bounds.maxBatches; batch++) {
    const deleted = await deleteExpiredTokenDenials(deps.store.db, deps.clock(), bounds.batchSize);
    tokenDenials += deleted;
    if (deleted < bounds.batchSize) break;
  }
  const signingKeys = await deleteRetiredSigningKeys(deps.store.db, deps.clock());
  return { tokenDenials, signingKeys };
}
