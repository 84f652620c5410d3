import type { Insertable, Kysely } from 'kysely';
import { chunks } from './chunks.js';
import type { Database } from './schema.js';

// Many rows a statement (a configuration file of thousands of objects), few enough that the bound
// values stay below SQLite's 32766: at most 15 columns a row.
const ROWS = 1000;

type Table =
  | 'clients'
  | 'applications'
  | 'application_secrets'
  | 'application_grants'
  | 'passkeys'
  | 'webhook_endpoints'
  | 'webhook_subscriptions'
  | 'webhook_secrets';

/** Inserts `rows` into `table`, a chunk a statement, in the caller's transaction; none, no statement. */
export async function insertChunked<T extends Table>(
  db: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (const part of chunks(rows, ROWS))
    await db
      .insertInto(table)
      // biome-ignore lint/suspicious/noExplicitAny: one statement builder for several row types.
      .values(part as any)
      .execute();
}

/** How many ids one statement names at most (`where id in (...)`). */
export const IDS_PER_STATEMENT = ROWS;
