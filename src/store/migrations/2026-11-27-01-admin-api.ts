import type { Kysely } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // Credentials of the admin API: the value only as its SHA-256 digest (domain/credentials.ts).
  await db.schema
    .createTable('admin_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // Space-separated, from domain/admin-scope.ts.
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  // When a passkey was last used: written by each instance at most once a minute per passkey
  // (services/tenancy/create-passkey-usage.ts), never on a request's path.
  await db.schema.alterTable('passkeys').addColumn('last_used_at', 'bigint').execute();
  // A passkey may end on its own; past it, it is refused like a revoked one.
  await db.schema.alterTable('passkeys').addColumn('expires_at', 'bigint').execute();
  // What a create answered, per caller and Idempotency-Key, for 24 hours: the key only as its
  // digest, the answer sealed with a key derived from it (domain/idempotency-key.ts).
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('sealed_answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key_hash'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_at')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
  await db.schema.alterTable('passkeys').dropColumn('expires_at').execute();
  await db.schema.alterTable('passkeys').dropColumn('last_used_at').execute();
  await db.schema.dropTable('admin_tokens').ifExists().execute();
}
