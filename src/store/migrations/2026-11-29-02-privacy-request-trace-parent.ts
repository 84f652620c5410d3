import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // The W3C traceparent of the traced call that filed a request, so the worker that carries it out
  // continues that trace (docs/tracing.md). Nullable: the previous release writes none.
  await db.schema.alterTable('privacy_requests').addColumn('trace_parent', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('privacy_requests').dropColumn('trace_parent').execute();
}
