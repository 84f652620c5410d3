import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { MemoryCounters } from './counters/memory-counter-store.js';
import { createSqliteGroupCommit, createTransactionPerWrite, type GroupCommit } from './group-commit.js';
import { PREPARED_SQL_TAG } from './prepared-query.js';
import { allowDirectReads, ReadBatchingSqliteDialect } from './read-batching-sqlite-dialect.js';
import type { Database } from './schema.js';
import { SearchPathPostgresDialect } from './search-path-introspector.js';

export type Dialect = 'sqlite' | 'postgres';

/** Bytes the compacted tables took before and after their rewrite. */
export interface CompactionSizes {
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** PostgreSQL schema holding the tables, when one was chosen. */
  readonly schema: string | undefined;
  /** Small writes that may share a commit with others (see group-commit.ts). */
  readonly groupCommit: GroupCommit;
  /**
   * On SQLite, counters kept in this process alone, in memory: the failed-authentication
   * throttle's, counted on every token request (docs/design.md, Limits). A SQLite deployment is
   * one server process; a commit to a file per check would cost more than the rest of the request.
   * Null on PostgreSQL, which keeps them with the rest. One per store.
   */
  processCounters(): MemoryCounters | null;
  /** Cheap round trip used by /readyz. */
  ping(): Promise<void>;
  /**
   * Calls `listener` when an idle connection of the pool is lost (the server went away, or ended
   * it). A connection lost while in use fails the statement using it instead. Never on SQLite.
   */
  onConnectionLost(listener: (err: unknown) => void): void;
  /**
   * Makes deleted bytes unrecoverable from the database files: on SQLite, moves the WAL into the
   * main file (whose freed pages secure_delete already zeroed) and truncates it. Resolves false,
   * without waiting, when another connection's open read or write kept the WAL from being emptied:
   * the deleted bytes it holds are still on disk, and the caller must try again. Resolves true at
   * once on PostgreSQL, whose deleted rows leave its files only when compactTables rewrites them.
   */
  scrubFreedPages(): Promise<boolean>;
  /**
   * Rewrites tables so the bytes of deleted rows leave their files (docs/design.md, Privacy API).
   * PostgreSQL: VACUUM FULL of each table (an exclusive lock on it while it is rewritten), then a
   * checkpoint when the role may run one. SQLite: VACUUM of the whole database (secure_delete has
   * already zeroed freed pages, so this only gives space back) and a truncated WAL. Holds one of
   * the store's connections throughout; resolves null, having done nothing, while another
   * instance compacts the same PostgreSQL schema.
   */
  compactTables(tables: readonly string[]): Promise<CompactionSizes | null>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL only: a schema to create and use, so test suites can share one database. */
  schema?: string;
  /** PostgreSQL only: connections kept at most (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /**
   * PostgreSQL only: how long a statement waits for a connection (a free one of the pool, or a new
   * one being made) before failing as unavailable (DATABASE_POOL_TIMEOUT_MS).
   */
  connectionTimeoutMs?: number;
}

