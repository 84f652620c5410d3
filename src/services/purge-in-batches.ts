export interface PurgeBounds {
  /** Rows one transaction deletes: short transactions hold no lock for long. */
  readonly batchSize: number;
  /** Transactions one pass runs at most; the next pass (a minute later) goes on where it stopped. */
  readonly maxBatches: number;
}

export const DEFAULT_PURGE_BOUNDS: PurgeBounds = Object.freeze({ batchSize: 500, maxBatches: 20 });

/**
 * Housekeeping's bounded deletion: runs `batch` until one deletes less than a full batch of each
 * kind it deletes (nothing is left), or `maxBatches` have run. `batch` returns the largest number
 * of rows it deleted of any one kind; the sum of those is returned (the rows deleted, when a batch
 * deletes one kind).
 */
export async function purgeInBatches(bounds: PurgeBounds, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let n = 0; n < bounds.maxBatches; n++) {
    const deleted = await batch();
    total += deleted;
    if (deleted < bounds.batchSize) break;
  }
  return total;
}
