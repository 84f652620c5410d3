import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Tracer } from '../domain/tracer.js';
import type { MemoryCounters } from './counters/memory-counter-store.js';
import type { Store } from './database.js';
import { createSqliteGroupCommit } from './group-commit.js';
import { ReadBatchingSqliteDialect } from './read-batching-sqlite-dialect.js';
import { allowDirectReads } from './read-batching-sqlite-driver.js';
import type { Database } from './schema.js';
import { statementLog } from './statement-spans.js';

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

export function openSqlite(path: string, tracer?: Tracer): Store {
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
  const dialect = new ReadBatchingSqliteDialect(raw, cachedPrepare, tracer);
  const exclusive = <T>(work: () => T) => dialect.driver.exclusive(work);
  const db = new Kysely<Database>({ dialect, ...(tracer ? { log: statementLog(tracer, 'sqlite') } : {}) });
  allowDirectReads(db, dialect.driver);
  const processCounters: MemoryCounters = new Map();
  return {
    db,
    dialect: 'sqlite',
    schema: undefined,
    groupCommit: createSqliteGroupCommit(db, tracer),
    processCounters() {
      return processCounters;
    },
    async ping() {
      raw.prepare('select 1').get();
    },
    onConnectionLost() {},
    async useBackgroundDeadline() {},
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