/** How long a SQLite statement waits for another connection's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 15_000;

/** The row of `PRAGMA wal_checkpoint`: busy is 1 when it could not finish (https://sqlite.org/pragma.html#pragma_wal_checkpoint). */
interface WalCheckpointResult {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

/**
 * Checkpoints the WAL into the main file and truncates it; false when another connection's open
 * read or write kept it from finishing. A TRUNCATE checkpoint waits for those in the busy handler,
 * on the event loop, so it is not let wait: the caller tries again later. Run while holding the
 * connection, with no transaction of this process open.
 */
function truncateWal(raw: SqliteDatabase.Database): boolean {
  raw.pragma('busy_timeout = 0');
  try {
    const [result] = raw.pragma('wal_checkpoint(TRUNCATE)') as WalCheckpointResult[];
    return result?.busy === 0;
  } catch (err) {
    // Reading the schema first, which the pragma needs, can find another process's lock.
    if (String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return false;
    throw err;
  } finally {
    raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

function openSqlite(path: string): Store {
  const memory = path === ':memory:';
  if (!memory) mkdirSync(dirname(path), { recursive: true });
  const raw = new SqliteDatabase(path);
  raw.pragma('foreign_keys = ON');
  // Deleted content is overwritten with zeros, so erased people do not linger in free pages.
  raw.pragma('secure_delete = ON');
  raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
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
  const dialect = new ReadBatchingSqliteDialect(raw, cachedPrepare);
  const exclusive = <T>(work: () => T) => dialect.driver.exclusive(work);
  const db = new Kysely<Database>({ dialect });
  allowDirectReads(db, dialect.driver);
  const processCounters: MemoryCounters = new Map();
  return {
    db,
    dialect: 'sqlite',
    schema: undefined,
    groupCommit: createSqliteGroupCommit(db),
    processCounters() {
      return processCounters;
    },
    async ping() {
      raw.prepare('select 1').get();
    },
    onConnectionLost() {},
    async scrubFreedPages() {
      if (memory) return true;
      // With the connection to itself: a transaction of this process open across the checkpoint
      // would stop it from truncating the WAL.
      return exclusive(() => truncateWal(raw));
    },
    async compactTables() {
      const size = () =>
        (raw.pragma('page_count', { simple: true }) as number) *
        (raw.pragma('page_size', { simple: true }) as number);
      // Holding the only connection keeps every transaction of this process out: VACUUM cannot run
      // inside one, and a checkpoint cannot truncate the WAL past one.
      return exclusive(() => {
        const bytesBefore = size();
        raw.exec('VACUUM');
        // What VACUUM wrote holds no deleted bytes (it copies live rows), so a WAL that another
        // process keeps from being emptied here holds nothing a scrub is owed for.
        if (!memory) truncateWal(raw);
        return { bytesBefore, bytesAfter: size() };
      });
    },
    async close() {
      processCounters.clear();
      await db.destroy();
    },
  };
}

const INT8_OID = 20;
/** First key of the advisory lock that keeps two instances from compacting one schema at once. */
const COMPACTION_LOCK_CLASS = 0x72706163;
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;
/** SQLSTATE insufficient_privilege: CHECKPOINT needs a superuser or pg_checkpoint. */
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * VACUUM FULL of each table in the connection's schema. It must not run inside a transaction, so
 * every statement here is its own. Sizes count the table, its TOAST table and its indexes.
 */
async function compactPostgresTables(
  db: Kysely<Database>,
  tables: readonly string[],
): Promise<CompactionSizes | null> {
  for (const table of tables) if (!TABLE_NAME.test(table)) throw new Error('invalid table name');
  return db.connection().execute(async (conn) => {
    // Session-level, on this connection: released by the unlock below, or with the session if the
    // connection dies mid-rewrite. Keyed by schema, so instances of other schemas do not wait.
    const lockKey = sql`${COMPACTION_LOCK_CLASS}::int4, hashtext(coalesce(current_schema(), ''))`;
    const lock = sql<{ locked: boolean }>`select pg_try_advisory_lock(${lockKey}) as locked`;
    if (!(await lock.execute(conn)).rows[0]?.locked) return null;
    try {
      const size = async () => {
        let total = 0;
        for (const table of tables) {
          const bytes = sql<{ bytes: number }>`select pg_total_relation_size(${table}::regclass) as bytes`;
          total += Number((await bytes.execute(conn)).rows[0]?.bytes ?? 0);
        }
        return total;
      };
      const bytesBefore = await size();
      for (const table of tables) await sql`vacuum full ${sql.table(table)}`.execute(conn);
      const bytesAfter = await size();
      // The old files are unlinked at the next checkpoint, and the WAL segments that still hold
      // the deleted rows can only be recycled after it; without the privilege, the server's own
      // checkpoints do the same a little later.
      try {
        await sql`checkpoint`.execute(conn);
      } catch (err) {
        if ((err as { code?: unknown }).code !== INSUFFICIENT_PRIVILEGE) throw err;
      }
      return { bytesBefore, bytesAfter };
    } finally {
      try {
        await sql`select pg_advisory_unlock(${lockKey})`.execute(conn);
      } catch {
        // The connection is gone, and the lock with its session.
      }
    }
  });
}

/**
 * Runs the SQL of prepared queries (prepared-query.ts) as named statements: PostgreSQL parses and
 * plans each once per connection instead of on every call, and the hot reads share the two cores
 * of a small machine with it. Only those are named: a connection keeps every named statement
 * until it closes, and queries built per call (lists of varying length) would pile up.
 */
const statementNames = new Map<string, string>(); // as many as the code has prepared queries
class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A client whose connection fails emits 'error' even while checked out of the pool, where the
    // pool's own listener is off: unheard, that would end the process. Whatever it was running
    // fails with the same error, the pool drops it when it comes back (no longer queryable), and
    // an idle one is reported by the pool's 'error' event.
    this.on('error', ignoreClientError);
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this only adds a name.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && config.startsWith(PREPARED_SQL_TAG)) {
      let name = statementNames.get(config);
      if (!name) {
        name = `rpa_${createHash('sha256').update(config).digest('base64url').slice(0, 22)}`;
        statementNames.set(config, name);
      }
      return super.query({ name, text: config, values }, callback);
    }
    return super.query(config, values, callback);
  }
}

function ignoreClientError(): void {}

/** How long a statement waits for a pool connection by default: then 503, not a hung request. */
const DEFAULT_CONNECTION_TIMEOUT_MS = 2000;

function openPostgres(url: string, options: StoreOptions): Store {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('invalid schema name');
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // Epoch-millisecond columns are bigint; they fit a JS number until the year 287396.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its connection must not crash the process; the pool drops it and
  // makes new ones as statements need them.
  const lostListeners: ((err: unknown) => void)[] = [];
  pool.on('error', (err) => {
    for (const listener of lostListeners) listener(err);
  });
  const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
  let schemaReady: Promise<void> | null = null;
  const ensureSchema = async () => {
    if (!schema) return;
    schemaReady ??= (async () => {
      const admin = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
      });
      admin.on('error', ignoreClientError);
      await admin.connect();
      try {
        await admin.query(`create schema if not exists ${schema}`);
      } finally {
        await admin.end();
      }
    })().catch((err: unknown) => {
      // Not remembered: the next ping tries again once the database is back.
      schemaReady = null;
      throw err;
    });
    await schemaReady;
  };
  return {
    db,
    dialect: 'postgres',
    schema,
    groupCommit: createTransactionPerWrite(db),
    processCounters: () => null,
    async ping() {
      await ensureSchema();
      await pool.query('select 1');
    },
    onConnectionLost(listener) {
      lostListeners.push(listener);
    },
    async scrubFreedPages() {
      return true;
    },
    async compactTables(tables) {
      await ensureSchema();
      return compactPostgresTables(db, tables);
    },
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
  try {
    await store.ping();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}
