import { pendingMigrations } from '../../store/migrate.js';
import type { ServiceDeps } from '../deps.js';

export interface Readiness {
  /** Database migrations this code needs that the database lacks, oldest first. */
  readonly pendingMigrations: readonly string[];
}

/**
 * What /readyz asks on every probe: the database answers (a failure throws), and it has every
 * migration this code relies on. Once it has, that is remembered: migrations are only ever added,
 * so the answer cannot go back, and a probe every few seconds then costs one round trip.
 */
export function createReadinessCheck(deps: Pick<ServiceDeps, 'store'>): () => Promise<Readiness> {
  let migrated = false;
  return async () => {
    await deps.store.ping();
    if (migrated) return { pendingMigrations: [] };
    const pending = await pendingMigrations(deps.store.db, deps.store.schema);
    migrated = pending.length === 0;
    return { pendingMigrations: pending };
  };
}
