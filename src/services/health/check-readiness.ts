import type { ServiceDeps } from '../deps.js';
import type { Dependency } from './create-outage-log.js';
import { pendingSchemaMigrations } from './pending-schema-migrations.js';
import { reportDatabaseOutage } from './report-database-outage.js';

type CheckState = 'up' | 'down';

export interface Readiness {
  /** Each configured dependency: the database always, Redis when REDIS_URL is set. */
  readonly checks: Readonly<Partial<Record<Dependency, CheckState>>> & { readonly database: CheckState };
  /** Database migrations this code needs that the database lacks, oldest first (none known when down). */
  readonly pendingMigrations: readonly string[];
}

/** How long one dependency may take to answer a probe before it counts as down. */
const CHECK_TIMEOUT_MS = 1000;

/** `work`'s outcome, or a rejection once CHECK_TIMEOUT_MS have passed: a stalled peer never answers. */
async function bounded<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What /readyz asks on every probe, of each dependency in parallel and each for about a second:
 * the database answers and has every migration this code relies on, and Redis, when configured,
 * answers a PING. Never throws: a dependency that fails or is too slow is `down`. The database's
 * answer also opens or closes its outage in the outage log (deps.outages). Once every migration
 * is there, that is remembered: migrations are only ever added, so the answer cannot go back,
 * and a probe every few seconds then costs one round trip.
 */
export function createReadinessCheck(
  deps: Pick<ServiceDeps, 'store' | 'redis' | 'outages'>,
): () => Promise<Readiness> {
  let migrated = false;
  const database = async (): Promise<readonly string[]> => {
    await deps.store.ping();
    if (migrated) return [];
    const pending = await pendingSchemaMigrations(deps.store);
    migrated = pending.length === 0;
    return pending;
  };
  const { redis } = deps;
  return async () => {
    const [db, cache] = await Promise.allSettled([
      bounded(database()),
      redis ? bounded(redis.ping()) : Promise.resolve(null),
    ]);
    if (db.status === 'fulfilled') deps.outages.up('database');
    else reportDatabaseOutage(deps, db.reason);
    const state = (outcome: PromiseSettledResult<unknown>): CheckState =>
      outcome.status === 'fulfilled' ? 'up' : 'down';
    return {
      checks: { database: state(db), ...(redis ? { redis: state(cache) } : {}) },
      pendingMigrations: db.status === 'fulfilled' ? db.value : [],
    };
  };
}
