import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { CompactionSizes, Store, StoreOptions } from './database.js';
import { createTransactionPerWrite } from './group-commit.js';
import type { Database } from './schema.js';
import { SearchPathPostgresDialect } from './search-path-introspector.js';
import {
  DeadlineClient,
  deadlineOptions,
  ignoreClientError,
  resetStatementTimeout,
  setStatementTimeout,
} from './statement-deadline.js';
import { statementLog } from './statement-spans.js';

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
  statementTimeoutMs: number,
): Promise<CompactionSizes | null> {
  for (const table of tables) if (!TABLE_NAME.test(table)) throw new Error('invalid table name');
  return db.connection().execute(async (conn) => {
    // Session-level, on this connection: released by the unlock below, or with the session if the
    // connection dies mid-rewrite. Keyed by schema, so instances of other schemas do not wait.
    const lockKey = sql`${COMPACTION_LOCK_CLASS}::int4, hashtext(coalesce(current_schema(), ''))`;
    const lock = sql<{ locked: boolean }>`select pg_try_advisory_lock(${lockKey}) as locked`;
    if (!(await lock.execute(conn)).rows[0]?.locked) return null;
    try {
      // Each rewrite is one statement that may take far longer than a request's.
      await setStatementTimeout(conn, statementTimeoutMs, 'session');
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
        await resetStatementTimeout(conn);
      } catch {
        // The connection is gone, and the lock with its session.
      }
    }
  });
}

/** How long a statement waits for a pool connection by default: then 503, not a hung request. */
const DEFAULT_CONNECTION_TIMEOUT_MS = 1000;
/** Defaults of DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS. */
const DEFAULT_STATEMENT_TIMEOUT_MS = 1000;
const DEFAULT_BACKGROUND_STATEMENT_TIMEOUT_MS = 300_000;

export function openPostgres(url: string, options: StoreOptions): Store {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('invalid schema name');
  const connectionTimeoutMillis = options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS;
  const deadline = deadlineOptions(options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  const backgroundMs = options.backgroundStatementTimeoutMs ?? DEFAULT_BACKGROUND_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    Client: DeadlineClient,
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis,
    ...deadline,
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
  const db = new Kysely<Database>({
    dialect: new SearchPathPostgresDialect({ pool }),
    ...(options.tracer ? { log: statementLog(options.tracer, 'postgresql') } : {}),
  });
  let schemaReady: Promise<void> | null = null;
  const ensureSchema = async () => {
    if (!schema) return;
    schemaReady ??= (async () => {
      const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis, ...deadline });
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
    async useBackgroundDeadline(trx) {
      await setStatementTimeout(trx, backgroundMs, 'local');
    },
    async compactTables(tables) {
      await ensureSchema();
      return compactPostgresTables(db, tables, backgroundMs);
    },
    async close() {
      await db.destroy();
    },
  };
}
