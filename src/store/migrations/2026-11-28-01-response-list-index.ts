import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // A review's responses are listed a page at a time in (creation time, id) order: read in this
  // index's order, a page costs its own rows, not a sort of every response to the review.
  await db.schema
    .createIndex('client_responses_review_created_idx')
    .on('client_responses')
    .columns(['review_id', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('client_responses_review_created_idx').ifExists().execute();
}
