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

interface Waiting<K, R> {
  readonly key: K;
  readonly resolve: (row: R | undefined) => void;
  readonly reject: (err: unknown) => void;
}

/** Keeps one statement's array parameters, and its plan's estimates, within reason. */
const MAX_KEYS_PER_STATEMENT = 500;

/**
 * A read by key whose calls made outside a transaction in one turn of the event loop run
 * together, as one statement, once the turn ends (`setImmediate`). On PostgreSQL each statement is
 * a round trip whose client side alone cost 38–65 µs of CPU in a loop, and the server its own work
 * on the same cores; one statement for the turn's reads costs little more than one read
 * (bench/results/history.md, GET author).
 *
 * What a read sees is what a read of its own would: every read of a batch was asked for before
 * the statement began, so the statement's snapshot holds every commit made before any of them
 * was asked, by this process or another. A read inside a transaction runs alone, at once, in it.
 */
export function batchedRead<K, R>(readMany: ReadMany<K, R>): BatchedRead<K, R> {
  // One queue per handle: the store's handle, or another Kysely sharing its connections.
  const queues = new WeakMap<Kysely<Database>, Waiting<K, R>[]>();

  const run = async (db: Kysely<Database>, batch: readonly Waiting<K, R>[]) => {
    try {
      const rows = await readMany(
        db,
        batch.map((w) => w.key),
      );
      for (const [i, w] of batch.entries()) w.resolve(rows[i]);
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  };

  const flush = (db: Kysely<Database>) => {
    const waiting = queues.get(db) ?? [];
    queues.delete(db);
    for (let at = 0; at < waiting.length; at += MAX_KEYS_PER_STATEMENT) {
      void run(db, waiting.slice(at, at + MAX_KEYS_PER_STATEMENT));
    }
  };

  return async (db, key) => {
    if (db.isTransaction) return (await readMany(db, [key]))[0];
    return new Promise<R | undefined>((resolve, reject) => {
      let waiting = queues.get(db);
      if (!waiting) {
        waiting = [];
        queues.set(db, waiting);
        setImmediate(flush, db);
      }
      waiting.push({ key, resolve, reject });
    });
  };
}
