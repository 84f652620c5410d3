import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

/**
 * A contract step (migrate.ts): it drops access_tokens, where the releases before signed tokens
 * stored the tokens they issued; none of those can serve the schema after it.
 */
export const contract = true;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // Access tokens carry their own claims under an HMAC (docs/design.md, Access tokens): the keys
  // are instance-wide, so every instance can check what any other issued.
  await db.schema
    .createTable('token_signing_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_material', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Null while the key may sign; once set, its tokens are accepted until then only.
    .addColumn('retire_at', 'bigint')
    .execute();

  // RFC 7009 revocations of single tokens, kept until the token would have expired anyway.
  await db.schema
    .createTable('token_denials')
    .addColumn('token_id', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('token_denials_expires_idx').on('token_denials').column('expires_at').execute();

  await db.schema.dropTable('access_tokens').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('token_denials').ifExists().execute();
  await db.schema.dropTable('token_signing_keys').ifExists().execute();
  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('environment', 'text', (c) => c.notNull())
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
