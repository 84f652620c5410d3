import type { Kysely, Transaction } from 'kysely';
import type { Store } from './database.js';
import { groupCommitWithin } from './group-commit.js';
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

/**
 * The store as seen from inside `trx`: its handle is the transaction and its group commit writes
 * into it, so services given it write what the caller commits. What else the store does (health,
 * maintenance) is the store's own.
 */
export function storeWithin(store: Store, trx: Transaction<Database>): Store {
  return { ...store, db: trx, groupCommit: groupCommitWithin(trx) };
}
