import { insertAuditEvents } from '../../store/repositories/audit-events.js';
import { markCompactionOwed } from '../../store/repositories/privacy-compactions.js';
import { deleteExpiredExports } from '../../store/repositories/privacy-exports.js';
import {
  deleteCompletedRequests,
  findCompletedRequestsBefore,
} from '../../store/repositories/privacy-request-completions.js';
import { inTransaction } from '../../store/transaction.js';
import type { ServiceDeps } from '../deps.js';
import { DEFAULT_PURGE_BOUNDS, type PurgeBounds, purgeInBatches } from '../purge-in-batches.js';
import { purgeEvent } from './privacy-request-events.js';

const DAY_MS = 86_400_000;

/**
 * Housekeeping: exports are personal data and go when their download period ends; completed
 * requests go PRIVACY_RETENTION_DAYS after completion (GDPR Art. 5(1)(e), storage limitation; the
 * public system keeps them 90 days). Each leaves its receipt in the audit trail, which holds no
 * personal data, so what was done stays provable after the request is gone. Pending requests are
 * never purged: they still owe the subject an answer. Bounded: at most `maxBatches` transactions
 * of `batchSize` rows a pass. The caller owes a scrub of the freed pages when anything was purged
 * (scrubFreedPages; the worker paces and retries it).
 */
export async function purgePrivacyData(
  deps: ServiceDeps,
  bounds: PurgeBounds = DEFAULT_PURGE_BOUNDS,
): Promise<{ exports: number; requests: number }> {
  const purged = { exports: 0, requests: 0 };
  const cutoff = () => deps.clock() - deps.config.privacy.retentionDays * DAY_MS;
  await purgeInBatches(bounds, async () => {
    const done = await inTransaction(deps.store.db, async (trx) => {
      await deps.store.useBackgroundDeadline(trx);
      const now = deps.clock();
      const exports = await deleteExpiredExports(trx, now, bounds.batchSize);
      const expired = await findCompletedRequestsBefore(trx, cutoff(), bounds.batchSize);
      await insertAuditEvents(
        trx,
        expired.map((r) => purgeEvent(r, now)),
      );
      const requests = await deleteCompletedRequests(
        trx,
        expired.map((r) => r.id),
      );
      // The deleted rows stay in PostgreSQL's table files until the tables are rewritten.
      if (exports > 0 || requests > 0) await markCompactionOwed(trx, now);
      return { exports, requests };
    });
    purged.exports += done.exports;
    purged.requests += done.requests;
    return Math.max(done.exports, done.requests);
  });
  return purged;
}
