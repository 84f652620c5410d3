import type { Kysely, QueryCreator } from 'kysely';
import type { Dialect } from '../database.js';
import type { Database, PrivacyRequestRow } from '../schema.js';

// Worker leases on privacy requests: a claimed request belongs to one worker until its lease
// runs out, so a worker that dies only delays the request (docs/design.md, Privacy API).

/**
 * Reserves up to `limit` of the oldest pending requests whose lease is free or expired for one
 * worker, in one statement; returns them oldest first. PostgreSQL: FOR UPDATE SKIP LOCKED lets
 * concurrent workers pass each other instead of queueing on the same rows. SQLite: the statement
 * runs inside BEGIN IMMEDIATE, so it is alone.
 */
export async function claimPendingRequests(
  db: Kysely<Database>,
  dialect: Dialect,
  claim: { owner: string; now: number; leaseUntil: number; limit: number },
): Promise<PrivacyRequestRow[]> {
  const free = (q: QueryCreator<Database>) =>
    q
      .selectFrom('privacy_requests')
      .select('id')
      .where('status', '=', 'PENDING')
      .where((w) => w.or([w('lease_expires_at', 'is', null), w('lease_expires_at', '<=', claim.now)]))
      .orderBy('submitted_at')
      .limit(claim.limit);
  // PostgreSQL: a materialized CTE picks and locks the rows once. As `id in (subquery)` the
  // planner may rescan the subquery, and each rescan skips the rows locked by the one before,
  // so more than `limit` rows would be claimed.
  const rows = await db
    .with(
      (cte) => cte('next').materialized(),
      (q) => (dialect === 'postgres' ? free(q).forUpdate().skipLocked() : free(q)),
    )
    .updateTable('privacy_requests')
    .set((eb) => ({
      lease_owner: claim.owner,
      lease_expires_at: claim.leaseUntil,
      started_at: eb.fn.coalesce('started_at', eb.val(claim.now)),
    }))
    .where('id', 'in', (eb) => eb.selectFrom('next').select('next.id'))
    .where('status', '=', 'PENDING')
    .where((w) => w.or([w('lease_expires_at', 'is', null), w('lease_expires_at', '<=', claim.now)]))
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.submitted_at - b.submitted_at || a.id.localeCompare(b.id));
}

/**
 * Fencing for several requests at once: extends the leases this worker still holds, and locks
 * those rows (PostgreSQL) for the rest of the transaction. A request missing from the result went
 * to another worker.
 */
export async function renewLeases(
  db: Kysely<Database>,
  lease: { ids: readonly string[]; owner: string; leaseUntil: number },
): Promise<PrivacyRequestRow[]> {
  if (lease.ids.length === 0) return [];
  return db
    .updateTable('privacy_requests')
    .set({ lease_expires_at: lease.leaseUntil })
    .where('id', 'in', lease.ids)
    .where('lease_owner', '=', lease.owner)
    .where('status', '=', 'PENDING')
    .returningAll()
    .execute();
}

/** Hands several requests back at once (a stopping worker, or a batch that failed). */
export async function releaseLeases(
  db: Kysely<Database>,
  lease: { ids: readonly string[]; owner: string },
): Promise<void> {
  if (lease.ids.length === 0) return;
  await db
    .updateTable('privacy_requests')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', 'in', lease.ids)
    .where('lease_owner', '=', lease.owner)
    .where('status', '=', 'PENDING')
    .execute();
}

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
