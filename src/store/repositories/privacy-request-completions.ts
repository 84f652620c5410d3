import { type Kysely, sql } from 'kysely';
import type { Database, PrivacyRequestRow } from '../schema.js';
import { NO_LEASE } from '../worker-leases.js';

// A request's progress, its completion, and its removal once kept long enough.

/** Saves the receipts so far of requests still in progress, in one statement. */
export async function saveReceipts(
  db: Kysely<Database>,
  receipts: readonly { id: string; receipt: string }[],
): Promise<void> {
  if (receipts.length === 0) return;
  await db
    .updateTable('privacy_requests')
    .set({ receipt: receiptById(receipts) })
    .where(
      'id',
      'in',
      receipts.map((r) => r.id),
    )
    .execute();
}

/**
 * Completes requests, each with its receipt, and releases their pending keys in the caller's
 * transaction: two statements however many requests.
 */
export async function markRequestsCompleted(
  db: Kysely<Database>,
  completion: { at: number; receipts: readonly { id: string; receipt: string }[] },
): Promise<void> {
  if (completion.receipts.length === 0) return;
  const ids = completion.receipts.map((r) => r.id);
  await db
    .updateTable('privacy_requests')
    .set({
      status: 'COMPLETED',
      completed_at: completion.at,
      receipt: receiptById(completion.receipts),
      ...NO_LEASE,
    })
    .where('id', 'in', ids)
    .execute();
  await db.deleteFrom('privacy_pending_keys').where('request_id', 'in', ids).execute();
}

/** `case id when … then receipt … end`: one receipt per row in a single update. */
function receiptById(receipts: readonly { id: string; receipt: string }[]) {
  const arms = receipts.map((r) => sql`when ${r.id} then ${r.receipt}`);
  return sql<string>`case id ${sql.join(arms, sql` `)} end`;
}

/** Up to `limit` requests completed before the cut-off, oldest completion first. */
export async function findCompletedRequestsBefore(
  db: Kysely<Database>,
  before: number,
  limit: number,
): Promise<PrivacyRequestRow[]> {
  return db
    .selectFrom('privacy_requests')
    .selectAll()
    .where('status', '=', 'COMPLETED')
    .where('completed_at', '<', before)
    .orderBy('completed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Deletes completed requests with everything attached (their clients, identifier hashes and
 * exports go by cascade); a request that is somehow pending again is left alone.
 */
export async function deleteCompletedRequests(db: Kysely<Database>, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db
    .deleteFrom('privacy_requests')
    .where('status', '=', 'COMPLETED')
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
