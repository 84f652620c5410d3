import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, Kysely, SqliteDialect, SqliteDriver } from 'kysely';
import pg from 'pg';
import { createSqliteGroupCommit, createTransactionPerWrite, type GroupCommit } from './group-commit.js';
import type { Database } from './schema.js';
import { SearchPathPostgresDialect } from './search-path-introspector.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** PostgreSQL schema holding the tables, when one was chosen. */
  readonly schema: string | undefined;
  /** Small writes that may share a commit with others (see group-commit.ts). */
  readonly groupCommit: GroupCommit;
  /** Cheap round trip used by /readyz. */
  ping(): Promise<void>;
  /**
   * Makes deleted bytes unrecoverable from the database files: on SQLite, moves the WAL into the
   * main file (whose freed pages secure_delete already zeroed) and truncates it. No-op on PostgreSQL,
   * whose deleted tuples are reclaimed by VACUUM.
   */
  scrubFreedPages(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL only: a schema to create and use, so test suites can share one database. */
  schema?: string;
  poolSize?: number;
}

/**
 * better-sqlite3 starts transactions as DEFERRED; two processes that both read and then write can
 * then fail with SQLITE_BUSY without waiting. BEGIN IMMEDIATE takes the write lock up front, so
 * busy_timeout applies and writers queue instead of failing.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

function openSqlite(path: string): Store {
  const memory = path === ':memory:';
  if (!memory) mkdirSync(dirname(path), { recursive: true });
  const raw = new SqliteDatabase(path);
  raw.pragma('foreign_keys = ON');
  // Deleted content is overwritten with zeros, so erased people do not linger in free pages.
  raw.pragma('secure_delete = ON');
  raw.pragma('busy_timeout = 15000');
  if (!memory) {
    raw.pragma('journal_mode = WAL');
    // FULL: an acknowledged privacy request survives power loss, not only a process crash.
    raw.pragma('synchronous = FULL');
  }
  // Kysely prepares every query anew; reusing statements halves the cost of hot queries.
  const statements = new Map<string, SqliteDatabase.Statement>();
  const cachedPrepare = (sql: string) => {
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size >= 1000) statements.clear();
      stmt = raw.prepare(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  };
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({
      database: { prepare: cachedPrepare, close: () => raw.close() } as unknown as SqliteDatabase.Database,
    }),
  });
  return {
    db,
    dialect: 'sqlite',
    schema: undefined,
    groupCommit: createSqliteGroupCommit(db),
    async ping() {
      raw.prepare('select 1').get();
    },
    async scrubFreedPages() {
      if (!memory) raw.pragma('wal_checkpoint(TRUNCATE)');
    },
    async close() {
      await db.destroy();
    },
  };
}

const INT8_OID = 20;

function openPostgres(url: string, options: StoreOptions): Store {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('invalid schema name');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // Epoch-millisecond columns are bigint; they fit a JS number until the year 287396.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
  let schemaReady: Promise<void> | null = null;
  const ensureSchema = async () => {
    if (!schema) return;
    schemaReady ??= (async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`create schema if not exists ${schema}`);
      } finally {
        await admin.end();
      }
    })();
    await schemaReady;
  };
  return {
    db,
    dialect: 'postgres',
    schema,
    groupCommit: createTransactionPerWrite(db),
    async ping() {
      await ensureSchema();
      await pool.query('select 1');
    },
    async scrubFreedPages() {},
    async close() {
      await db.destroy();
    },
  };
}

export function parseDatabaseUrl(url: string): { dialect: Dialect; location: string } {
  if (url.startsWith('sqlite:')) return { dialect: 'sqlite', location: url.slice('sqlite:'.length) };
  return { dialect: 'postgres', location: url };
}

export async function openStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const { dialect, location } = parseDatabaseUrl(url);
  const store = dialect === 'sqlite' ? openSqlite(location) : openPostgres(location, options);
  await store.ping();
  return store;
}
