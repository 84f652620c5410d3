import { type Kysely, sql } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
type SchemaDb = Kysely<any>;

export async function up(db: SchemaDb): Promise<void> {
  await createTenancyTables(db);
  await createCredentialTables(db);
  await createReviewTables(db);
  await createResponseTables(db);
  await createInstanceSettings(db);
}

/** Client instances, the applications acting for them, their secrets and grants. */
async function createTenancyTables(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('production', 'staging')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('clients_environment_name_uq', ['environment', 'name'])
    .execute();

  await db.schema
    .createTable('applications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('application_secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('application_secrets_application_idx')
    .on('application_secrets')
    .column('application_id')
    .execute();

  await db.schema
    .createTable('application_grants')
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('application_grants_pk', ['application_id', 'client_id'])
    .execute();
}

/** What an application presents: passkeys and access tokens. */
async function createCredentialTables(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('api', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('rate_limit_per_minute', 'integer', (c) => c.notNull())
    .addColumn('quota_per_day', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_application_idx').on('passkeys').column('application_id').execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('environment', 'text', (c) => c.notNull())
    // The secret the token was obtained with: retiring a leaked secret also ends its tokens.
    .addColumn('secret_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('access_tokens_application_idx')
    .on('access_tokens')
    .column('application_id')
    .execute();
  await db.schema.createIndex('access_tokens_expires_idx').on('access_tokens').column('expires_at').execute();
}

/** Reviews and the keyed hashes of their authors' identifiers. */
async function createReviewTables(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('rating', 'integer')
    .addColumn('title', 'text')
    .addColumn('text', 'text')
    .addColumn('author_id', 'text')
    .addColumn('author_name', 'text')
    .addColumn('author_email', 'text')
    .addColumn('author_phone', 'text')
    .addColumn('author_instagram', 'text')
    .addColumn('author_facebook', 'text')
    .addColumn('author_twitter', 'text')
    .addColumn('author_youtube_channel', 'text')
    .addColumn('author_youtube_username', 'text')
    .addColumn('author_vimeo', 'text')
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reviews_client_idx')
    .on('reviews')
    .columns(['client_id', 'submitted_at'])
    .execute();

  await db.schema
    .createTable('review_identifiers')
    .addColumn('review_id', 'text', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('review_identifiers_pk', ['review_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('review_identifiers_lookup_idx')
    .on('review_identifiers')
    .columns(['client_id', 'kind', 'value_hash'])
    .execute();
}

/** Client responses to reviews and the authors they name. */
async function createResponseTables(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('response_authors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('response_authors_application_name_uq', ['application_id', 'name'])
    .execute();

  await db.schema
    .createTable('client_responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('review_id', 'text', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.notNull().references('response_authors.id'))
    .addColumn('department', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('response_hash', 'text', (c) => c.notNull())
    .addColumn('response_by', 'text')
    .addColumn('response_source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // The public system answers an identical duplicate response text with 400.
    .addUniqueConstraint('client_responses_review_text_uq', ['review_id', 'response_hash'])
    .execute();
}

/** Settings of this installation, by key. */
async function createInstanceSettings(db: SchemaDb): Promise<void> {
  await db.schema
    .createTable('instance_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: SchemaDb): Promise<void> {
  for (const t of [
    'instance_settings',
    'client_responses',
    'response_authors',
    'review_identifiers',
    'reviews',
    'access_tokens',
    'passkeys',
    'application_grants',
    'application_secrets',
    'applications',
    'clients',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
