import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // Fixed-window counters of passkey limits and failed client authentications, used when no Redis
  // is configured (src/store/counters/sql-counter-store.ts). Created here rather than by a library
  // at run time, so every process finds it and no request pays for DDL.
  await db.schema
    .createTable('limit_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    // Epoch ms at which the window ends; a hit after it starts a new window.
    .addColumn('window_end', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('limit_counters_window_end_idx')
    .on('limit_counters')
    .column('window_end')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('limit_counters').ifExists().execute();
}
