import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

const SECTIONS_AT_ONCE = 20;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // Each review of an export section with what the export says of it (its JSON), so a download
  // reads a section a page at a time instead of as one document (docs/privacy.md, Exports).
  await db.schema.alterTable('privacy_export_reviews').addColumn('content', 'text').execute();
  // Sections written before held that JSON in one document, {clientName, reviews: [...]}, in
  // privacy_exports.content: split it into the rows, so that every export is read the one way.
  // The column stays (empty) for the previous version's instances during a rolling release.
  for (;;) {
    const sections = await db
      .selectFrom('privacy_exports')
      .select(['request_id', 'client_id', 'content'])
      .where('content', '<>', '')
      .limit(SECTIONS_AT_ONCE)
      .execute();
    if (sections.length === 0) return;
    for (const section of sections) {
      const { reviews } = JSON.parse(section.content) as { reviews: { id: string }[] };
      for (const review of reviews) {
        const content = JSON.stringify(review);
        await db
          .insertInto('privacy_export_reviews')
          .values({
            request_id: section.request_id,
            client_id: section.client_id,
            review_id: review.id,
            content,
          })
          .onConflict((oc) => oc.columns(['request_id', 'client_id', 'review_id']).doUpdateSet({ content }))
          .execute();
      }
      await db
        .updateTable('privacy_exports')
        .set({ content: '' })
        .where('request_id', '=', section.request_id)
        .where('client_id', '=', section.client_id)
        .execute();
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  // Each section's document again, as the previous version reads it.
  const sections = await db
    .selectFrom('privacy_exports')
    .select(['request_id', 'client_id', 'client_name'])
    .where('content', '=', '')
    .execute();
  for (const section of sections) {
    const rows = await db
      .selectFrom('privacy_export_reviews')
      .select('content')
      .where('request_id', '=', section.request_id)
      .where('client_id', '=', section.client_id)
      .orderBy('review_id')
      .execute();
    const reviews = rows.map((row) => JSON.parse(row.content ?? 'null') as unknown);
    await db
      .updateTable('privacy_exports')
      .set({ content: JSON.stringify({ clientName: section.client_name, reviews }) })
      .where('request_id', '=', section.request_id)
      .where('client_id', '=', section.client_id)
      .execute();
  }
  await db.schema.alterTable('privacy_export_reviews').dropColumn('content').execute();
}
