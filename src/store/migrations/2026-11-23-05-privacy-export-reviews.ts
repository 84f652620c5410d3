import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // Which reviews each export section holds, so that erasing a review removes every export that
  // copied it, whichever identifier the export was filed under (docs/design.md, Privacy API).
  // Review ids are opaque; the rows go with their section.
  await db.schema
    .createTable('privacy_export_reviews')
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('review_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('privacy_export_reviews_pk', ['request_id', 'client_id', 'review_id'])
    .addForeignKeyConstraint(
      'privacy_export_reviews_section_fk',
      ['request_id', 'client_id'],
      'privacy_exports',
      ['request_id', 'client_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('privacy_export_reviews_review_idx')
    .on('privacy_export_reviews')
    .column('review_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('privacy_export_reviews').ifExists().execute();
}
