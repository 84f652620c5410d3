import type SqliteDatabase from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteDialect,
} from 'kysely';

type Statement = SqliteDatabase.Statement<unknown[], unknown>;

interface QueuedRead {
  readonly stmt: Statement;
  readonly parameters: readonly unknown[];
  resolve(result: QueryResult<unknown>): void;
  reject(err: unknown): void;
}

/** One holder at a time, served in the order they asked. */
class Mutex {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

/**
 * Kysely's driver for the one better-sqlite3 connection of a SQLite store, which runs the reads
 * made outside any transaction together.
 *
 * A read outside a transaction is a transaction of its own: in WAL mode SQLite takes a read lock on
 * the WAL index for it and gives it back after, two `fcntl` system calls and the WAL's bookkeeping,
 * which together cost more than the indexed read itself (bench/results/history.md, GET author).
 * Under load the event loop parses many requests in one turn, each of which reads; here those reads
 * wait for the end of the turn (`setImmediate`) and then run one after another in a single read
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
 */
export class ReadBatchingSqliteDriver implements Driver {
  readonly #raw: SqliteDatabase.Database;
  readonly #prepare: (sql: string) => Statement;
  readonly #mutex = new Mutex();
  readonly #begin: Statement;
  readonly #commit: Statement;
  #queue: QueuedRead[] = [];

  constructor(raw: SqliteDatabase.Database, prepare: (sql: string) => Statement) {
    this.#raw = raw;
    this.#prepare = prepare;
    this.#begin = raw.prepare('begin deferred');
    this.#commit = raw.prepare('commit');
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await asLease(connection).run('begin immediate');
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await asLease(connection).run('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await asLease(connection).run('rollback');
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
    return stmt && isPlainRead(stmt) ? this.read(stmt, parameters) : undefined;
  }

  /** @internal For Lease: a plain read made without the connection, answered with its batch. */
  read(stmt: Statement, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    return new Promise((resolve, reject) => {
      if (this.#queue.length === 0) setImmediate(() => this.#runBatch());
      this.#queue.push({ stmt, parameters, resolve, reject });
    });
  }

  async #runBatch(): Promise<void> {
    await this.#mutex.lock();
    // Taken once the connection is ours, so the reads asked for while waiting for it join too.
    const batch = this.#queue;
    this.#queue = [];
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

/** SQLite's own rule: BEGIN, COMMIT and SAVEPOINT are read-only but return no rows; INSERT ... RETURNING returns rows but writes. */
function isPlainRead(stmt: Statement): boolean {
  return stmt.reader && stmt.readonly;
}

/** What Kysely holds between acquireConnection and releaseConnection. */
class Lease implements DatabaseConnection {
  readonly #driver: ReadBatchingSqliteDriver;
  #holding = false;

  constructor(driver: ReadBatchingSqliteDriver) {
    this.#driver = driver;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery;
    if (!this.#holding) {
      // Prepared against whatever transaction has the connection now: one that changed the schema
      // (a migration) can make a valid statement fail here, so a failure is tried again once the
      // connection is this lease's.
      const stmt = this.#driver.tryStatement(sql);
      if (stmt && isPlainRead(stmt)) return this.#driver.read(stmt, parameters) as Promise<QueryResult<R>>;
      await this.hold();
      return execute(stmt ?? this.#driver.statement(sql), parameters) as QueryResult<R>;
    }
    return execute(this.#driver.statement(sql), parameters) as QueryResult<R>;
  }

  /** Takes the connection for the rest of this lease, as a write would. */
  async hold(): Promise<void> {
    if (this.#holding) return;
    await this.#driver.lock();
    this.#holding = true;
  }

  /** Kysely's interface asks for it; nothing here streams. */
  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by this SQLite driver');
  }

  async run(sql: string): Promise<void> {
    await this.hold();
    this.#driver.statement(sql).run();
  }

  release(): void {
    if (!this.#holding) return;
    this.#holding = false;
    this.#driver.unlock();
  }
}

function asLease(connection: DatabaseConnection): Lease {
  if (!(connection instanceof Lease)) throw new Error('not a connection of this driver');
  return connection;
}

function execute(stmt: Statement, parameters: readonly unknown[]): QueryResult<unknown> {
  if (stmt.reader) return { rows: stmt.all(parameters) };
  const { changes, lastInsertRowid } = stmt.run(parameters);
  return {
    numAffectedRows: BigInt(changes),
    insertId: BigInt(lastInsertRowid),
    rows: [],
  };
}

/**
 * SQLite's adapter with a migration lock that takes the connection for the migrator's lease:
 * Kysely's own does nothing, as its driver lets a lease hold the only connection throughout,
 * which the driver above does only from a lease's first write on.
 */
class ExclusiveMigrationsSqliteAdapter extends SqliteAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    // The migrator's `db` is bound to one lease; it is released when the migrator's run ends.
    await db.getExecutor().provideConnection((connection) => asLease(connection).hold());
  }
}

/** Kysely's SQLite dialect (its query compiler and introspector) with the driver and adapter above. */
export class ReadBatchingSqliteDialect extends SqliteDialect {
  readonly driver: ReadBatchingSqliteDriver;

  constructor(raw: SqliteDatabase.Database, prepare: (sql: string) => Statement) {
    super({ database: raw });
    this.driver = new ReadBatchingSqliteDriver(raw, prepare);
  }

  override createDriver(): Driver {
    return this.driver;
  }

  override createAdapter() {
    return new ExclusiveMigrationsSqliteAdapter();
  }
}
