import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
type SchemaDb = Kysely<any>;

export async function up(db: SchemaDb): Promise<void> {
  await recordRequestBaseUrl(db);
  await createEndpointTables(db);
  await createOutboxTables(db);
}

async function recordRequestBaseUrl(db: SchemaDb): Promise<void> {
  // Where a request was filed (scheme and host), so the links in its events point where its
  // Location header did. Null for requests filed before this column, or not through the API.
  await db.schema.alterTable('privacy_requests').addColumn('base_url', 'text').execute();
}

/** Endpoints, the events each subscribes to and their signing secrets. */
async function createEndpointTables(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Set when the receiver answered 410 Gone; nothing is sent until an operator enables it again.
    .addColumn('disabled_at', 'bigint')
    .addColumn('disabled_reason', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_application_idx')
    .on('webhook_endpoints')
    .column('application_id')
    .execute();

  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_subscriptions_pk', ['endpoint_id', 'event_type'])
    .execute();

  // Signing keys, in the clear like token signing keys: an HMAC needs the key itself. Several
  // are live during a rotation's grace period; expires_at null is the newest.
  await db.schema
    .createTable('webhook_secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('webhook_secrets_endpoint_idx')
    .on('webhook_secrets')
    .columns(['endpoint_id', 'created_at'])
    .execute();
}

/** The outbox and each event's deliveries. */
async function createOutboxTables(db: SchemaDb): Promise<void> {
  // The outbox: one row per event, written in the transaction of the change it reports.
  await db.schema
    .createTable('webhook_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // One row per event and subscribed endpoint, claimed by workers with leases like privacy requests.
  // The id is `<message id>:<endpoint id>`, so an event reaches an endpoint at most once.
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('webhook_messages.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    // pending, delivered or failed (given up after the last retry, or the endpoint answered 410).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'message_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_message_idx')
    .on('webhook_deliveries')
    .column('message_id')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_finished_idx')
    .on('webhook_deliveries')
    .columns(['status', 'finished_at'])
    .execute();
}

export async function down(db: SchemaDb): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute();
  await db.schema.dropTable('webhook_messages').ifExists().execute();
  await db.schema.dropTable('webhook_secrets').ifExists().execute();
  await db.schema.dropTable('webhook_subscriptions').ifExists().execute();
  await db.schema.dropTable('webhook_endpoints').ifExists().execute();
  await db.schema.alterTable('privacy_requests').dropColumn('base_url').execute();
}
