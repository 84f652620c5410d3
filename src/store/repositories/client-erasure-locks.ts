import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect-of.js';
import type { Database } from '../schema.js';

/** First key of the two-key advisory locks below, so they meet no other lock of the database. */
const LOCK_SPACE = 0x72706101;

/**
 * PostgreSQL only: SQLite runs one write transaction at a time, so there these do nothing. An
 * import batch and the last batch of an erasure meet on one transaction-scoped lock per client
 * instance: the import holds it while it checks for forgotten people and writes; the erasure holds
 * it while it looks for the subject's last reviews and suppresses the identifiers. So a review
 * imported concurrently is either seen and erased, or refused by the suppression: never left
 * behind.
 *
 * Erasures take it shared, imports exclusively: erasures run all the time and must not queue behind
 * each other, while import batches are rare and may well take turns. Locks are taken in one global
 * order, so transactions over several clients cannot deadlock.
 */
export const lockClientsForImport = clientLocks('pg_advisory_xact_lock');
export const lockClientsForErasure = clientLocks('pg_advisory_xact_lock_shared');

function clientLocks(lock: 'pg_advisory_xact_lock' | 'pg_advisory_xact_lock_shared') {
  return async (db: Kysely<Database>, clientIds: readonly string[]): Promise<void> => {
    if (dialectOf(db) !== 'postgres') return;
    for (const id of [...new Set(clientIds)].sort()) {
      await sql`select ${sql.raw(lock)}(${LOCK_SPACE}, hashtext(${id}))`.execute(db);
    }
  };
}
