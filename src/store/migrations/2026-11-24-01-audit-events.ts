import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // Who did what to which tenant object or privacy request, and when. Ids and non-personal facts
  // only (docs/operations.md, Audit trail), so erasure has nothing to remove here and leaves it whole.
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    // JSON object of ids, counts and settings.
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_events_time_idx')
    .on('audit_events')
    .columns(['occurred_at', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_events_target_idx')
    .on('audit_events')
    .columns(['target_type', 'target_id'])
    .execute();

  // Retention counts from completion (the public system lists a request for 30 days and keeps it
  // for 90), so the purge looks requests up by status and completion time.
  await db.schema
    .createIndex('privacy_requests_completed_idx')
    .on('privacy_requests')
    .columns(['status', 'completed_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('privacy_requests_completed_idx').ifExists().execute();
  await db.schema.dropTable('audit_events').ifExists().execute();
}
