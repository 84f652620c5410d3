import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs the keys of one batch as one statement; answers in the keys' order, undefined where a key
 * found nothing. It must not fail for one key alone: its error is every key's.
 */
export type ReadMany<K, R> = (
  db: Kysely<Database>,
  keys: readonly K[],
) => Promise<readonly (R | undefined)[]>;

/** Reads one key, with the other reads of the same turn of the event loop. */
export type BatchedRead<K, R> = (db: Kysely<Database>, key: K) => Promise<R | undefined>;

/** Keeps one statement's array parameters, and its plan's estimates, within reason. */
const MAX_KEYS_PER_STATEMENT = 500;

/**
 * A read by key whose calls made outside a transaction in one turn of the event loop run
 * together, as one statement, once the turn ends (DataLoader, scheduled with `setImmediate`, its
 * cache off). On PostgreSQL each statement is a round trip whose client side costs more CPU than
 * the rest of an author request; one statement for the turn's reads cost it less than half
 * (docs/performance.md).
 *
 * What a read sees is what a read of its own would: every read of a batch was asked for before
 * the statement began, so the statement's snapshot holds every commit made before any of them
 * was asked, by this process or another. A read inside a transaction runs alone, at once, in it.
 */
export function batchedRead<K, R>(readMany: ReadMany<K, R>): BatchedRead<K, R> {
  // One loader per handle: the store's handle, or another Kysely sharing its connections.
  const loaders = new WeakMap<Kysely<Database>, DataLoader<K, R | undefined>>();
  return async (db, key) => {
    if (db.isTransaction) return (await readMany(db, [key]))[0];
    let loader = loaders.get(db);
    if (!loader) {
      // Dense: DataLoader takes an array whose last key found nothing (a hole) for no array at all.
      const dense = async (keys: readonly K[]) => Array.from(await readMany(db, keys));
      loader = new DataLoader<K, R | undefined>(dense, {
        // Every read asks the database: a cached answer could miss a commit made since.
        cache: false,
        maxBatchSize: MAX_KEYS_PER_STATEMENT,
        batchScheduleFn: (run) => setImmediate(run),
      });
      loaders.set(db, loader);
    }
    return loader.load(key);
  };
}
