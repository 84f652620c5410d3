import { CompiledQuery, type ControlledTransaction, type Kysely, type Transaction } from 'kysely';
import type { Tracer } from '../domain/tracer.js';
import type { Database } from './schema.js';
import { TurnBatch } from './turn-batch.js';

/**
 * Runs a small write in a transaction of its own or one shared with other writes, and resolves
 * once that transaction has committed. `keep` decides from the write's result whether its changes
 * stay (a refused rate-limit take is undone); a write that throws is undone alone and rejects.
 */
export type GroupCommit = <T>(
  work: (trx: Transaction<Database>) => Promise<T>,
  keep?: (result: T) => boolean,
) => Promise<T>;

// Compiled once: they are run around every write of a batch.
const SAVEPOINT = CompiledQuery.raw('savepoint batched_write');
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw('rollback to savepoint batched_write');
const RELEASE_SAVEPOINT = CompiledQuery.raw('release savepoint batched_write');
const NESTED_SAVEPOINT = CompiledQuery.raw('savepoint nested_write');
const ROLLBACK_TO_NESTED_SAVEPOINT = CompiledQuery.raw('rollback to savepoint nested_write');
const RELEASE_NESTED_SAVEPOINT = CompiledQuery.raw('release savepoint nested_write');

interface Queued {
  work: (trx: Transaction<Database>) => Promise<unknown>;
  keep: ((result: unknown) => boolean) | undefined;
  /** Traced: runs the write in the context it was asked for in, so its statements join the asker's trace. */
  within: (<T>(fn: () => T) => T) | undefined;
  resolve(result: unknown): void;
  reject(err: unknown): void;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

/** One write of a batch, in a savepoint of its own; a failure of the savepoint itself fails the batch. */
async function writeInSavepoint(trx: ControlledTransaction<Database>, item: Queued): Promise<Settled> {
  await trx.executeQuery(SAVEPOINT);
  let settled: Settled;
  try {
    const value = await item.work(trx);
    if (item.keep && !item.keep(value)) await trx.executeQuery(ROLLBACK_TO_SAVEPOINT);
    settled = { ok: true, value };
  } catch (error) {
    await trx.executeQuery(ROLLBACK_TO_SAVEPOINT);
    settled = { ok: false, error };
  }
  await trx.executeQuery(RELEASE_SAVEPOINT);
  return settled;
}

/**
 * Group commit for SQLite, where every commit waits for the disk (synchronous=FULL) and one
 * transaction at a time holds the database's write lock anyway: the writes that arrive while a
 * batch is being written queue up and go together in the next transaction, each inside its own
 * savepoint so it can be undone alone. Under load one disk flush then serves many requests instead
 * of one; no write is answered before the commit that holds it. Traced, each write's statements are
 * in the trace of the request that asked for it; the batch's BEGIN and COMMIT, in the first's.
 */
export function createSqliteGroupCommit(db: Kysely<Database>, tracer?: Tracer): GroupCommit {
  // Started once the turn ends, so the writes of requests read together join the first batch
  // rather than the one after it; those given while a batch is written go in the next.
  const queue = new TurnBatch<Queued>(() => void drain());
  let running = false;

  async function flush(batch: readonly Queued[]): Promise<void> {
    const settled: Settled[] = [];
    let trx: ControlledTransaction<Database> | undefined;
    try {
      // Inside the try: a transaction that cannot start (a busy or closed database) must reject
      // the batch's writes, not leave them waiting.
      trx = await db.startTransaction().execute();
      const open = trx;
      for (const item of batch) {
        const write = () => writeInSavepoint(open, item);
        settled.push(await (item.within ? item.within(write) : write()));
      }
      await trx.commit().execute();
    } catch (err) {
      await trx
        ?.rollback()
        .execute()
        .catch(() => {});
      for (const item of batch) item.reject(err);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = settled[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  async function drain(): Promise<void> {
    // One batch at a time: the loop under way takes what was given meanwhile.
    if (running) return;
    running = true;
    try {
      while (queue.size > 0) await flush(queue.take());
    } finally {
      running = false;
    }
  }

  return <T>(work: (trx: Transaction<Database>) => Promise<T>, keep?: (result: T) => boolean) =>
    new Promise<T>((resolve, reject) => {
      queue.add({
        work,
        keep: keep as Queued['keep'],
        within: tracer?.capture(),
        resolve: resolve as Queued['resolve'],
        reject,
      });
    });
}

/**
 * PostgreSQL already shares WAL flushes between transactions committing at the same time, and a
 * shared transaction would hold the row locks of every write in it until the last (taking them out
 * of any one order): each write gets a transaction of its own.
 */
export function createTransactionPerWrite(db: Kysely<Database>): GroupCommit {
  return async <T>(work: (trx: Transaction<Database>) => Promise<T>, keep?: (result: T) => boolean) => {
    const trx = await db.startTransaction().execute();
    try {
      const value = await work(trx);
      if (keep && !keep(value)) await trx.rollback().execute();
      else await trx.commit().execute();
      return value;
    } catch (err) {
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      throw err;
    }
  };
}

/**
 * The group commit of a transaction already open (`trx`, a caller's that commits what its services
 * write together: services/idempotency): each write runs in it, inside a savepoint of its own so
 * it can still be undone alone, and resolves when it is done, to be committed with the rest. The
 * store's own group commit would wait for a connection the transaction holds (SQLite) or commit
 * apart from it (PostgreSQL). Writes run one at a time, as the savepoints nest in order.
 */
export function groupCommitWithin(trx: Transaction<Database>): GroupCommit {
  let previous: Promise<unknown> = Promise.resolve();
  const inSavepoint = async <T>(
    work: (trx: Transaction<Database>) => Promise<T>,
    keep?: (result: T) => boolean,
  ) => {
    await trx.executeQuery(NESTED_SAVEPOINT);
    try {
      const value = await work(trx);
      if (keep && !keep(value)) await trx.executeQuery(ROLLBACK_TO_NESTED_SAVEPOINT);
      await trx.executeQuery(RELEASE_NESTED_SAVEPOINT);
      return value;
    } catch (err) {
      await trx.executeQuery(ROLLBACK_TO_NESTED_SAVEPOINT);
      await trx.executeQuery(RELEASE_NESTED_SAVEPOINT);
      throw err;
    }
  };
  return <T>(work: (trx: Transaction<Database>) => Promise<T>, keep?: (result: T) => boolean) => {
    const run = previous.then(() => inSavepoint(work, keep));
    previous = run.catch(() => {});
    return run;
  };
}
