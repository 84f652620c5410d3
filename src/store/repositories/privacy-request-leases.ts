import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import type { Database, PrivacyRequestRow } from '../schema.js';

// Worker leases on privacy requests: a claimed request belongs to one worker until its lease
// runs out, so a worker that dies only delays the request (docs/design.md, Privacy API).

/**
 * Reserves the oldest pending request whose lease is free or expired for one worker. PostgreSQL:
 * FOR UPDATE SKIP LOCKED lets concurrent workers pass each other instead of queueing on one row.
 * SQLite: the statement runs inside BEGIN IMMEDIATE, so it is alone.
 */
export async function claimPendingRequest(
  db: Kysely<Database>,
  dialect: Dialect,
  claim: { owner: string; now: number; leaseUntil: number },
): Promise<PrivacyRequestRow | undefined> {
  return db
    .updateTable('privacy_requests')
    .set((eb) => ({
      lease_owner: claim.owner,
      lease_expires_at: claim.leaseUntil,
      started_at: eb.fn.coalesce('started_at', eb.val(claim.now)),
    }))
    .where('id', '=', (eb) => {
      const next = eb
        .selectFrom('privacy_requests')
        .select('id')
        .where('status', '=', 'PENDING')
        .where((w) => w.or([w('lease_expires_at', 'is', null), w('lease_expires_at', '<=', claim.now)]))
        .orderBy('submitted_at')
        .limit(1);
      return dialect === 'postgres' ? next.forUpdate().skipLocked() : next;
    })
    .where('status', '=', 'PENDING')
    .where((w) => w.or([w('lease_expires_at', 'is', null), w('lease_expires_at', '<=', claim.now)]))
    .returningAll()
    .executeTakeFirst();
}

/**
 * Fencing: extends the lease only while this worker still holds it, and locks the request row
 * (PostgreSQL) for the rest of the transaction. Undefined means another worker took over.
 */
export async function renewLease(
  db: Kysely<Database>,
  lease: { id: string; owner: string; leaseUntil: number },
): Promise<PrivacyRequestRow | undefined> {
  return db
    .updateTable('privacy_requests')
    .set({ lease_expires_at: lease.leaseUntil })
    .where('id', '=', lease.id)
    .where('lease_owner', '=', lease.owner)
    .where('status', '=', 'PENDING')
    .returningAll()
    .executeTakeFirst();
}

/** Hands a request back before the lease runs out, so a stopping worker does not delay it. */
export async function releaseLease(
  db: Kysely<Database>,
  lease: { id: string; owner: string },
): Promise<void> {
  await db
    .updateTable('privacy_requests')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', '=', lease.id)
    .where('lease_owner', '=', lease.owner)
    .where('status', '=', 'PENDING')
    .execute();
}
