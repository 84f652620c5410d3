import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
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
import type { Database } from './schema.js';
import { resetStatementTimeout, setStatementTimeout } from './statement-deadline.js';

/**
 * Migrations are listed here rather than read from a folder, so the same list works from src/
 * under tsx and from dist/ after the build. Names sort by date; never rename or edit one.
 */
export const migrations: Readonly<Record<string, Migration>> = Object.freeze({
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

/** Names of this code's migrations the database has not applied, oldest first. */
export async function pendingMigrations(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const migrator = migratorFor(db, schema);
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<MigrationOutcome> {
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
