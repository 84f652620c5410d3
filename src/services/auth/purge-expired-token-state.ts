import { deleteExpiredTokenDenials } from '../../store/repositories/token-denials.js';
import { deleteRetiredSigningKeys } from '../../store/repositories/token-signing-keys.js';
import type { ServiceDeps } from '../deps.js';
import { DEFAULT_PURGE_BOUNDS, type PurgeBounds, purgeInBatches } from '../purge-in-batches.js';

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
  const tokenDenials = await purgeInBatches(bounds, () =>
    deleteExpiredTokenDenials(deps.store.db, deps.clock(), bounds.batchSize),
  );
  const signingKeys = await deleteRetiredSigningKeys(deps.store.db, deps.clock());
  return { tokenDenials, signingKeys };
}
