import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // Identifiers of forgotten people, as keyed hashes, per client instance: imports refuse lines that
  // carry one, so erased data cannot come back by accident (docs/design.md, Privacy API). Kept
  // beyond the request's own retention; only an operator lifts a suppression, and that is recorded.
  await db.schema
    .createTable('privacy_suppressions')
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value_hash', 'text', (c) => c.notNull())
    // The forget request that suppressed it. Not a foreign key: requests are purged, suppressions stay.
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // value_hash before kind: an import looks up a client's hashes of every kind at once.
    .addPrimaryKeyConstraint('privacy_suppressions_pk', ['client_id', 'value_hash', 'kind'])
    .execute();
  await db.schema
    .createIndex('privacy_suppressions_subject_idx')
    .on('privacy_suppressions')
    .columns(['subject_id', 'client_id'])
    .execute();

  // Every lifted suppression: who, when, why, and how many identifiers; never the identifiers.
  await db.schema
    .createTable('privacy_suppression_lifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('identifiers', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('lifted_by', 'text', (c) => c.notNull())
    .addColumn('lifted_at', 'bigint', (c) => c.notNull())
    .execute();

  // Each rewrite of the tables that held erased data, by the command or the worker.
  await db.schema
    .createTable('privacy_compactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('tables', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('bytes_before', 'bigint')
    .addColumn('bytes_after', 'bigint')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('privacy_compactions_started_idx')
    .on('privacy_compactions')
    .column('started_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['privacy_compactions', 'privacy_suppression_lifts', 'privacy_suppressions']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
