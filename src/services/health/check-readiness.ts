import { TimeoutStrategy, timeout } from 'cockatiel';
import type { Config } from '../../config.js';
import { pendingMigrations } from '../../store/migrate.js';
import type { ServiceDeps } from '../deps.js';
import type { Dependency } from './create-outage-log.js';
import { reportDatabaseOutage } from './report-database-outage.js';

type CheckState = 'up' | 'down';

export interface Readiness {
  /** Each configured dependency: the database always, Redis when REDIS_URL is set. */
  readonly checks: Readonly<Partial<Record<Dependency, CheckState>>> & { readonly database: CheckState };
  /** Database migrations this code needs that the database lacks, oldest first (none known when down). */
  readonly pendingMigrations: readonly string[];
}

/**
 * How long one dependency may take to answer a probe before it counts as down: about a second
 * where the answer decides readiness (READINESS_REQUIRES_DEPENDENCIES), a quarter of that where it
 * is only reported. A stalled database must not make /readyz itself slower than a balancer's check
 * allows (HAProxy's `timeout check`, Kubernetes' `timeoutSeconds`: often 1 s), or every instance
 * leaves the balancer at once over an outage they share (docs/operations.md).
 */
function checkTimeoutMs(config: Pick<Config, 'readinessRequiresDependencies'>): number {
  return config.readinessRequiresDependencies ? 1000 : 250;
}

/**
 * What /readyz asks on every probe, of each dependency in parallel and each for a bounded time:
 * the database answers and has every migration this code relies on, and Redis, when configured,
 * answers a PING. Never throws: a dependency that fails or is too slow is `down`. The database's
 * answer also opens or closes its outage in the outage log (deps.outages). Once every migration
 * is there, that is remembered: migrations are only ever added, so the answer cannot go back,
 * and a probe every few seconds then costs one round trip.
 */
export function createReadinessCheck(
  deps: Pick<ServiceDeps, 'config' | 'store' | 'redis' | 'outages'>,
): () => Promise<Readiness> {
  // Aggressive: a stalled peer never answers, so the probe does not wait for it to.
  const bounded = timeout(checkTimeoutMs(deps.config), TimeoutStrategy.Aggressive);
  let migrated = false;
  const database = async (): Promise<readonly string[]> => {
    await deps.store.ping();
    if (migrated) return [];
    const pending = await pendingMigrations(deps.store.db, deps.store.schema);
    migrated = pending.length === 0;
    return pending;
  };
  const { redis } = deps;
  return async () => {
    const [db, cache] = await Promise.allSettled([
      bounded.execute(database),
      redis ? bounded.execute(() => redis.ping()) : Promise.resolve(null),
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
