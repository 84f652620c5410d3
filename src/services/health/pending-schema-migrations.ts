import type { Store } from '../../store/database.js';
import { pendingMigrations } from '../../store/migrate.js';

/**
 * Migrations this code needs that the database lacks, oldest first: the one place start-up
 * (runtime.ts) and readiness (check-readiness.ts) ask. Migrations the database has that this code
 * does not list (a later release's) are not among them: they only ever add, so such a schema is served.
 */
export async function pendingSchemaMigrations(store: Pick<Store, 'db' | 'schema'>): Promise<string[]> {
  return pendingMigrations(store.db, store.schema);
}
