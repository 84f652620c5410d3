import { type Kysely, SqliteAdapter } from 'kysely';
import type { Dialect } from './database.js';

/**
 * The SQL dialect behind a handle (the store's own or a transaction's, which shares its adapter),
 * so a repository can pick its per-dialect SQL without the services naming the dialect
 * (docs/architecture.md, The layers).
 */
// biome-ignore lint/suspicious/noExplicitAny: any table set; only the adapter is read.
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}
