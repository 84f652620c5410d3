import { type Kysely, sql } from 'kysely';

// Frozen: this migration describes the schema as of its date. Change the schema with a new file.

/** Tables whose rows a configuration file may manage (docs/operations.md, rolling releases: expand only). */
const MANAGED = ['clients', 'applications', 'passkeys', 'webhook_endpoints'] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving schema types.
export async function up(db: Kysely<any>): Promise<void> {
  // The stack (a configuration file's `stack`) that created or adopted the row; null when none
  // manages it. Nullable, so the previous release's inserts stay complete.
  for (const table of MANAGED) await db.schema.alterTable(table).addColumn('managed_by', 'text').execute();
  // A passkey's name within its application: what a file names it by. Unique among the
  // application's unrevoked passkeys only, so a revoked name can be given again; a partial index
  // both SQLite and PostgreSQL build.
  await db.schema.alterTable('passkeys').addColumn('name', 'text').execute();
  await db.schema
    .createIndex('passkeys_application_name_uq')
    .on('passkeys')
    .columns(['application_id', 'name'])
    .unique()
    .where(sql.ref('name'), 'is not', null)
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
  // The label a file gave the current secret (`rotate:`): a different label rotates it.
  await db.schema.alterTable('applications').addColumn('rotate_label', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('rotate_label', 'text').execute();
  // One counter per environment, moved by every change of its tenancy in that change's
  // transaction: a plan names the revision it was computed at, and an apply at another refuses.
  await db.schema
    .createTable('tenancy_revisions')
    .addColumn('environment', 'text', (c) => c.primaryKey())
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tenancy_revisions').ifExists().execute();
  await db.schema.dropIndex('passkeys_application_name_uq').ifExists().execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('rotate_label').execute();
  await db.schema.alterTable('applications').dropColumn('rotate_label').execute();
  await db.schema.alterTable('passkeys').dropColumn('name').execute();
  for (const table of MANAGED) await db.schema.alterTable(table).dropColumn('managed_by').execute();
}
