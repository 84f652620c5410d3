import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs `work` in a transaction: the caller's, when `db` is one already, so a service's writes can
 * commit together with what its caller writes (an Idempotency-Key's record beside the object
 * created), or a new one otherwise. Kysely does not nest transactions.
 */
export function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
