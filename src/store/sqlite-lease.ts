import type SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';

export type Statement = SqliteDatabase.Statement<unknown[], unknown>;

/** What a lease needs of its driver (read-batching-sqlite-driver.ts). */
export interface LeaseDriver {
  lock(): Promise<void>;
  unlock(): void;
  /** The statement for `sql`, from the store's cache. */
  statement(sql: string): Statement;
  /** The statement for `sql`, or undefined when it cannot be prepared now. */
  tryStatement(sql: string): Statement | undefined;
  /** A plain read made without the connection, answered with its batch. */
  read(stmt: Statement, parameters: readonly unknown[]): Promise<QueryResult<unknown>>;
}

/** SQLite's own rule: BEGIN, COMMIT and SAVEPOINT are read-only but return no rows; INSERT ... RETURNING returns rows but writes. */
export function isPlainRead(stmt: Statement): boolean {
  return stmt.reader && stmt.readonly;
}

/** What Kysely holds between acquireConnection and releaseConnection. */
export class Lease implements DatabaseConnection {
  readonly #driver: LeaseDriver;
  #holding = false;

  constructor(driver: LeaseDriver) {
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

export function asLease(connection: DatabaseConnection): Lease {
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
