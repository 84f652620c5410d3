import type SqliteDatabase from 'better-sqlite3';
import type { DatabaseConnection, Driver, QueryResult } from 'kysely';
import type { Tracer } from '../domain/tracer.js';
import { Mutex } from './mutex.js';
import { asLease, isPlainRead, Lease, type LeaseDriver, type Statement } from './sqlite-lease.js';
import { statementName, tracedStatement } from './statement-spans.js';
import { TurnBatch } from './turn-batch.js';

interface QueuedRead {
  readonly stmt: Statement;
  readonly parameters: readonly unknown[];
  resolve(result: QueryResult<unknown>): void;
  reject(err: unknown): void;
}

/**
 * Kysely's driver for the one better-sqlite3 connection of a SQLite store, which runs the reads
 * made outside any transaction together.
 *
 * A read outside a transaction is a transaction of its own: in WAL mode SQLite takes a read lock on
 * the WAL index for it and gives it back after, two `fcntl` system calls and the WAL's bookkeeping,
 * which together cost more than the indexed read itself (bench/results/history.md, GET author).
 * Under load the event loop parses many requests in one turn, each of which reads; here those reads
 * wait for the end of the turn (turn-batch.ts) and then run one after another in a single read
 * transaction. Every read of a batch was asked for before the batch began and is answered after it,
 * so each sees the database as it was at some moment while it was pending, as it would alone: a
 * read never misses a commit that came before it, from this process or another.
 *
 * The connection is taken (a mutex, as in Kysely's own SQLite driver) only by what must have it to
 * itself: a transaction from BEGIN to its end, any statement that is not a plain read (and, on the
 * same lease, everything after it), a batch of reads while it runs, and `exclusive`. A lease whose
 * statements so far are all reads holds nothing, so `db.connection()` alone does not keep others
 * out: use `exclusive` for that. Transactions begin IMMEDIATE: better-sqlite3's default DEFERRED
 * lets two processes that both read and then write fail with SQLITE_BUSY at once, where taking
 * the write lock up front makes the second wait (busy_timeout). Savepoints through Kysely's API
 * and streaming are not offered (raw SAVEPOINT statements are, as group-commit.ts uses them).
 * With a tracer, what bypasses Kysely's executor (and so its query log) has spans here: direct
 * reads, and the transaction control whose COMMIT waits for the disk.
 */
export class ReadBatchingSqliteDriver implements Driver, LeaseDriver {
  readonly #raw: SqliteDatabase.Database;
  readonly #prepare: (sql: string) => Statement;
  readonly #mutex = new Mutex();
  readonly #begin: Statement;
  readonly #commit: Statement;
  readonly #queue = new TurnBatch<QueuedRead>(() => void this.#runBatch());
  readonly #tracer: Tracer | undefined;

  constructor(raw: SqliteDatabase.Database, prepare: (sql: string) => Statement, tracer?: Tracer) {
    this.#raw = raw;
    this.#prepare = prepare;
    this.#tracer = tracer;
    this.#begin = raw.prepare('begin deferred');
    this.#commit = raw.prepare('commit');
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#control(connection, 'BEGIN', 'begin immediate');
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#control(connection, 'COMMIT', 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#control(connection, 'ROLLBACK', 'rollback');
  }

  #control(connection: DatabaseConnection, name: string, sql: string): Promise<void> {
    const lease = asLease(connection);
    if (!this.#tracer) return lease.run(sql);
    return tracedStatement(this.#tracer, 'sqlite', name, () => lease.run(sql));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    asLease(connection).release();
  }

  async destroy(): Promise<void> {
    // At once, as Kysely's own driver does: a transaction left open must not keep a closing store
    // waiting. Reads still queued are then refused (the connection is not open).
    this.#raw.close();
  }

  /** Runs `work` with the connection to itself: no transaction of this process is open meanwhile. */
  async exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    await this.#mutex.lock();
    try {
      return await work();
    } finally {
      this.#mutex.unlock();
    }
  }

  /** @internal For Lease. */
  lock(): Promise<void> {
    return this.#mutex.lock();
  }

  /** @internal For Lease. */
  unlock(): void {
    this.#mutex.unlock();
  }

  /** @internal For Lease: the statement for `sql`, from the store's cache. */
  statement(sql: string): Statement {
    return this.#prepare(sql);
  }

  /** @internal For Lease: the statement for `sql`, or undefined when it cannot be prepared now. */
  tryStatement(sql: string): Statement | undefined {
    try {
      return this.#prepare(sql);
    } catch {
      return undefined;
    }
  }

  /**
   * A compiled query run straight on the driver, skipping Kysely's executor (its connection
   * lease and result plugins), when it is a plain read: undefined when it is not, to be run as
   * usual. Only for the store's own handle: a transaction, or a handle with plugins, is another
   * Kysely instance and never reaches here (`directReadsOf`).
   */
  readDirect(sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>> | undefined {
    const stmt = this.tryStatement(sql);
    if (!stmt || !isPlainRead(stmt)) return undefined;
    if (!this.#tracer) return this.read(stmt, parameters);
    return tracedStatement(this.#tracer, 'sqlite', statementName(sql), () => this.read(stmt, parameters));
  }

  /** @internal For Lease: a plain read made without the connection, answered with its batch. */
  read(stmt: Statement, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    return new Promise((resolve, reject) => {
      this.#queue.add({ stmt, parameters, resolve, reject });
    });
  }

  async #runBatch(): Promise<void> {
    await this.#mutex.lock();
    // Taken once the connection is ours, so the reads asked for while waiting for it join too.
    const batch = this.#queue.take();
    try {
      const outcomes = batch.length === 1 ? [runRead(batch[0]!)] : this.#inOneTransaction(batch);
      batch.forEach((read, i) => {
        answer(read, outcomes[i]!);
      });
    } finally {
      this.#mutex.unlock();
    }
  }

  #inOneTransaction(batch: readonly QueuedRead[]): ReadOutcome[] {
    try {
      this.#begin.run();
    } catch (error) {
      return batch.map(() => ({ ok: false, error }));
    }
    const outcomes = batch.map(runRead);
    try {
      this.#commit.run();
    } catch {
      // Not expected: a transaction that wrote nothing has nothing to fail on at commit, and what
      // its reads found stands either way. It must not stay open around the statements that follow.
      try {
        if (this.#raw.inTransaction) this.#raw.exec('rollback');
      } catch {
        // Nothing more to try; the reads are answered all the same.
      }
    }
    return outcomes;
  }
}

type ReadOutcome = { ok: true; result: QueryResult<unknown> } | { ok: false; error: unknown };

function runRead(read: QueuedRead): ReadOutcome {
  try {
    return { ok: true, result: { rows: read.stmt.all(read.parameters) } };
  } catch (error) {
    return { ok: false, error };
  }
}

function answer(read: QueuedRead, outcome: ReadOutcome): void {
  if (outcome.ok) read.resolve(outcome.result);
  else read.reject(outcome.error);
}

const direct = new WeakMap<object, ReadBatchingSqliteDriver>();

/** Lets prepared reads made on `db` itself (not a transaction of it) go straight to `driver`. */
export function allowDirectReads(db: object, driver: ReadBatchingSqliteDriver): void {
  direct.set(db, driver);
}

/** The driver that may answer reads made on `db` directly, if `db` is such a store handle. */
export function directReadsOf(db: object): ReadBatchingSqliteDriver | undefined {
  return direct.get(db);
}
