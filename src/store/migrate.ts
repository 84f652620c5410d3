import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { dialectOf } from './dialect-of.js';
import * as tenancyAndContent from './migrations/2026-11-23-01-tenancy-and-content.js';
import * as privacyRequests from './migrations/2026-11-23-02-privacy-requests.js';
import * as limitCounters from './migrations/2026-11-23-03-limit-counters.js';
import * as suppressionsAndCompactions from './migrations/2026-11-23-04-privacy-suppressions-and-compactions.js';
import * as exportReviews from './migrations/2026-11-23-05-privacy-export-reviews.js';
import * as signedTokens from './migrations/2026-11-23-06-signed-tokens.js';
import * as auditEvents from './migrations/2026-11-24-01-audit-events.js';
import * as webhooks from './migrations/2026-11-25-01-webhooks.js';
import * as adminApi from './migrations/2026-11-27-01-admin-api.js';
import * as exportReviewContent from './migrations/2026-11-27-02-export-review-content.js';
import * as responseListIndex from './migrations/2026-11-28-01-response-list-index.js';
import * as managedTenancy from './migrations/2026-11-29-01-managed-tenancy.js';
import * as privacyRequestTraceParent from './migrations/2026-11-29-02-privacy-request-trace-parent.js';
import type { Database } from './schema.js';
import { resetStatementTimeout, setStatementTimeout } from './statement-deadline.js';

/**
 * A migration, and whether it contracts the schema. A release's migrations run while the previous
 * release still serves, so a migration only expands: new tables, new columns that are nullable or
 * have a default, new indexes. One that drops or renames a table or column, changes a column's
 * type, or makes the previous release's inserts incomplete is a contract step, marked by its module
 * with `export const contract = true`, and comes in a release after the one that stopped using what
 * it takes away (docs/operations.md, "Health, readiness and migrations").
 */
export interface ReleaseMigration extends Migration {
  readonly contract?: boolean;
}

/**
 * Migrations are listed here rather than read from a folder, so the same list works from src/
 * under tsx and from dist/ after the build. Names sort by date; never rename or edit one.
 */
export const migrations: Readonly<Record<string, ReleaseMigration>> = Object.freeze({
  '2026-11-23-01-tenancy-and-content': tenancyAndContent,
  '2026-11-23-02-privacy-requests': privacyRequests,
  '2026-11-23-03-limit-counters': limitCounters,
  '2026-11-23-04-privacy-suppressions-and-compactions': suppressionsAndCompactions,
  '2026-11-23-05-privacy-export-reviews': exportReviews,
  '2026-11-23-06-signed-tokens': signedTokens,
  '2026-11-24-01-audit-events': auditEvents,
  '2026-11-25-01-webhooks': webhooks,
  '2026-11-27-01-admin-api': adminApi,
  '2026-11-27-02-export-review-content': exportReviewContent,
  '2026-11-28-01-response-list-index': responseListIndex,
  '2026-11-29-01-managed-tenancy': managedTenancy,
  '2026-11-29-02-privacy-request-trace-parent': privacyRequestTraceParent,
});

const provider: MigrationProvider = {
  async getMigrations() {
    return { ...migrations };
  },
};

export interface MigrationOutcome {
  readonly applied: readonly string[];
}

function migratorFor(db: Kysely<Database>, schema?: string): Migrator {
  // With a dedicated schema the bookkeeping tables live there too, not in whatever schema has them.
  return new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

/** Kysely's bookkeeping table (DEFAULT_MIGRATION_TABLE), one row per applied migration. */
const MIGRATION_TABLE = 'kysely_migration';

/** Where the database stands against this code's migrations. */
export interface SchemaState {
  /** This code's migrations the database has not applied, oldest first. */
  readonly pending: string[];
  /** Migrations the database has applied that this code does not list: a newer release's. */
  readonly unknown: string[];
}

async function appliedMigrations(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === MIGRATION_TABLE && (!schema || t.schema === schema))) return [];
  const table = sql.table(schema ? `${schema}.${MIGRATION_TABLE}` : MIGRATION_TABLE);
  const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
  return rows.map((r) => r.name).sort();
}

/**
 * The migrations this code lists and the database lacks, and those the database has applied and
 * this code does not list. While a release rolls out, the previous release serves a schema its
 * successor has expanded (docs/operations.md, "Health, readiness and migrations").
 */
export async function schemaState(db: Kysely<Database>, schema?: string): Promise<SchemaState> {
  const applied = await appliedMigrations(db, schema);
  const appliedSet = new Set(applied);
  return {
    pending: Object.keys(migrations).filter((name) => !appliedSet.has(name)),
    unknown: applied.filter((name) => !Object.hasOwn(migrations, name)),
  };
}

/** Names of this code's migrations the database has not applied, oldest first. */
export async function pendingMigrations(db: Kysely<Database>, schema?: string): Promise<string[]> {
  return (await schemaState(db, schema)).pending;
}

/**
 * Applies this code's pending migrations. A database a newer release has migrated further holds
 * migrations this code does not know, which Kysely's Migrator refuses as corrupted: with none of
 * this code's pending, there is nothing to do; with some, this code is not part of that database's
 * history, and it refuses to guess.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<MigrationOutcome> {
  const state = await schemaState(db, schema);
  if (state.unknown.length > 0) {
    if (state.pending.length === 0) return { applied: [] };
    throw new Error(
      `the database has applied migrations this code does not know (${state.unknown.join(', ')}) but not ` +
        `its own ${state.pending.join(', ')}`,
    );
  }
  if (dialectOf(db) === 'sqlite') return migrate(db, schema);
  // An index build or a rewrite of a large table outlasts any statement deadline; migrations run
  // before the instance serves, or from `rpa migrate`, so no request waits on them.
  return db.connection().execute(async (conn) => {
    await setStatementTimeout(conn, 0, 'session');
    try {
      return await migrate(conn, schema);
    } finally {
      await resetStatementTimeout(conn).catch(() => {});
    }
  });
}

async function migrate(db: Kysely<Database>, schema?: string): Promise<MigrationOutcome> {
  const { error, results } = await migratorFor(db, schema).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
