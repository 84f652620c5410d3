import { type Kysely, sql } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
type SchemaDb = Kysely<any>;

export async function up(db: SchemaDb): Promise<void> {
  await createRequestTables(db);
  await createPendingKeys(db);
  await createExports(db);
}

/** Privacy requests with the clients they name and the hashes of their subject's identifiers. */
async function createRequestTables(db: SchemaDb): Promise<void> {
  // A forget or access request. It never holds a raw identifier (docs/design.md, Privacy API): the
  // subject is known only through keyed hashes in privacy_request_identifiers.
  await db.schema
    .createTable('privacy_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('production', 'staging')`))
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('forget', 'access')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'COMPLETED')`))
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    // JSON receipt: counts per client name and kind, grown batch by batch.
    .addColumn('receipt', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('privacy_requests_application_idx')
    .on('privacy_requests')
    .columns(['application_id', 'type', 'submitted_at'])
    .execute();
  await db.schema
    .createIndex('privacy_requests_status_idx')
    .on('privacy_requests')
    .columns(['status', 'submitted_at'])
    .execute();

  await db.schema
    .createTable('privacy_request_clients')
    .addColumn('request_id', 'text', (c) => c.notNull().references('privacy_requests.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('privacy_request_clients_pk', ['request_id', 'client_id'])
    .execute();
  await db.schema
    .createIndex('privacy_request_clients_client_idx')
    .on('privacy_request_clients')
    .column('client_id')
    .execute();

  await db.schema
    .createTable('privacy_request_identifiers')
    .addColumn('request_id', 'text', (c) => c.notNull().references('privacy_requests.id').onDelete('cascade'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value_hash', 'text', (c) => c.notNull())
    // e.g. "a***@e***"; set to null once a forget request for the subject completes.
    .addColumn('masked_value', 'text')
    .addPrimaryKeyConstraint('privacy_request_identifiers_pk', ['request_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('privacy_request_identifiers_lookup_idx')
    .on('privacy_request_identifiers')
    .columns(['environment', 'kind', 'value_hash'])
    .execute();
}

async function createPendingKeys(db: SchemaDb): Promise<void> {
  // The pending rule as a unique key (docs/design.md, Privacy API): one row per named client and identifier of each
  // pending request, so a second request for the same end user collides in the database itself.
  await db.schema
    .createTable('privacy_pending_keys')
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value_hash', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull().references('privacy_requests.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('privacy_pending_keys_pk', ['environment', 'client_id', 'kind', 'value_hash'])
    .execute();
  await db.schema
    .createIndex('privacy_pending_keys_request_idx')
    .on('privacy_pending_keys')
    .column('request_id')
    .execute();
}

async function createExports(db: SchemaDb): Promise<void> {
  // Access-request results: personal data, one JSON section per client instance, purged at expiry.
  await db.schema
    .createTable('privacy_exports')
    .addColumn('request_id', 'text', (c) => c.notNull().references('privacy_requests.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('privacy_exports_pk', ['request_id', 'client_id'])
    .execute();
  await db.schema
    .createIndex('privacy_exports_expires_idx')
    .on('privacy_exports')
    .column('expires_at')
    .execute();
}

export async function down(db: SchemaDb): Promise<void> {
  for (const t of [
    'privacy_exports',
    'privacy_pending_keys',
    'privacy_request_identifiers',
    'privacy_request_clients',
    'privacy_requests',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
