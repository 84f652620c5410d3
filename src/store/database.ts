import type { Kysely } from 'kysely';
import type { Tracer } from '../domain/tracer.js';
import type { MemoryCounters } from './counters/memory-counter-store.js';
import type { GroupCommit } from './group-commit.js';
import { openPostgres } from './postgres-store.js';
import type { Database } from './schema.js';
import { openSqlite } from './sqlite-store.js';

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
   * Gives the rest of transaction `trx` the background deadline (DATABASE_BACKGROUND_STATEMENT_
   * TIMEOUT_MS) instead of a request's, for work no caller waits on: erasure batches, exports,
   * purges. Nothing on SQLite, whose statements have no deadline.
   */
  useBackgroundDeadline(trx: Kysely<Database>): Promise<void>;
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
  /**
   * PostgreSQL only: the server's deadline for a statement (DATABASE_STATEMENT_TIMEOUT_MS); the
   * client gives up on a connection that has not answered a little after it.
   */
  statementTimeoutMs?: number;
  /** PostgreSQL only: the same for background work (DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS). */
  backgroundStatementTimeoutMs?: number;
  /** A span per statement made by traced work (statement-spans.ts); none when absent. */
  tracer?: Tracer;
}

export function parseDatabaseUrl(url: string): { dialect: Dialect; location: string } {
  if (url.startsWith('sqlite:')) return { dialect: 'sqlite', location: url.slice('sqlite:'.length) };
  return { dialect: 'postgres', location: url };
}

export async function openStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const { dialect, location } = parseDatabaseUrl(url);
  const store = dialect === 'sqlite' ? openSqlite(location, options.tracer) : openPostgres(location, options);
  try {
    await store.ping();
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}
