import { expressionBuilder, type Kysely } from 'kysely';
import type { Database, PrivacyRequestRow } from '../schema.js';
import { type LeaseClaim, workerLeases } from '../worker-leases.js';

// Worker leases on privacy requests: a claimed request belongs to one worker until its lease
// runs out, so a worker that dies only delays the request (docs/design.md, Privacy API).

const request = expressionBuilder<Database, 'privacy_requests'>();

const requestLeases = workerLeases({
  table: 'privacy_requests',
  pending: 'PENDING',
  order: request.ref('submitted_at'),
  // When work on the request began, for its answer: the first claim's time, kept by the later ones.
  onClaim: (now) => ({ started_at: request.fn.coalesce('started_at', request.val(now)) }),
});

/**
 * Reserves up to `limit` of the oldest pending requests whose lease is free or expired for one
 * worker, in one statement (worker-leases.ts); returns them oldest first.
 */
export async function claimPendingRequests(
  db: Kysely<Database>,
  claim: LeaseClaim,
): Promise<PrivacyRequestRow[]> {
  const rows = await requestLeases.claim(db, claim);
  return rows.sort((a, b) => a.submitted_at - b.submitted_at || a.id.localeCompare(b.id));
}

/**
 * Fencing for several requests at once: extends the leases this worker still holds, and locks
 * those rows (PostgreSQL) for the rest of the transaction. A request missing from the result went
 * to another worker.
 */
export const renewLeases = requestLeases.renew;

/** Hands several requests back at once (a stopping worker, or a batch that failed). */
export const releaseLeases = requestLeases.release;

/**
 * The receipts of those of `ids` that are completed: a renewal that misses a request either lost
 * it to another worker or finds it already done, for instance by a commit whose answer the
 * connection lost.
 */
export async function findCompletedReceipts(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('privacy_requests')
    .select(['id', 'receipt'])
    .where('id', 'in', ids)
    .where('status', '=', 'COMPLETED')
    .execute();
  return new Map(rows.map((r) => [r.id, r.receipt]));
}
