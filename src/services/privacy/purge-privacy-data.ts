import { markCompactionOwed } from '../../store/repositories/privacy-compactions.js';
import { deleteExpiredExports } from '../../store/repositories/privacy-exports.js';
import { deleteCompletedRequestsBefore } from '../../store/repositories/privacy-requests.js';
import type { ServiceDeps } from '../deps.js';
import { scrubFreedPages } from './scrub-freed-pages.js';

const DAY_MS = 86_400_000;

/**
 * Housekeeping: exports are personal data and go when their download period ends; completed
 * requests go after PRIVACY_RETENTION_DAYS (GDPR Art. 5(1)(e), storage limitation). Pending
 * requests are never purged: they still owe the subject an answer.
 */
export async function purgePrivacyData(deps: ServiceDeps): Promise<{ exports: number; requests: number }> {
  const now = deps.clock();
  const result = await deps.store.db.transaction().execute(async (trx) => {
    const purged = {
      exports: await deleteExpiredExports(trx, now),
      requests: await deleteCompletedRequestsBefore(trx, now - deps.config.privacy.retentionDays * DAY_MS),
    };
    // The deleted rows stay in PostgreSQL's table files until the tables are rewritten.
    if (purged.exports > 0 || purged.requests > 0) await markCompactionOwed(trx, now);
    return purged;
  });
  if (result.exports > 0 || result.requests > 0) await scrubFreedPages(deps);
  return result;
}
