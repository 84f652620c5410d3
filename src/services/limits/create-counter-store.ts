import type { CounterStore } from '../../store/counters/counter-store.js';
import { createRedisCounterStore } from '../../store/counters/redis-counter-store.js';
import { createSqlCounterStore } from '../../store/counters/sql-counter-store.js';
import { createSqliteFileCounterStore } from '../../store/counters/sqlite-file-counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { resolveLimitsNamespace } from './resolve-limits-namespace.js';

/**
 * Redis when REDIS_URL is set, otherwise the embedded store (docs/design.md, Limits): either way every
 * instance on the same database counts in the same place. `housekeeping` deletes ended windows
 * from the SQL table now and then; one owner per table and process is enough. `volatile` counters
 * (the failed-authentication throttle's) go, on SQLite, to the store's counter file instead of the
 * database itself, so counting them costs no disk flush (Store.volatileCounterFile).
 */
export async function createCounterStore(
  deps: Pick<ServiceDeps, 'redis' | 'store' | 'clock'>,
  options: { housekeeping?: boolean; volatile?: boolean } = {},
): Promise<CounterStore> {
  if (deps.redis) return createRedisCounterStore(deps.redis, await resolveLimitsNamespace(deps.store.db));
  const file = options.volatile ? deps.store.volatileCounterFile() : null;
  if (file) {
    return createSqliteFileCounterStore(
      file,
      options.housekeeping ? { housekeeping: { clock: deps.clock } } : {},
    );
  }
  return createSqlCounterStore(
    deps.store,
    options.housekeeping ? { housekeeping: { clock: deps.clock } } : {},
  );
}
