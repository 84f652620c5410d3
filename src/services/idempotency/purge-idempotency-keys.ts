import { idempotencyKeysExpiredAt } from '../../domain/idempotency-key.js';
import { deleteExpiredIdempotencyKeys } from '../../store/repositories/idempotency-keys.js';
import type { ServiceDeps } from '../deps.js';
import { DEFAULT_PURGE_BOUNDS, type PurgeBounds, purgeInBatches } from '../purge-in-batches.js';

/**
 * Housekeeping of Idempotency-Keys past their 24 hours: a retry that late creates anew, so the
 * answer kept for it (sealed, but it may hold a secret shown once) has no use left.
 */
export async function purgeIdempotencyKeys(
  deps: Pick<ServiceDeps, 'store' | 'clock'>,
  bounds: PurgeBounds = DEFAULT_PURGE_BOUNDS,
): Promise<number> {
  return purgeInBatches(bounds, () =>
    deleteExpiredIdempotencyKeys(deps.store.db, idempotencyKeysExpiredAt(deps.clock()), bounds.batchSize),
  );
}
