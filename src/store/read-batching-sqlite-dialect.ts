import type SqliteDatabase from 'better-sqlite3';
import { type Driver, type Kysely, SqliteAdapter, SqliteDialect } from 'kysely';
import type { Tracer } from '../domain/tracer.js';
import { ReadBatchingSqliteDriver } from './read-batching-sqlite-driver.js';
import { asLease, type Statement } from './sqlite-lease.js';

/**
 * SQLite's adapter with a migration lock that takes the connection for the migrator's lease:
 * Kysely's own does nothing, as its driver lets a lease hold the only connection throughout,
 * which the read-batching driver does only from a lease's first write on.
 */
class ExclusiveMigrationsSqliteAdapter extends SqliteAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    // The migrator's `db` is bound to one lease; it is released when the migrator's run ends.
    await db.getExecutor().provideConnection((connection) => asLease(connection).hold());
  }
}

/** Kysely's SQLite dialect (its query compiler and introspector) with the read-batching driver
 * (read-batching-sqlite-driver.ts) and the adapter above. */
export class ReadBatchingSqliteDialect extends SqliteDialect {
  readonly driver: ReadBatchingSqliteDriver;

  constructor(raw: SqliteDatabase.Database, prepare: (sql: string) => Statement, tracer?: Tracer) {
    super({ database: raw });
    this.driver = new ReadBatchingSqliteDriver(raw, prepare, tracer);
  }

  override createDriver(): Driver {
    return this.driver;
  }

  override createAdapter() {
    return new ExclusiveMigrationsSqliteAdapter();
  }
}
